import { canTransitionActivity, isCaseActivityState } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { type CaseRow, caseRepr, followActivities, lockCase } from '../cases/cases.service.js';
import { getSubject } from '../subjects/subjects.service.js';
import { caseActivities } from './activities.table.js';
import {
  ACTIVITY_CT,
  type ActivityRow,
  activityMoveError,
  activityStateOf,
} from './activity-state.js';

/*
 * Writing an activity: its moves through the domain's transitions, audited, with the case's
 * state following its activities, in the caller's transaction.
 */

/**
 * Moves one activity as the domain allows, then lets the case state follow its activities
 * (unless the case is final). Any refused move is a 400 on `state`.
 */
export async function changeActivity(
  tx: Tx,
  actor: Actor,
  id: number,
  input: {
    state?: string | undefined;
    result_data?: Record<string, unknown> | undefined;
    processing_data?: Record<string, unknown> | undefined;
  },
  now: Date,
): Promise<{ activity: ActivityRow; caseRow: CaseRow }> {
  const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.id, id)).limit(1);
  if (!a) throw new NotFoundError();
  const c = await lockCase(tx, a.caseId);
  const [locked] = await tx
    .select()
    .from(caseActivities)
    .where(eq(caseActivities.id, id))
    .for('update');
  if (!locked) throw new NotFoundError();
  if (c.archivedAt) throw ValidationError.of('non_field_errors', 'The case is archived.');
  const from = activityStateOf(locked.state);
  const set: Partial<typeof caseActivities.$inferInsert> = { updatedAt: now };
  if (input.state !== undefined && input.state !== from) {
    if (!isCaseActivityState(input.state)) {
      throw ValidationError.invalidChoice('state', input.state);
    }
    if (!canTransitionActivity(from, input.state)) throw activityMoveError(from, input.state);
    set.state = input.state;
    if (input.state === 'ca-complete') set.completedAt = now;
  }
  if (input.result_data !== undefined) set.resultData = input.result_data;
  if (input.processing_data !== undefined) set.processingData = input.processing_data;
  const [updated] = await tx
    .update(caseActivities)
    .set(set)
    .where(eq(caseActivities.id, id))
    .returning();
  if (!updated) throw new NotFoundError();
  const subject = await getSubject(tx, c.subjectId);
  await recordAudit(tx, actor, {
    customerId: c.customerId,
    verb: set.state ? 'state_changed' : 'updated',
    contentType: ACTIVITY_CT,
    objectId: id,
    objectRepr: `${caseRepr(c.id, subject)} activity ${id}`,
    changes: {
      ...(set.state ? { state: [from, set.state] } : {}),
      ...(input.result_data !== undefined
        ? { result_data: [locked.resultData, input.result_data] }
        : {}),
      ...(input.processing_data !== undefined
        ? { processing_data: [locked.processingData, input.processing_data] }
        : {}),
    },
  });
  const caseRow = set.state ? await followActivities(tx, actor, c, subject, now) : c;
  return { activity: updated, caseRow };
}
