import { ERASURE_RULE, type ErasureState } from '@kestrel/domain';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { caseActivities } from '../activities/activities.table.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';
import { cases } from '../cases/cases.table.js';
import { cancelChecksOfCases } from '../checks/erasure.js';
import { eraseRegistrations } from '../regportals/erasure-scrub.js';
import { redactActivityResult, redactDocument } from '../retention/redact.js';
import { caseRetention } from '../retention/retention.table.js';
import { erasureScrubJob } from '../retention/retention-job.js';
import { ERASED_NAME, mergedDuplicateIds } from '../subjects/merged.js';
import { SUBJECT_CT } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { CASE_DATA_TABLES, deleteCaseDataRows } from './case-data-rows.js';
import { closeErasedCases, eraseStaffRecords, stopErasedPlans } from './erasure-records.js';
import {
  ERASURE_REQUEST_CT,
  type ErasureOutcome,
  erasureRequests,
} from './erasure-requests.table.js';

/** A request's state in words (`state_display`); the states are the domain's. */
export const ERASURE_STATE_WORDS: Record<ErasureState, string> = {
  pending: 'Awaiting a decision',
  refused: 'Refused',
  completed: 'Carried out',
};

export const LEGAL_HOLD_DETAIL =
  'A case of this subject is under a legal hold: their data cannot be erased until the hold is released.';
export const PENDING_DETAIL = 'An erasure request for this subject is already awaiting a decision.';
export const ERASED_DETAIL = "This subject's data has already been erased.";
export const DECIDED_DETAIL = 'This request has already been decided.';
export const REASON_REQUIRED = 'Give the reason for refusing the request.';

/** The reason an erasure's redactions are recorded under (retention_redactions.rule). */
export const ERASURE_REASON = ERASURE_RULE;

/** What an erasure keeps, in words (stored with each carried-out request). */
export const ERASURE_KEEPS = [
  'A record of each check: its date, reference, level and outcome',
  'The cases, closed, with when the subject was invited and reminded and their trust-to-ride bookings',
  'Licences and licensing applications: number, dates, status and the reason of a refusal, suspension or revocation',
  'Payments',
  'The audit log of who did what and when (the personal details in it removed)',
  'This request, its decision and what was done',
];

