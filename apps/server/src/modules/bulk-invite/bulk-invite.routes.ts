import { bulkInviteIn, bulkInvitePreviewOut, bulkInviteResultOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { checkBulkInvite, confirmBulkInvite } from './bulk-invite.service.js';

const access = { permissions: ['cases.add_case', 'subjects.add_subject'] } as const;

/**
 * Bulk invite from a CSV (issue 33): POST /api/cases/bulk-invite/preview/ checks the file's rows
 * (nothing is written), POST /api/cases/bulk-invite/ opens a case for each good row under the
 * process and reports the rows left out. Staff who may add cases and subjects.
 */
export async function bulkInviteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const mail = { publicUrl: deps.config.publicUrl };

  r.post(
    '/api/cases/bulk-invite/preview/',
    {
      schema: { tags: ['cases'], body: bulkInviteIn, response: { 200: bulkInvitePreviewOut } },
      config: { access },
    },
    async (request) => {
      const out = await runInTenant(
        deps,
        actorOf(request),
        ({ tx }) => checkBulkInvite(tx, request.body),
        readOnly,
      );
      return out.preview;
    },
  );

  r.post(
    '/api/cases/bulk-invite/',
    {
      schema: { tags: ['cases'], body: bulkInviteIn, response: { 201: bulkInviteResultOut } },
      config: { access },
    },
    async (request, reply) => {
      const out = await runInTenant(deps, actorOf(request), (ctx) =>
        confirmBulkInvite(ctx, mail, request.body),
      );
      reply.code(201);
      return out;
    },
  );
}
