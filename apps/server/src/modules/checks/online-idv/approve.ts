import {
  ACTIVITY_KINDS,
  type IdvManualApprovalIn,
  idvManualApprovalIn,
  isActivityOpen,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../../../platform/audit.js';
import { fieldErrorsOf, NotFoundError, ValidationError } from '../../../platform/errors.js';
import type { ServiceContext } from '../../../platform/service-context.js';
import { changeActivity } from '../../activities/activities.service.js';
import { refuseIfRedacted } from '../../activities/redacted-guard.js';
import { idvResultDataOf, ONLINE_IDV_CONTENT_TYPE } from '../../online-idv/online-idv.service.js';
import { caseOnlineIdv } from '../../online-idv/online-idv.table.js';
import { lockProcessed, saveActivity } from '../activity.js';

/** The activity's state and result after a manual approval. */
export interface IdvApproved {
  id: number;
  state: string;
  result_data: Record<string, unknown>;
}

/** Refused: the activity is finished already. */
export const IDV_APPROVAL_TEXTS = {
  finished: 'This check is finished: its identity can no longer be approved.',
} as const;

/**
 * Operations approve a case's identity by hand (spec point 3's manual_idv_approved), with a
 * reason: the check's data records it (audited with the reason), and the online identity
 * activity completes with the approval in its result (who, when, why). By spec point 4 an
 * identity approved by hand no longer counts as verified online: the panel says it was verified
 * manually. 404 for another kind's activity; 400 once it is finished.
 */
export async function approveOnlineIdv(
  ctx: ServiceContext,
  activityId: number,
  body: IdvManualApprovalIn,
): Promise<IdvApproved> {
  const parsed = idvManualApprovalIn.safeParse(body);
  if (!parsed.success) {
    throw new ValidationError(
      fieldErrorsOf(
        parsed.error.issues.map((i) => ({ key: i.path.join('.'), message: i.message })),
      ),
    );
  }
  const a = await lockProcessed(ctx.tx, activityId);
  if (a?.code !== 'online-idv') throw new NotFoundError();
  await refuseIfRedacted(ctx.tx, a.row);
  if (!isActivityOpen(a.row.state)) throw ValidationError.of('state', IDV_APPROVAL_TEXTS.finished);
  const now = ctx.clock.now();
  const key = { customerId: a.row.customerId, caseId: a.row.caseId };
  const [before] = await ctx.tx
    .select()
    .from(caseOnlineIdv)
    .where(and(eq(caseOnlineIdv.customerId, key.customerId), eq(caseOnlineIdv.caseId, key.caseId)))
    .for('update');
  const [row] = before
    ? await ctx.tx
        .update(caseOnlineIdv)
        .set({ manualIdvApproved: true, updatedAt: now })
        .where(
          and(eq(caseOnlineIdv.customerId, key.customerId), eq(caseOnlineIdv.caseId, key.caseId)),
        )
        .returning()
    : // never started online: the approval is the whole check
      await ctx.tx
        .insert(caseOnlineIdv)
        .values({
          ...key,
          provider: 'manual',
          session: `manual-case-${key.caseId}`,
          sessionUrl: '',
          status: 'manual',
          manualIdvApproved: true,
          startedAt: now,
          completedAt: now,
        })
        .returning();
  if (!row) throw new NotFoundError();
  const reason = parsed.data.reason;
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: ONLINE_IDV_CONTENT_TYPE,
    objectId: key.caseId,
    objectRepr: `Online identity check of case ${key.caseId}`,
    customerId: key.customerId,
    changes: {
      case: key.caseId,
      manual_idv_approved: [before?.manualIdvApproved ?? false, true],
      reason,
    },
  });
  const approval = { by: ctx.actor.name, at: now.toISOString(), reason };
  const resultData = ACTIVITY_KINDS['online-idv'].result.parse({
    ...a.row.resultData,
    ...idvResultDataOf(row, approval),
  });
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
  return { id: moved.id, state: moved.state, result_data: moved.resultData };
}