type Row = typeof erasureRequests.$inferSelect;
export interface ErasureRow extends Row {
  firstName: string;
  lastName: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const stateOf = (s: string): ErasureState => (s === 'refused' || s === 'completed' ? s : 'pending');

/** An erasure request as the customer's staff and the subject see it. */
export function presentErasureRequest(r: ErasureRow) {
  const state = stateOf(r.state);
  return {
    id: r.id,
    subject: { id: r.subjectId, name: `${r.firstName} ${r.lastName}`.trim() },
    state,
    state_display: ERASURE_STATE_WORDS[state],
    requested_by: r.requestedByType === 'SubjectUser' ? ('subject' as const) : ('staff' as const),
    requested_by_name: r.requestedByName,
    reason: r.reason,
    created_at: r.createdAt.toISOString(),
    decided_at: iso(r.decidedAt),
    decided_by_name: r.decidedByName,
    decision_reason: r.decisionReason,
    completed_at: iso(r.completedAt),
    outcome: r.outcome
      ? {
          removed: r.outcome.removed,
          files: r.outcome.files,
          results: r.outcome.results,
          kept: r.outcome.kept,
          sign_in: r.outcome.signIn,
        }
      : null,
  };
}
export type ErasureRequestOut = ReturnType<typeof presentErasureRequest>;

const withSubject = {
  r: erasureRequests,
  firstName: subjects.firstName,
  lastName: subjects.lastName,
};
const flat = (x: { r: Row; firstName: string; lastName: string }): ErasureRow => ({
  ...x.r,
  firstName: x.firstName,
  lastName: x.lastName,
});

/** The tenant's erasure requests, newest first (filtered by state or subject). */
export async function listErasureRequests(
  tx: Tx,
  filter: { state?: ErasureState; subject?: number },
  page: { limit: number; offset: number },
): Promise<{ count: number; results: ErasureRow[] }> {
  const where = and(
    filter.state ? eq(erasureRequests.state, filter.state) : undefined,
    filter.subject !== undefined ? eq(erasureRequests.subjectId, filter.subject) : undefined,
  );
  const [total] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(erasureRequests)
    .where(where);
  const rows = await tx
    .select(withSubject)
    .from(erasureRequests)
    .innerJoin(
      subjects,
      and(
        eq(subjects.customerId, erasureRequests.customerId),
        eq(subjects.id, erasureRequests.subjectId),
      ),
    )
    .where(where)
    .orderBy(desc(erasureRequests.createdAt), desc(erasureRequests.id))
    .limit(page.limit)
    .offset(page.offset);
  return { count: Number(total?.n ?? 0), results: rows.map(flat) };
}

/** One request of the tenant (404 otherwise), locked for a decision when `forUpdate`. */
export async function getErasureRequest(tx: Tx, id: number, forUpdate = false) {
  const q = tx
    .select(withSubject)
    .from(erasureRequests)
    .innerJoin(
      subjects,
      and(
        eq(subjects.customerId, erasureRequests.customerId),
        eq(subjects.id, erasureRequests.subjectId),
      ),
    )
    .where(eq(erasureRequests.id, id))
    .limit(1);
  const [row] = forUpdate ? await q.for('update', { of: erasureRequests }) : await q;
  if (!row) throw new NotFoundError();
  return flat(row);
}

/** The subject's requests at one customer (oldest first). */
export async function subjectRequests(tx: Tx, customerId: number, subjectId: number) {
  return tx
    .select()
    .from(erasureRequests)
    .where(
      and(eq(erasureRequests.customerId, customerId), eq(erasureRequests.subjectId, subjectId)),
    )
    .orderBy(asc(erasureRequests.createdAt), asc(erasureRequests.id));
}

/** Refuses a new request for a subject already erased or with one awaiting a decision. */
async function assertCanRequest(tx: Tx, customerId: number, subjectId: number) {
  const existing = await subjectRequests(tx, customerId, subjectId);
  if (existing.some((r) => r.state === 'completed')) throw new ConflictError(ERASED_DETAIL);
  if (existing.some((r) => r.state === 'pending')) throw new ConflictError(PENDING_DETAIL);
}

/**
 * Records a request to erase subject `subjectId` of the actor's customer (staff: recorded on the
 * person's behalf; a subject: asked from its profile), pending the customer's decision.
 */
export async function recordErasureRequest(
  ctx: ServiceContext,
  customerId: number,
  subjectId: number,
  reason: string,
): Promise<ErasureRow> {
  const { tx, actor } = ctx;
  const [subject] = await tx
    .select()
    .from(subjects)
    .where(and(eq(subjects.customerId, customerId), eq(subjects.id, subjectId)));
  if (!subject) throw new NotFoundError();
  await assertCanRequest(tx, customerId, subjectId);
  const [row] = await tx
    .insert(erasureRequests)
    .values({
      customerId,
      subjectId,
      requestedByType: actor.type === 'SubjectUser' ? 'SubjectUser' : 'ProductUser',
      requestedById: actor.id,
      requestedByName: actor.name.slice(0, 200),
      reason,
    })
    .returning();
  if (!row) throw new Error('erasure request insert returned nothing');
  await recordAudit(tx, actor, {
    verb: 'erasure_requested',
    contentType: ERASURE_REQUEST_CT,
    objectId: row.id,
    objectRepr: `Erasure of subject ${subjectId}`,
    changes: { subject: subjectId, reason },
    customerId,
  });
  return { ...row, firstName: subject.firstName, lastName: subject.lastName };
}

/** Throws the legal hold's refusal when any case of the subject is held. */
export async function assertNoLegalHold(tx: Tx, customerId: number, caseIds: number[]) {
  if (caseIds.length === 0) return;
  const held = await tx
    .select({ caseId: caseRetention.caseId })
    .from(caseRetention)
    .where(
      and(
        eq(caseRetention.customerId, customerId),
        inArray(caseRetention.caseId, caseIds),
        eq(caseRetention.legalHold, true),
      ),
    )
    .limit(1);
  if (held.length > 0) throw new ConflictError(LEGAL_HOLD_DETAIL);
}

/**
 * Removes subject `subjectId`'s personal data that need not be kept, in the caller's transaction:
 * its cases' data answers, its documents' files and thumbnails and its checks' result content
 * (retention/redact.ts, recorded under 'erasure'; each item's lock waited for, never skipped),
 * the identity provider's profile, the name, email, date of birth and phone of the record and of
 * the duplicates merged into it (the record is archived), and the name on the subject's own
 * requests; its checks still running are cancelled (checks/erasure.ts). Cases, checks (their
 * date, reference, level and outcome), documents' types and dates, consents' dates, payments and
 * the audit log stay; the audit log's, the access log's and the callback inbox's copies of the
 * personal data are scrubbed by a job enqueued here (retention/redacted-copies.ts). A legal hold
 * on any of its cases refuses it (409).
 */
export async function eraseSubjectData(
  ctx: ServiceContext,
  storage: DocumentStorage,
  customerId: number,
  subjectId: number,
): Promise<ErasureOutcome> {
  const { tx, clock } = ctx;
  // the subject's cases locked first, in order (as every write of a case's activities and
  // documents locks its case first): the engine, an upload or a retention run on them finishes
  // before the erasure goes on, and no lock is taken the other way round
  const caseIds = (
    await tx
      .select({ id: cases.id })
      .from(cases)
      .where(and(eq(cases.customerId, customerId), eq(cases.subjectId, subjectId)))
      .orderBy(asc(cases.id))
      .for('update', { of: cases })
  ).map((c) => c.id);
  await assertNoLegalHold(tx, customerId, caseIds);
  const removed: Record<string, number> = {};
  for (const table of CASE_DATA_TABLES) {
    if (table === 'case_online_idv') continue;
    const n = await deleteCaseDataRows(tx, table, customerId, caseIds);
    if (n > 0) removed[table] = n;
  }
  let files = 0;
  let results = 0;
  if (caseIds.length > 0) {
    const idv = await tx.execute<{ case_id: number }>(sql`
      update case_online_idv set id_profile = null, updated_at = now()
      where customer_id = ${customerId} and case_id in (${sql.join(
        caseIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and id_profile is not null
      returning case_id`);
    if (idv.length > 0) removed.case_online_idv = idv.length;
    // the checks still running stop (no start, poll or stored answer after this): cancelled,
    // each audited, their cases following
    const cancelled = await cancelChecksOfCases(ctx, customerId, caseIds);
    if (cancelled.length > 0) removed.checks_cancelled = cancelled.length;
    // documents: files and thumbnails removed, the row kept (type, dates) as retention does.
    // Each row's lock is waited for ('wait'): a document another transaction holds is redacted
    // once it lets go, never skipped with the erasure recorded as carried out
    const docs = await tx
      .select({ id: caseDocuments.id, pages: caseDocuments.pages })
      .from(caseDocuments)
      .where(and(eq(caseDocuments.customerId, customerId), inArray(caseDocuments.caseId, caseIds)))
      .orderBy(asc(caseDocuments.id));
    let redactedDocs = 0;
    for (const d of docs) {
      if (d.pages.length === 0) continue;
      const done = await redactDocument(ctx, storage, d.id, ERASURE_REASON, 'wait');
      if (!done) continue;
      redactedDocs += 1;
      files += done.removed.length;
    }
    if (redactedDocs > 0) removed.case_documents = redactedDocs;
    // results: the content removed, the record of the check (date, reference, level, outcome) kept
    const activities = await tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(
        and(eq(caseActivities.customerId, customerId), inArray(caseActivities.caseId, caseIds)),
      )
      .orderBy(asc(caseActivities.id));
    for (const a of activities) {
      if (await redactActivityResult(ctx, a.id, ERASURE_REASON, 'wait')) results += 1;
    }
  }
  // the record and the duplicates merged into it (which keep their own details), and the
  // registrations that carry their names (the one that led to each, others of its email)
  const records = [subjectId, ...(await mergedDuplicateIds(tx, customerId, subjectId))];
  let registrations = 0;
  for (const id of records) {
    const [record] = await tx
      .select({ email: subjects.email })
      .from(subjects)
      .where(and(eq(subjects.customerId, customerId), eq(subjects.id, id)))
      .for('update', { of: subjects });
    registrations += await eraseRegistrations(tx, customerId, id, record?.email ?? '');
    await tx
      .update(subjects)
      .set({
        firstName: 'Erased',
        lastName: 'subject',
        middlename: '',
        email: `erased-${customerId}-${id}@erased.invalid`,
        dob: null,
        phoneNumber: '',
        // a duplicate keeps when it was merged
        ...(id === subjectId ? { archivedAt: clock.now() } : {}),
      })
      .where(and(eq(subjects.customerId, customerId), eq(subjects.id, id)));
  }
  if (registrations > 0) removed.portal_registrations = registrations;
  removed.subjects = records.length;
  // the free text staff wrote about the person, and what licensing records need not keep
  Object.assign(removed, await eraseStaffRecords(tx, customerId, records, caseIds));
  // the cases that would go on (reminders, forms) are closed, named by the renamed record
  const closed = await closeErasedCases(ctx, customerId, caseIds);
  if (closed.length > 0) removed.cases_closed = closed.length;
  // its subscriptions (no period's case, no bill) and open licensing applications stop
  const stopped = await stopErasedPlans(ctx, customerId, records);
  if (stopped.subscriptions > 0) removed.subscriptions_ended = stopped.subscriptions;
  if (stopped.applications > 0) removed.applications_withdrawn = stopped.applications;
  // the subject's own requests keep who asked, not the name: the record of them stays
  await tx
    .update(erasureRequests)
    .set({ requestedByName: ERASED_NAME })
    .where(
      and(
        eq(erasureRequests.customerId, customerId),
        eq(erasureRequests.subjectId, subjectId),
        eq(erasureRequests.requestedByType, 'SubjectUser'),
      ),
    );
  // the audit log's, the access log's and the callback inbox's copies of what went, scrubbed at
  // once by a job committed with this transaction (the audit log is not the application's to
  // update)
  await ctx.enqueue(erasureScrubJob(customerId, subjectId));
  return { removed, files, results, kept: ERASURE_KEEPS, signIn: 'pending' };
}

/**
 * The customer's decision on a pending request: refused (with a reason), or approved and carried
 * out at once (`eraseSubjectData`); 409 when already decided, or refused by a legal hold.
 */
export async function decideErasureRequest(
  ctx: ServiceContext,
  storage: DocumentStorage,
  id: number,
  decision: { approve: boolean; reason: string },
): Promise<ErasureRow> {
  const { tx, actor, clock } = ctx;
  const req = await getErasureRequest(tx, id, true);
  if (req.state !== 'pending') throw new ConflictError(DECIDED_DETAIL);
  const now = clock.now();
  const decided = {
    decidedAt: now,
    decidedById: actor.id,
    decidedByName: actor.name.slice(0, 200),
    decisionReason: decision.reason,
  };
  if (!decision.approve) {
    if (!decision.reason.trim()) throw ValidationError.of('reason', REASON_REQUIRED);
    const [row] = await tx
      .update(erasureRequests)
      .set({ ...decided, state: 'refused' })
      .where(and(eq(erasureRequests.customerId, req.customerId), eq(erasureRequests.id, id)))
      .returning();
    if (!row) throw new NotFoundError();
    await recordAudit(tx, actor, {
      verb: 'erasure_refused',
      contentType: ERASURE_REQUEST_CT,
      objectId: id,
      objectRepr: `Erasure of subject ${req.subjectId}`,
      changes: { state: ['pending', 'refused'], reason: decision.reason },
    });
    return { ...row, firstName: req.firstName, lastName: req.lastName };
  }
  const outcome = await eraseSubjectData(ctx, storage, req.customerId, req.subjectId);
  const [row] = await tx
    .update(erasureRequests)
    .set({ ...decided, state: 'completed', completedAt: now, outcome })
    .where(and(eq(erasureRequests.customerId, req.customerId), eq(erasureRequests.id, id)))
    .returning();
  if (!row) throw new NotFoundError();
  await recordAudit(tx, actor, {
    verb: 'erasure_approved',
    contentType: ERASURE_REQUEST_CT,
    objectId: id,
    objectRepr: `Erasure of subject ${req.subjectId}`,
    changes: { state: ['pending', 'completed'], reason: decision.reason },
  });
  await recordAudit(tx, actor, {
    verb: 'erasure_carried_out',
    contentType: SUBJECT_CT,
    objectId: req.subjectId,
    objectRepr: `Subject ${req.subjectId} (personal data erased)`,
    changes: { erasure_request: id, removed: outcome.removed, files: outcome.files },
  });
  return { ...row, firstName: 'Erased', lastName: 'subject' };
}
