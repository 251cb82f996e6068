import { ERASED_TEXT, ERASURE_CASE_REASON, OPEN_APPLICATION_STATES } from '@kestrel/domain';
import { and, asc, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { integerArray } from '../../db/sql-arrays.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { cancelCase } from '../cases/cases.service.js';
import { cases } from '../cases/cases.table.js';
import { subscriptions } from '../cycles/cycles.table.js';
import { actOnSubscription } from '../cycles/subscriptions.service.js';
import { withdrawOpenApplication } from '../lms/lms-applications.service.js';
import { lmsApplications } from '../lms/lms-applications.table.js';

/**
 * What an erasure removes of the records staff keep about the person beside the case data
 * (issue 34), in the erasure's transaction, on the tables the customer's role may change:
 * - the free text staff wrote about them: each activity's current notes, each case's decision
 *   notes, and the messages and resolution comments of the flags on their record or cases
 *   (replaced by `ERASED_TEXT`; who, when, the kind, the decision and the flag's state stay);
 * - of their licensing applications, the tax check's code and message and the request for more
 *   information (the application's state, dates, fee and the reason of its decision stay: the
 *   register of refusals);
 * - of their licences, the conditions (number, dates, status stay; each status change's reason
 *   stays in licence_events: the register of suspensions and revocations).
 * Invitations and reminders (when, round, channels: no address or text), trust-to-ride bookings
 * (session, attendance) and the licence number are the record of what was done: kept. The
 * insert-only histories (the notes' history, the applications' trail) are scrubbed by the
 * erasure's job as the tables' owner (retention/redacted-copies.ts). Returns a count per table
 * changed.
 */
export async function eraseStaffRecords(
  tx: Tx,
  customerId: number,
  subjectIds: readonly number[],
  caseIds: readonly number[],
): Promise<Record<string, number>> {
  const subjectsOf = integerArray(subjectIds);
  const casesOf = integerArray(caseIds);
  const counts: Record<string, number> = {};
  const note = (table: string, n: number) => {
    if (n > 0) counts[table] = (counts[table] ?? 0) + n;
  };
  if (caseIds.length > 0) {
    const notes = await tx.execute(sql`update case_activities set notes = ${ERASED_TEXT}
      where customer_id = ${customerId} and case_id = any(${casesOf})
        and notes <> '' and notes <> ${ERASED_TEXT}
      returning id`);
    note('activity_notes', notes.length);
    const decisions = await tx.execute(sql`update cases set decision_notes = ${ERASED_TEXT}
      where customer_id = ${customerId} and id = any(${casesOf})
        and decision_notes <> '' and decision_notes <> ${ERASED_TEXT}
      returning id`);
    note('decision_notes', decisions.length);
  }
  const flags = await tx.execute(sql`update flags set
      message = case when message = '' then '' else ${ERASED_TEXT} end,
      resolution_comment = case when resolution_comment = '' then '' else ${ERASED_TEXT} end
    where customer_id = ${customerId}
      and (subject_id = any(${subjectsOf})
        ${caseIds.length > 0 ? sql`or case_id = any(${casesOf})` : sql``})
      and ((message <> '' and message <> ${ERASED_TEXT})
        or (resolution_comment <> '' and resolution_comment <> ${ERASED_TEXT}))
    returning id`);
  note('flags', flags.length);
  const applications = await tx.execute(sql`update lms_applications set
      tax_check_code = null, tax_check_message = '', info_request = null, updated_at = now()
    where customer_id = ${customerId} and subject_id = any(${subjectsOf})
      and (tax_check_code is not null or tax_check_message <> '' or info_request is not null)
    returning id`);
  note('lms_applications', applications.length);
  const licences = await tx.execute(sql`update licences set conditions = '', updated_at = now()
    where customer_id = ${customerId} and holder_id = any(${subjectsOf}) and conditions <> ''
    returning id`);
  note('licences', licences.length);
  return counts;
}

/**
 * Closes the erased subject's open cases (issue 34): each one not complete, cancelled or
 * archived is cancelled (the spec's final state for a case that will not go on), its open
 * activities with it, audited with `ERASURE_CASE_REASON` as the reason (cases.service's
 * cancelCase), so no reminder goes (the reminders' job looks at cases awaiting the subject
 * only), no form is asked for, and the staff case page shows the erasure's notice. Run after the
 * record is renamed, so the audit rows name no one. The ids closed.
 */
export async function closeErasedCases(
  ctx: ServiceContext,
  customerId: number,
  caseIds: readonly number[],
): Promise<number[]> {
  if (caseIds.length === 0) return [];
  const open = await ctx.tx
    .select({ id: cases.id })
    .from(cases)
    .where(
      and(
        eq(cases.customerId, customerId),
        inArray(cases.id, [...caseIds]),
        notInArray(cases.state, ['complete', 'cancelled']),
        isNull(cases.archivedAt),
      ),
    )
    .orderBy(asc(cases.id));
  for (const c of open) {
    await cancelCase(ctx.tx, ctx.actor, c.id, ERASURE_CASE_REASON, ctx.clock.now());
  }
  return open.map((c) => c.id);
}

/**
 * Stops what would go on for the erased person after the erasure (issue 34): every subscription
 * of the record and of the duplicates merged into it that has not ended is ended (the cycles'
 * actOnSubscription: no period's case opens for 'Erased subject', no period is billed), and
 * every open licensing application is withdrawn (lms' withdrawOpenApplication: no licence can be
 * granted to 'Erased subject'), each audited as the erasure's actor's, in its transaction. Run
 * after the record is renamed, so the audit rows name no one. The counts ended and withdrawn.
 */
export async function stopErasedPlans(
  ctx: ServiceContext,
  customerId: number,
  subjectIds: readonly number[],
): Promise<{ subscriptions: number; applications: number }> {
  const subs = await ctx.tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.customerId, customerId),
        inArray(subscriptions.subjectId, [...subjectIds]),
        ne(subscriptions.state, 'ended'),
      ),
    )
    .orderBy(asc(subscriptions.id));
  for (const s of subs) await actOnSubscription(ctx, s.id, 'end');
  const apps = await ctx.tx
    .select({ id: lmsApplications.id })
    .from(lmsApplications)
    .where(
      and(
        eq(lmsApplications.customerId, customerId),
        inArray(lmsApplications.subjectId, [...subjectIds]),
        inArray(lmsApplications.state, [...OPEN_APPLICATION_STATES]),
      ),
    )
    .orderBy(asc(lmsApplications.id));
  for (const a of apps) await withdrawOpenApplication(ctx, a.id);
  return { subscriptions: subs.length, applications: apps.length };
}
