import {
  ACTIVITY_KINDS,
  canTransitionActivity,
  DBS_APPLICATION_LEVELS,
  isActivityKindCode,
  isCaseActivityState,
  providerConfigurationOf,
  sendBackRefusal,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { type CaseRow, caseRepr, followActivities, lockCase } from '../cases/cases.service.js';
import { cases } from '../cases/cases.table.js';
import { resetDbsVerification } from '../dbs-details/dbs-reset.js';
import { maskedLogCopy, maskedResultCopy } from '../encryption/masked-copies.js';
import { getSubject } from '../subjects/subjects.service.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { caseActivities } from './activities.table.js';
import {
  ACTIVITY_CT,
  type ActivityRow,
  activityMoveError,
  activityStateOf,
} from './activity-state.js';
import { refuseIfRedacted } from './redacted-guard.js';

/*
 * Writing an activity: locked with its case (the case first, then the activity: one order for
 * every writer), then its move through the domain's transitions, its result and its processing
 * data written in one UPDATE and audited in one row, the case's state following its activities,
 * all in the caller's transaction.
 */

/** An activity with its type's code and its case, both locked by this transaction. */
export interface ActivityLock {
  row: ActivityRow;
  code: string;
  caseRow: CaseRow;
}

/** Locks activity `id` after its case; null when there is none (or not in this tenant). */
export async function lockActivity(tx: Tx, id: number): Promise<ActivityLock | null> {
  const [found] = await tx
    .select({ caseId: caseActivities.caseId })
    .from(caseActivities)
    .where(eq(caseActivities.id, id))
    .limit(1);
  if (!found) return null;
  const caseRow = await lockCase(tx, found.caseId);
  const [a] = await tx
    .select({ row: caseActivities, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(caseActivities.id, id))
    .for('update', { of: caseActivities });
  return a ? { row: a.row, code: a.code, caseRow } : null;
}

/** What one write changes; what is left undefined stays. */
export interface ActivityChange {
  state?: string | undefined;
  result_data?: Record<string, unknown> | undefined;
  processing_data?: Record<string, unknown> | undefined;
  /**
   * What the audit row says of the new processing data instead of its before and after (the
   * engine: the provider log's new event, not the whole log, which would double every callback).
   */
  processingAudit?: Record<string, unknown> | undefined;
}

/**
 * Writes the locked activity once: the move (as the domain allows; a refused one is a 400 on
 * `state`), its result data and its processing data in one UPDATE, audited in one row; then the
 * case's state follows its activities (unless final). A move or a result on an archived case is
 * refused, and a result over a redacted one is a 409 (RESULT_REDACTED_DETAIL).
 */
export async function writeActivity(
  tx: Tx,
  actor: Actor,
  lock: ActivityLock,
  input: ActivityChange,
  now: Date,
): Promise<{ activity: ActivityRow; caseRow: CaseRow }> {
  const { row: before, caseRow: c } = lock;
  const from = activityStateOf(before.state);
  const set: Partial<typeof caseActivities.$inferInsert> = { updatedAt: now };
  if (input.state !== undefined && input.state !== from) {
    if (!isCaseActivityState(input.state)) {
      throw ValidationError.invalidChoice('state', input.state);
    }
    if (!canTransitionActivity(from, input.state)) throw activityMoveError(from, input.state);
    set.state = input.state;
    if (input.state === 'ca-complete') set.completedAt = now;
  }
  if (input.result_data !== undefined) {
    // a result written over a redacted one would put the removed content back (issue 34): 409
    // whatever the path (a PATCH, a kind's own write, the engine); the redaction never writes here
    await refuseIfRedacted(tx, before);
    set.resultData = input.result_data;
  }
  if (input.processing_data !== undefined) set.processingData = input.processing_data;
  const moves = set.state !== undefined || input.result_data !== undefined;
  if (moves && c.archivedAt) throw ValidationError.of('non_field_errors', 'The case is archived.');
  const [updated] = await tx
    .update(caseActivities)
    .set(set)
    .where(eq(caseActivities.id, before.id))
    .returning();
  if (!updated) throw new NotFoundError();
  // The engine's log-only writes (polls, events) name the case by its id: no subject read.
  const subject = moves || !input.processingAudit ? await getSubject(tx, c.subjectId) : null;
  await recordAudit(tx, actor, {
    customerId: c.customerId,
    verb: set.state ? 'state_changed' : 'updated',
    contentType: ACTIVITY_CT,
    objectId: before.id,
    objectRepr: `${subject ? caseRepr(c.id, subject) : `Case ${c.id}`} activity ${before.id}`,
    changes: {
      ...(set.state ? { state: [from, set.state] } : {}),
      ...(input.result_data !== undefined
        ? // its identifiers masked: the log never needs them plain (decision 027)
          {
            result_data: [maskedResultCopy(before.resultData), maskedResultCopy(input.result_data)],
          }
        : {}),
      ...(input.processing_data !== undefined
        ? {
            processing_data: input.processingAudit ?? [
              maskedLogCopy(before.processingData),
              maskedLogCopy(input.processing_data),
            ],
          }
        : {}),
    },
  });
  if (!set.state) return { activity: updated, caseRow: c };
  await emitWebhookEvent(
    tx,
    c.customerId,
    'activity.state_changed',
    { activity: { id: before.id, case: c.id, from, to: set.state } },
    now,
  );
  // the case as this transaction left it (an earlier write in it may have moved it)
  const [current] = await tx.select().from(cases).where(eq(cases.id, c.id)).limit(1);
  const caseRow = await followActivities(tx, actor, current ?? c, subject, now);
  return { activity: updated, caseRow };
}

/**
 * Moves one activity as the domain allows (a hand edit, a section's save), then lets the case
 * state follow its activities (unless the case is final). Any refused move is a 400 on `state`;
 * nothing is written to an archived case's activity.
 */
export async function changeActivity(
  tx: Tx,
  actor: Actor,
  id: number,
  input: Omit<ActivityChange, 'processingAudit'>,
  now: Date,
): Promise<{ activity: ActivityRow; caseRow: CaseRow }> {
  const lock = await lockActivity(tx, id);
  if (!lock) throw new NotFoundError();
  if (lock.caseRow.archivedAt)
    throw ValidationError.of('non_field_errors', 'The case is archived.');
  return writeActivity(tx, actor, lock, input, now);
}

/**
 * Staff sending activity `id` back to its subject (a move to 'ca-awaiting-subject'), as the
 * domain's `sendBackRefusal` allows: only while it waits for staff and nothing of it has gone to
 * a provider, for a kind the subject fills in; else a 400 on `state`. A check the engine had
 * started (waiting for verification and countersigning) loses its unsent start, keeping what
 * operations configured, so the subject's next submission starts it afresh; a DBS application's
 * details go back to pending (verified and countersigned again). Written and audited once
 * (`writeActivity`); the caller reopens the portal. Already with the subject: as any edit.
 */
export async function sendActivityBack(
  tx: Tx,
  actor: Actor,
  id: number,
  input: Omit<ActivityChange, 'processingAudit' | 'state'>,
  now: Date,
): Promise<{ activity: ActivityRow; caseRow: CaseRow }> {
  const lock = await lockActivity(tx, id);
  if (!lock) throw new NotFoundError();
  if (lock.caseRow.archivedAt)
    throw ValidationError.of('non_field_errors', 'The case is archived.');
  const { row, code } = lock;
  if (row.state === 'ca-awaiting-subject') return writeActivity(tx, actor, lock, input, now);
  const kind = isActivityKindCode(code) ? ACTIVITY_KINDS[code] : null;
  const refusal = sendBackRefusal({
    state: row.state,
    hasPortalSection: kind?.portalSection != null,
    processing: row.processingData,
  });
  if (refusal) throw ValidationError.of('state', refusal);
  const started = 'idempotency_key' in row.processingData;
  const configured = providerConfigurationOf(row.processingData);
  // a DBS application's identity verification (and countersignature) is done again on what
  // the person resubmits: its details go back to pending
  if ((DBS_APPLICATION_LEVELS as readonly string[]).includes(code)) {
    await resetDbsVerification(tx, actor, { id: row.caseId, customerId: lock.caseRow.customerId });
  }
  return writeActivity(
    tx,
    actor,
    lock,
    {
      ...input,
      state: 'ca-awaiting-subject',
      ...(started && input.processing_data === undefined
        ? { processing_data: configured ? { provider_configuration: configured } : {} }
        : {}),
    },
    now,
  );
}
