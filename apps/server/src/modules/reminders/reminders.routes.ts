import { INVITATION_NOT_EXPIRED, invitationStatusOut } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/access.js';
import { ValidationError } from '../../platform/errors.js';
import { parseId } from '../../platform/resource-query.js';
import { readOnly, runAsSystem, runInTenant } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { getSubject } from '../subjects/subjects.service.js';
import { invitationStatus, resendInvitation, voidClaimLinks } from './reminders.service.js';
import { caseInvitations } from './reminders.table.js';
import { reminderDeps } from './reminders-due-job.js';

const idParams = z.object({ id: z.string().max(20) });
const detailOut = z.strictObject({ detail: z.string() });

/**
 * A case's invitation (issue 33): its state (sent, reminders, expiry) and the customer's resend
 * of an expired one (a new link; the old ones answer as expired). Staff of the case's customer.
 */
export async function remindersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/cases/:id/invitation/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: invitationStatusOut } },
      config: { access: { permissions: ['cases.view_case'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), ({ tx }) => invitationStatus(tx, id), readOnly);
    },
  );

  r.post(
    '/api/cases/:id/resend-invitation/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: detailOut } },
      config: { access: { permissions: ['cases.change_case'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const actor = actorOf(request);
      // the case (404 for another customer's) and its subject's login, before its old links go
      const userId = await runInTenant(
        deps,
        actor,
        async ({ tx }) => {
          const [c] = await tx.select().from(cases).where(eq(cases.id, id));
          if (!c) return null;
          const [inv] = await tx
            .select()
            .from(caseInvitations)
            .where(eq(caseInvitations.caseId, id));
          if (!inv?.expiredAt) throw ValidationError.of('non_field_errors', INVITATION_NOT_EXPIRED);
          return (await getSubject(tx, c.subjectId)).userId;
        },
        readOnly,
      );
      if (userId !== null) {
        await runAsSystem(deps, ({ tx, clock }) => voidClaimLinks(tx, userId, clock.now()));
      }
      return runInTenant(deps, actor, (ctx) => resendInvitation(ctx, reminderDeps(deps), id));
    },
  );
}
