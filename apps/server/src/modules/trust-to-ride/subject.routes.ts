import {
  readResultData,
  trustToRideResultDataSchema,
  trustToRideSessionOut,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/access.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { parseBody } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import {
  type ContextDeps,
  runAsSystem,
  type ServiceContext,
} from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { lockOwnCase, runSubjectWrite } from '../portal/subject-scope.js';
import { bookPlace, TRUST_TO_RIDE } from './bookings.service.js';
import { bookableSessions } from './sessions.service.js';

const subjectTrustToRideOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  state: z.string(),
  result_data: trustToRideResultDataSchema,
  sessions: z.array(trustToRideSessionOut),
});
const subjectBookingIn = z.object({
  session: z.number({ error: 'Required' }).int().positive(),
});

/** The case of an activity (0 when there is none): the subject's own case is checked next. */
async function caseOfActivity(deps: ContextDeps, id: number): Promise<number> {
  return runAsSystem(deps, async ({ tx }) => {
    const [row] = await tx
      .select({ caseId: caseActivities.caseId })
      .from(caseActivities)
      .where(eq(caseActivities.id, id));
    return row?.caseId ?? 0;
  });
}

/** The subject's own open case's trust-to-ride activity `id` (404 otherwise). */
async function ownActivity(ctx: ServiceContext, id: number, caseId: number) {
  await lockOwnCase(ctx, caseId, 'read');
  const [a] = await ctx.tx
    .select({ row: caseActivities })
    .from(caseActivities)
    .where(eq(caseActivities.id, id));
  if (!a || a.row.caseId !== caseId) throw new NotFoundError();
  return a.row;
}

/**
 * The subject's trust-to-ride (its portal and case page): its booking, and the upcoming sessions
 * of its customer with a place left; booking one of them. The case must be the subject's own and
 * open (404 otherwise); the booking is written by the system context after that check, in the
 * same transaction (the subject's role only reads activities).
 */
export async function trustToRideSubjectRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/s/trust-to-ride/activities/:id/',
    {
      schema: {
        tags: ['trust-to-ride'],
        params: idParams,
        response: { 200: subjectTrustToRideOut },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const caseId = await caseOfActivity(deps, id);
      return runSubjectWrite(deps, actorOf(request), async (ctx) => {
        const a = await ownActivity(ctx, id, caseId);
        return {
          id: a.id,
          case: a.caseId,
          state: a.state,
          result_data: readResultData(TRUST_TO_RIDE, a.resultData),
          sessions:
            a.state === 'ca-complete' || a.state === 'ca-cancelled'
              ? []
              : await bookableSessions(ctx.tx, a.customerId, ctx.clock.now()),
        };
      });
    },
  );

  r.post(
    '/api/s/trust-to-ride/activities/:id/booking/',
    {
      schema: {
        tags: ['trust-to-ride'],
        params: idParams,
        body: subjectBookingIn,
        response: { 201: subjectTrustToRideOut },
      },
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const input = parseBody(subjectBookingIn, request.body);
      const caseId = await caseOfActivity(deps, id);
      const out = await runSubjectWrite(deps, actorOf(request), async (ctx) => {
        const a = await ownActivity(ctx, id, caseId);
        await bookPlace(ctx, { session: input.session, case_activity: a.id });
        const [after] = await ctx.tx
          .select()
          .from(caseActivities)
          .where(eq(caseActivities.id, a.id));
        if (!after) throw ValidationError.of('case_activity', 'Not found.');
        return {
          id: after.id,
          case: after.caseId,
          state: after.state,
          result_data: readResultData(TRUST_TO_RIDE, after.resultData),
          sessions: [],
        };
      });
      reply.code(201);
      return out;
    },
  );
}
