import { type CaseState, canTransitionCase, deriveCaseState, isCaseState } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityStateOf } from '../activities/activity-state.js';
import { cases } from '../cases/cases.table.js';
import { subjects } from '../subjects/subjects.table.js';

/*
 * A case held for its payment (issue 30): 'Awaiting payment' from its creation until its charge
 * succeeds, then the state its activities give it. Here rather than in the cases' service, which
 * reads a case's payment (case-payment.ts) and so cannot be imported by it.
 */

type CaseRow = typeof cases.$inferSelect;

/** The cases' audit content type (cases.service's CASE_CT: not imported, see above). */
const CASE_CT = 'cases.case';

/**
 * Moves case `caseId` of `customerId` (locked here) to the state `to` gives for its current one
 * (null: it stays), audited. The row after, or null when there is no such case.
 */
async function moveCase(
  tx: Tx,
  actor: Actor,
  customerId: number,
  caseId: number,
  to: (from: CaseState) => Promise<CaseState | null>,
  now: Date,
): Promise<CaseRow | null> {
  const [c] = await tx
    .select()
    .from(cases)
    .where(and(eq(cases.customerId, customerId), eq(cases.id, caseId)))
    .for('update');
  if (!c) return null;
  if (!isCaseState(c.state)) throw new Error(`unknown case state ${c.state}`);
  const from = c.state;
  const target = await to(from);
  if (target === null || target === from) return c;
  if (!canTransitionCase(from, target)) {
    throw ValidationError.of('state', `Cannot change a case from '${from}' to '${target}'.`);
  }
  const [moved] = await tx
    .update(cases)
    .set({ state: target, updatedAt: now })
    .where(and(eq(cases.customerId, customerId), eq(cases.id, caseId)))
    .returning();
  const [s] = await tx
    .select({ first: subjects.firstName, last: subjects.lastName })
    .from(subjects)
    .where(and(eq(subjects.customerId, customerId), eq(subjects.id, c.subjectId)));
  await recordAudit(tx, actor, {
    customerId,
    verb: 'state_changed',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: `Case ${caseId} (${s?.first ?? ''} ${s?.last ?? ''})`,
    changes: { state: [from, target] },
  });
  return moved ?? c;
}

/**
 * A new case charged per case waits for its payment (issue 30): 'awaiting-payment', whatever its
 * activities say, until the charge succeeds (releasePaymentHold). In the caller's transaction,
 * audited; a finished case is left alone.
 */
export async function holdForPayment(
  tx: Tx,
  actor: Actor,
  customerId: number,
  caseId: number,
  now: Date,
): Promise<void> {
  await moveCase(
    tx,
    actor,
    customerId,
    caseId,
    async (from) => (from === 'complete' || from === 'cancelled' ? null : 'awaiting-payment'),
    now,
  );
}

/**
 * A case's charge succeeded: a case awaiting payment takes the state its activities give it
 * (usually 'awaiting-subject'), audited. A case in any other state is left alone (cancelled
 * meanwhile, or never held).
 */
export async function releasePaymentHold(
  tx: Tx,
  actor: Actor,
  customerId: number,
  caseId: number,
  now: Date,
): Promise<void> {
  await moveCase(
    tx,
    actor,
    customerId,
    caseId,
    async (from) => {
      if (from !== 'awaiting-payment') return null;
      const all = await tx
        .select({ state: caseActivities.state })
        .from(caseActivities)
        .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, caseId)));
      return deriveCaseState(all.map((x) => activityStateOf(x.state)));
    },
    now,
  );
}
