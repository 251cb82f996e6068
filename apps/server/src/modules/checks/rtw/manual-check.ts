import {
  ACTIVITY_KINDS,
  isActivityOpen,
  RTW_DOCUMENT_TYPES,
  RTW_SUPPORTING_DOCUMENT_TYPES,
  type RtwManualCheckIn,
  type RtwResultData,
  rtwFollowUpDate,
  rtwManualCheckIn,
} from '@kestrel/domain';
import { fieldErrorsOf, NotFoundError, ValidationError } from '../../../platform/errors.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { changeActivity } from '../../activities/activities.service.js';
import { refuseIfRedacted } from '../../activities/redacted-guard.js';
import { lockProcessed, saveActivity } from '../activity.js';
import { personOf, recordRtwDetails } from './kind.js';

/** The documents a manual check may name: the right-to-work list and its supporting documents. */
const DOCUMENTS = new Map(
  [...RTW_DOCUMENT_TYPES, ...RTW_SUPPORTING_DOCUMENT_TYPES].map((d) => [d.code, d.name]),
);

export const RTW_CHECK_TEXTS = {
  finished: 'This check is finished: its result can no longer be changed.',
  unknownDocument: 'Not a document of the right to work list.',
} as const;

/**
 * The manual right-to-work check (the documents route, or after an online check that found no
 * profile), recorded by operations or the customer's staff: the outcome, its end for a
 * time-limited right (then a follow-up date), the documents seen and a note; checked by the one
 * recording it, now. The activity completes with it; the case's right-to-work details follow.
 */
export async function recordRtwManualCheck(
  ctx: ServiceContext,
  activityId: number,
  body: RtwManualCheckIn,
): Promise<{ id: number; state: string; result_data: Record<string, unknown> }> {
  const parsed = rtwManualCheckIn.safeParse(body);
  const issues = parsed.success ? [] : parsed.error.issues;
  const unknown = parsed.success ? parsed.data.documents.findIndex((d) => !DOCUMENTS.has(d)) : -1;
  if (!parsed.success || unknown >= 0) {
    throw new ValidationError(
      fieldErrorsOf([
        ...issues.map((i) => ({
          key: String(i.path[0] ?? 'non_field_errors'),
          message: i.message,
        })),
        ...(unknown >= 0 ? [{ key: 'documents', message: RTW_CHECK_TEXTS.unknownDocument }] : []),
      ]),
    );
  }
  const input = parsed.data;
  const a = await lockProcessed(ctx.tx, activityId);
  if (a?.code !== 'rtw') throw new NotFoundError();
  await refuseIfRedacted(ctx.tx, a.row);
  if (!isActivityOpen(a.row.state)) throw ValidationError.of('state', RTW_CHECK_TEXTS.finished);
  const now = ctx.clock.now();
  const day = now.toISOString().slice(0, 10);
  const person = await personOf(ctx.tx, a.row.caseId);
  const expiry = input.outcome === 'time-limited' ? (input.expiry_date ?? '') || null : null;
  const data: RtwResultData = {
    method: 'documents',
    outcome: input.outcome,
    forename: person.forename,
    surname: person.surname,
    nationality: person.nationality || null,
    expiry_date: expiry,
    follow_up_date: expiry ? rtwFollowUpDate(expiry, day) : null,
    documents: input.documents.map((d) => DOCUMENTS.get(d) ?? d),
    notes: input.notes,
    checked_by: ctx.actor.name,
    checked_at: now.toISOString(),
  };
  // an earlier online check's answer stays beside it (its share code and what it found)
  const resultData = ACTIVITY_KINDS.rtw.result.parse({ ...a.row.resultData, ...data });
  const moved = a.processing
    ? (await saveActivity(ctx, a, a.processing, { state: 'ca-complete', resultData })).activity
    : (
        await changeActivity(
          ctx.tx,
          ctx.actor,
          a.row.id,
          { state: 'ca-complete', result_data: resultData },
          now,
        )
      ).activity;
  await recordRtwDetails(
    ctx,
    { customerId: a.row.customerId, caseId: a.row.caseId },
    {
      method: 'documents',
      outcome: input.outcome,
      followUp: data.follow_up_date ?? null,
      checkedBy: ctx.actor.name,
    },
  );
  return { id: moved.id, state: moved.state, result_data: moved.resultData };
}
