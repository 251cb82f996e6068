import { opsDashboardOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { opsActorOf } from '../../platform/access.js';
import { readOnly, runInOps } from '../../platform/service-context.js';
import { opsDashboard } from './ops-dashboard.service.js';

/** GET /api/ops/dashboard/: operations staff only (customer staff and subjects 403). */
export async function opsDashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  r.get(
    '/api/ops/dashboard/',
    {
      schema: { tags: ['ops'], response: { 200: opsDashboardOut } },
      config: { access: { audience: 'ops', permissions: ['customers.ops_access'] } },
    },
    async (request) =>
      runInOps(
        deps,
        opsActorOf(request),
        ({ tx }) => opsDashboard(tx, deps.clock.now(), deps.jobs.names()),
        readOnly,
      ),
  );
}
