import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  davisEmailSchema,
  isEngineRunKind,
  readResultData,
  withEvent,
} from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsActorOf } from '../../../platform/access.js';
import { NotFoundError, ValidationError } from '../../../platform/errors.js';
import { parseBody } from '../../../platform/query-params.js';
import { idParams, parseId } from '../../../platform/resource-query.js';
import { runInOps, type ServiceContext } from '../../../platform/service-context.js';
import { changeActivity } from '../../activities/activities.service.js';
import { refuseIfRedacted } from '../../activities/redacted-guard.js';
import { lockProcessed, nowIso, saveActivity, today } from '../activity.js';
import { CONFIRM_EMAIL_JOB } from './jobs.js';

/*
 * The Davis email confirmation (operations forms, spec points 2 and 5: 'Required', 'Invalid
 * email'): operations confirm the driver's email to the licence-checking service. Before the
 * check starts, it is the email the check registers; once the service waits for it
 * (EmailUnconfirmed, 'ca-awaiting-ops') or at any time the check is open, it is sent to the
 * service (a job) and the check goes on. A closed check refuses it.
 */

export const NOT_A_LICENCE_CHECK = 'This activity is not a driving licence check.';
export const LICENCE_CHECK_CLOSED = 'This activity is closed.';

export const davisEmailOut = z.strictObject({
  id: z.number(),
  state: z.string(),
  result_data: z.record(z.string(), z.unknown()),
});
export type DavisEmailOut = z.infer<typeof davisEmailOut>;

const CLOSED: readonly string[] = ['ca-complete', 'ca-cancelled'];

export async function confirmDavisEmail(
  ctx: ServiceContext,
  id: number,
  email: string,
): Promise<DavisEmailOut> {
  const a = await lockProcessed(ctx.tx, id);
  // an activity the engine does not run is not found, as for the engine's other forms
  if (!a || !isEngineRunKind(a.code)) throw new NotFoundError();
  if (a.code !== 'licence-check') throw ValidationError.of('non_field_errors', NOT_A_LICENCE_CHECK);
  // a redacted check (an erasure, a retention rule) never has the driver's email put back
  await refuseIfRedacted(ctx.tx, a.row);
  if (CLOSED.includes(a.row.state)) {
    throw ValidationError.of('non_field_errors', LICENCE_CHECK_CLOSED);
  }
  const resultData = ACTIVITY_KINDS['licence-check'].result.parse({
    ...readResultData('licence-check', a.row.resultData),
    confirmed_email: email,
    confirmed_at: today(ctx),
  });
  const registered = a.processing?.reference;
  if (!a.processing || !registered) {
    // not registered yet: the check will register with this email
    const { activity } = await changeActivity(
      ctx.tx,
      ctx.actor,
      id,
      { result_data: resultData },
      ctx.clock.now(),
    );
    return { id, state: activity.state, result_data: activity.resultData };
  }
  const processing = withEvent(a.processing, {
    at: nowIso(ctx),
    type: 'request',
    body: { email_confirmation: true, by: ctx.actor.name },
  });
  const state: CaseActivityState = 'ca-in-progress';
  const { activity } = await saveActivity(ctx, a, processing, {
    resultData,
    ...(a.row.state === 'ca-awaiting-ops' ? { state } : {}),
  });
  if (activity.state === 'ca-in-progress') {
    await ctx.enqueue({
      name: CONFIRM_EMAIL_JOB,
      data: { case_activity_id: id, customer_id: a.row.customerId },
    });
  }
  return { id, state: activity.state, result_data: activity.resultData };
}

/** POST /api/ops/case-activities/{id}/davis-email/ {email}: operations only. */
export async function licenceCheckRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/ops/case-activities/:id/davis-email/',
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        body: davisEmailSchema,
        response: { 200: davisEmailOut },
      },
      config: { access: { permissions: ['cases.change_caseactivity'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const input = parseBody(davisEmailSchema, request.body);
      return runInOps(app.deps, opsActorOf(request), (ctx) =>
        confirmDavisEmail(ctx, id, input.email),
      );
    },
  );
}
