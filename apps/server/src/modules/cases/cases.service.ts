import {
  CASE_DECISIONS,
  CASE_STATE_LABELS,
  type CaseState,
  canTransitionActivity,
  canTransitionCase,
  deriveCaseState,
  isActivityOpen,
  isCaseActivityState,
  isCaseState,
} from '@kestrel/domain';
import { and, eq, inArray, type Placeholder, sql } from 'drizzle-orm';
import { compileDb, executePrepared, type Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { iso } from '../../platform/clock.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { caseActivities } from '../activities/activities.table.js';
import {
  type ActivityJson,
  activityOut,
  type NotesViewer,
} from '../activities/activity-presenter.js';
import { activityMoveError, activityStateOf } from '../activities/activity-state.js';
import { casePaymentOf } from '../payments/case-payment.js';
import {
  getSubject,
  presentSubject,
  type SubjectRow,
  subjectColumns,
} from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { flaggedSql } from './cases.repo.js';
import { cases } from './cases.table.js';

export type CaseRow = typeof cases.$inferSelect;
export const CASE_CT = 'cases.case';
export const DECISIONS = CASE_DECISIONS;

const stateOf = (s: string): CaseState => {
  if (!isCaseState(s)) throw new Error(`unknown case state ${s}`);
  return s;
};

export const caseMoveError = (from: string, to: string) =>
  ValidationError.of('state', `Cannot change a case from '${from}' to '${to}'.`);

/** The case `id`, locked for update (404 when it is not there). */
export async function lockCase(tx: Tx, id: number): Promise<CaseRow> {
  const [c] = await tx.select().from(cases).where(eq(cases.id, id)).limit(1).for('update');
  if (!c) throw new NotFoundError();
  return c;
}

/** The archivable check: complete or cancelled, and not archived yet. */
export function archivability(c: Pick<CaseRow, 'state' | 'archivedAt'>): {
  archivable: boolean;
  reason: string | null;
} {
  if (c.archivedAt) return { archivable: false, reason: 'The case is already archived.' };
  if (c.state !== 'complete' && c.state !== 'cancelled') {
    return { archivable: false, reason: 'Only complete or cancelled cases can be archived.' };
  }
  return { archivable: true, reason: null };
}

const isoSql = (col: string) =>
  sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * The case detail in one statement: the case with subject, process, flag, the subject's open
 * case count and its activities (json_agg), so a read is one round trip after BEGIN.
 */
export function caseDetailQuery(tx: Tx, id: number | Placeholder) {
  return tx
    .select({
      c: cases,
      s: subjectColumns,
      processName: sql<string>`(select p.name from processes p
        where p.customer_id = ${cases.customerId} and p.id = ${cases.processId})`,
      flagged: flaggedSql,
      // what the subject entered on this case (and an identity check may have confirmed)
      entered: sql<{ dob: string | null; phone: string } | null>`(select json_build_object(
          'dob', b.dob, 'phone', b.phone_number)
        from case_basic_details b
        where b.customer_id = ${cases.customerId} and b.case_id = ${cases.id})`,
      openCases: sql<number>`(select count(*) from cases c2
        where c2.customer_id = ${cases.customerId} and c2.subject_id = ${cases.subjectId}
          and c2.state not in ('complete', 'cancelled') and c2.archived_at is null)`.mapWith(
        Number,
      ),
      activities: sql<ActivityJson[] | null>`(select json_agg(json_build_object(
          'id', a.id, 'state', a.state, 'activity_type', t.code, 'activity_type_name', t.name,
          'key', t.kind, 'config', a.config, 'result_data', a.result_data,
          'processing_data', a.processing_data, 'notes', a.notes,
          'created_at', ${isoSql('a.created_at')}, 'updated_at', ${isoSql('a.updated_at')},
          'completed_at', ${isoSql('a.completed_at')}) order by a.position, a.id)
        from case_activities a join activity_types t on t.id = a.activity_type_id
        where a.customer_id = ${cases.customerId} and a.case_id = ${cases.id})`,
    })
    .from(cases)
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .where(eq(cases.id, id))
    .limit(1);
}

/** Built once (compileDb), run with each request's id. */
let preparedDetail: ReturnType<ReturnType<typeof caseDetailQuery>['prepare']> | null = null;

export async function caseDetail(tx: Tx, id: number, viewer: NotesViewer) {
  preparedDetail ??= caseDetailQuery(compileDb, sql.placeholder('id')).prepare('case_detail');
  const [r] = await executePrepared(tx, preparedDetail, { id });
  if (!r) throw new NotFoundError();
  const acts = r.activities ?? [];
  const record = presentSubject(r.s, r.openCases);
  // The header shows the date of birth the subject gave on this case (the one checked), and
  // the record's phone, or the case's when the record has none.
  const subject = {
    ...record,
    dob: r.entered?.dob ?? record.dob,
    phone_number: record.phone_number || (r.entered?.phone ?? ''),
  };
  const c = r.c;
  const brief = {
    id: r.s.id,
    first_name: r.s.firstName,
    last_name: r.s.lastName,
    email: r.s.email,
  };
  const parent = { id: c.id, state: c.state, subject: brief };
  const count = (...states: string[]) => acts.filter((a) => states.includes(a.state)).length;
  return {
    id: c.id,
    customer: c.customerId,
    state: c.state,
    state_display: isCaseState(c.state) ? CASE_STATE_LABELS[c.state] : c.state,
    process: { id: c.processId, name: r.processName },
    subject,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    completed_at: iso(c.completedAt),
    decision: c.decision,
    decision_notes: c.decisionNotes,
    cancelled_reason: c.cancelledReason,
    is_archived: c.archivedAt !== null,
    archived_at: iso(c.archivedAt),
    flagged: Boolean(r.flagged),
    summary: {
      activities: acts.length,
      open: acts.filter((a) => isCaseActivityState(a.state) && isActivityOpen(a.state)).length,
      complete: count('ca-complete'),
      cancelled: count('ca-cancelled'),
    },
    case_activities: acts.map((a) => activityOut(a, parent, viewer)),
    archivable: archivability(c).archivable,
    payment: await casePaymentOf(tx, c.customerId, c.id),
  };
}
export type CaseDetail = Awaited<ReturnType<typeof caseDetail>>;

export const caseRepr = (id: number, s: Pick<SubjectRow, 'firstName' | 'lastName'>) =>
  `Case ${id} (${s.firstName} ${s.lastName})`;

async function reprOf(tx: Tx, c: CaseRow): Promise<string> {
  const s = await getSubject(tx, c.subjectId);
  return caseRepr(c.id, s);
}

export async function recordDecision(
  tx: Tx,
  actor: Actor,
  id: number,
  input: { decision: (typeof DECISIONS)[number]; notes: string },
  now: Date,
): Promise<CaseDetail> {
  const c = await lockCase(tx, id);
  if (c.archivedAt || !canTransitionCase(stateOf(c.state), 'complete'))
    throw caseMoveError(c.state, 'complete');
  await tx
    .update(cases)
    .set({
      state: 'complete',
      decision: input.decision,
      decisionNotes: input.notes,
      completedAt: now,
      updatedAt: now,
    })
    .where(eq(cases.id, id));
  await recordAudit(tx, actor, {
    verb: 'decision_recorded',
    contentType: CASE_CT,
    objectId: id,
    objectRepr: await reprOf(tx, c),
    changes: { state: [c.state, 'complete'], decision: [c.decision, input.decision] },
  });
  await emitWebhookEvent(
    tx,
    c.customerId,
    'case.completed',
    {
      case: {
        id,
        state: 'complete',
        decision: input.decision,
        completed_at: now.toISOString(),
      },
    },
    now,
  );
  return caseDetail(tx, id, actor);
}

export async function cancelCase(
  tx: Tx,
  actor: Actor,
  id: number,
  reason: string,
  now: Date,
): Promise<CaseDetail> {
  const c = await lockCase(tx, id);
  if (c.archivedAt || !canTransitionCase(stateOf(c.state), 'cancelled'))
    throw caseMoveError(c.state, 'cancelled');
  const acts = await tx
    .select()
    .from(caseActivities)
    .where(eq(caseActivities.caseId, id))
    .for('update');
  const open = acts.filter((a) => isActivityOpen(activityStateOf(a.state)));
  for (const a of open) {
    if (!canTransitionActivity(activityStateOf(a.state), 'ca-cancelled'))
      throw activityMoveError(a.state, 'ca-cancelled');
  }
  if (open.length > 0) {
    await tx
      .update(caseActivities)
      .set({ state: 'ca-cancelled', updatedAt: now })
      .where(
        inArray(
          caseActivities.id,
          open.map((a) => a.id),
        ),
      );
  }
  await tx
    .update(cases)
    .set({ state: 'cancelled', cancelledReason: reason, updatedAt: now })
    .where(eq(cases.id, id));
  await recordAudit(tx, actor, {
    verb: 'cancelled',
    contentType: CASE_CT,
    objectId: id,
    objectRepr: await reprOf(tx, c),
    changes: { state: [c.state, 'cancelled'], reason, activities: open.map((a) => a.id) },
  });
  return caseDetail(tx, id, actor);
}

export async function archiveCase(
  tx: Tx,
  actor: Actor,
  id: number,
  now: Date,
): Promise<CaseDetail> {
  const c = await lockCase(tx, id);
  const check = archivability(c);
  if (!check.archivable)
    throw ValidationError.of('non_field_errors', check.reason ?? 'Not archivable.');
  await tx.update(cases).set({ archivedAt: now, updatedAt: now }).where(eq(cases.id, id));
  await recordAudit(tx, actor, {
    verb: 'archived',
    contentType: CASE_CT,
    objectId: id,
    objectRepr: await reprOf(tx, c),
  });
  return caseDetail(tx, id, actor);
}

export async function caseArchivable(tx: Tx, id: number) {
  const [c] = await tx
    .select({ state: cases.state, archivedAt: cases.archivedAt })
    .from(cases)
    .where(eq(cases.id, id))
    .limit(1);
  if (!c) throw new NotFoundError();
  return archivability(c);
}

export async function logPdfGeneration(
  tx: Tx,
  actor: Actor,
  id: number,
): Promise<{ detail: string }> {
  const [c] = await tx.select().from(cases).where(eq(cases.id, id)).limit(1);
  if (!c) throw new NotFoundError();
  await recordAudit(tx, actor, {
    verb: 'pdf_generated',
    contentType: CASE_CT,
    objectId: id,
    objectRepr: await reprOf(tx, c),
  });
  return { detail: 'Logged' };
}

/**
 * The case's state follows its activities' (point 4), unless it is final: derived and moved,
 * audited, in the caller's transaction (the case row locked by the caller). The case row after.
 */
export async function followActivities(
  tx: Tx,
  actor: Actor,
  c: CaseRow,
  subject: Awaited<ReturnType<typeof getSubject>> | null,
  now: Date,
): Promise<CaseRow> {
  const current = stateOf(c.state);
  if (current === 'complete' || current === 'cancelled') return c;
  // a case held for its payment stays so until paid (releasePaymentHold) or cancelled
  if (current === 'awaiting-payment') return c;
  const all = await tx
    .select({ state: caseActivities.state })
    .from(caseActivities)
    .where(eq(caseActivities.caseId, c.id));
  const derived = deriveCaseState(all.map((x) => activityStateOf(x.state)));
  if (derived === current) return c;
  if (!canTransitionCase(current, derived)) throw caseMoveError(current, derived);
  const [moved] = await tx
    .update(cases)
    .set({ state: derived, updatedAt: now })
    .where(eq(cases.id, c.id))
    .returning();
  await recordAudit(tx, actor, {
    customerId: c.customerId,
    verb: 'state_changed',
    contentType: CASE_CT,
    objectId: c.id,
    objectRepr: caseRepr(c.id, subject ?? (await getSubject(tx, c.subjectId))),
    changes: { state: [current, derived] },
  });
  if (derived === 'complete') {
    await emitWebhookEvent(
      tx,
      c.customerId,
      'case.completed',
      { case: { id: c.id, state: derived, decision: c.decision, completed_at: now.toISOString() } },
      now,
    );
  }
  return moved ?? c;
}
