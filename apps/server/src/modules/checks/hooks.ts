import { ENGINE_ACTIVITY_MESSAGES, isHandMoveAllowed, processingDataSchema } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { engineActivityIds, resumeWaiting, START_JOB, startActivity } from './engine.js';
import { checkKindOf } from './registry.js';

/**
 * Where the rest of the server hands work to the check engine (issue 17), so that the portal and
 * payments never reach into a kind of check. Each runs inside the caller's transaction: what it
 * enqueues happens once that commits, and never if it rolls back.
 */

/**
 * The subject's Review & Submit moved these activities on (point 4): the engine starts each one
 * it runs (a provider call is a job, never made inside the request); others are left alone. In a
 * subject's own transaction (its role only reads activities) the start is a job enqueued in it,
 * run in the customer's tenant once the submit commits; in a staff or system one it happens here.
 */
export async function activitiesSubmitted(
  ctx: ServiceContext,
  caseId: number,
  caseActivityIds: readonly number[],
): Promise<void> {
  const ids = await engineActivityIds(ctx.tx, caseId, caseActivityIds);
  if (ids.length === 0) return;
  if (ctx.actor.type === 'SubjectUser') {
    const customerId = ctx.actor.customerId;
    if (customerId === null) throw new Error('a subject acts within a customer');
    await ctx.enqueue({
      name: START_JOB,
      data: { case_id: caseId, customer_id: customerId, case_activity_ids: ids },
    });
    return;
  }
  for (const id of ids) await startActivity(ctx, id);
}

/**
 * Something the case's started checks wait for has happened (their kind's gate: the case's DBS
 * details countersigned, which dbs-details reports in its transaction): each whose gate is now
 * open goes to its provider (a job).
 */
export async function gateOpened(ctx: ServiceContext, caseId: number): Promise<void> {
  await resumeWaiting(ctx, caseId);
}

/**
 * A hand edit of an activity (PATCH /api/{,ops/}case-activities/{id}/) the engine runs. Customer
 * staff: its state moves with the provider (only a cancellation, or a decision once it waits for
 * one), and its provider log and result are not theirs to write. Operations may override by hand
 * (audited), but what they write must stay the engine's: a result in the kind's shape, and the
 * data of a started check still its processing data. 400 otherwise; other kinds are left to the
 * domain's transitions.
 */
export async function checkHandEdit(
  tx: Tx,
  actor: { isOps: boolean },
  id: number,
  edit: { state?: string | undefined; result_data?: unknown; processing_data?: unknown },
): Promise<void> {
  const [row] = await tx
    .select({
      state: caseActivities.state,
      code: activityTypes.code,
      processing: caseActivities.processingData,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(caseActivities.id, id))
    .limit(1);
  const kind = row ? checkKindOf(row.code) : null;
  if (!row || !kind) return;
  const errors: Record<string, string[]> = {};
  if (actor.isOps) {
    if (edit.result_data !== undefined && !kind.resultSchema.safeParse(edit.result_data).success) {
      errors.result_data = [ENGINE_ACTIVITY_MESSAGES.resultShape];
    }
    if (
      edit.processing_data !== undefined &&
      !keepsEngineData(row.processing, edit.processing_data)
    ) {
      errors.processing_data = [ENGINE_ACTIVITY_MESSAGES.processingData];
    }
  } else {
    if (edit.state !== undefined && edit.state !== row.state) {
      if (!isHandMoveAllowed(row.state, edit.state))
        errors.state = [ENGINE_ACTIVITY_MESSAGES.state];
    }
    if (edit.processing_data !== undefined) {
      errors.processing_data = [ENGINE_ACTIVITY_MESSAGES.processingData];
    }
    if (edit.result_data !== undefined) errors.result_data = [ENGINE_ACTIVITY_MESSAGES.resultData];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * True when `next` may replace an engine-run activity's processing data: before the start
 * anything (the start keeps only the provider configuration); once started, data the engine can
 * still read (its provider log in shape).
 */
export function keepsEngineData(current: unknown, next: unknown): boolean {
  return processingDataSchema.safeParse(current).success
    ? processingDataSchema.safeParse(next).success
    : true;
}

/**
 * A result as its subject may read it (GET /api/s/case-activities/{id}/result/, spec point 2: a
 * restricted version of the customer's): the kind's own subject view when the engine runs it
 * and it has one (staff-only fields left out), else `resultData` as it is.
 */
export function subjectResultView(
  code: string,
  resultData: Record<string, unknown>,
): Record<string, unknown> {
  const view = checkKindOf(code)?.subjectView;
  return view ? view(resultData) : resultData;
}
