import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { runInOps } from '../../platform/service-context.js';
import { discardDeadJob, JOB_CT, retryDeadJob } from './ops-jobs.service.js';

const params = z.object({ id: z.string().max(64) });
const detailOut = z.strictObject({ detail: z.string() });

/**
 * /api/ops/jobs/{id}/retry/ and .../discard/ (issue 33): operations staff give a dead job another
 * run or discard it, audited (the list is modules/jobs').
 */
export async function opsJobsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  for (const [action, verb, run, detail] of [
    ['retry', 'job_retried', retryDeadJob, 'Job queued again'],
    ['discard', 'job_discarded', discardDeadJob, 'Job discarded'],
  ] as const) {
    r.post(
      `/api/ops/jobs/:id/${action}/`,
      {
        schema: { tags: ['ops'], params, response: { 200: detailOut } },
        config: { access: { permissions: ['customers.ops_access'] } },
      },
      async (request) => {
        const actor = actorOf(request);
        // the permission is checked before (route access); the ops context refuses anyone else
        await runInOps(deps, actor, async () => undefined);
        const name = await run(deps.db, request.params.id, deps.jobs.names());
        await runInOps(deps, actor, ({ tx }) =>
          recordAudit(tx, actor, {
            verb,
            contentType: JOB_CT,
            objectId: request.params.id,
            objectRepr: `Job ${name} ${request.params.id}`,
            customerId: null,
          }),
        );
        return { detail };
      },
    );
  }
}
