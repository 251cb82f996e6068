import { ERASED_TEXT, ERASURE_RULE, PURGED_TEXT } from '@kestrel/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/connection.js';
import { integerArray } from '../../db/sql-arrays.js';
import { scrubSubscriptionAuditRows } from '../cycles/erasure-scrub.js';
import { scrubRegistrationAuditRows } from '../regportals/erasure-scrub.js';
import { ERASED_NAME, mergedDuplicateIds } from '../subjects/merged.js';

/** How far back a retention run looks for erasures whose copies may be left to scrub. */
export const SCRUB_WINDOW_MS = 7 * 86_400_000;

/** How many redactions' copies one run scrubs per customer (a backlog takes several runs). */
const SCRUB_BATCH = 1000;

/**
 * The content types of the case data's audit rows, the ones written with `case` and `personal`
 * (case-data's CASE_DATA_CONTENT_TYPES, the DBS and right-to-work details'; a test holds them
 * equal). The scrubs name them so that the audit log's (customer_id, content_type, object_id)
 * index narrows them to these rows, not every row of the customer.
 */
export const CASE_DATA_AUDIT_TYPES = [
  'cases.casebasicdetails',
  'cases.casebirthdetails',
  'cases.casepassport',
  'cases.casedrivinglicence',
  'cases.casedbsupdatedetails',
  'cases.caseothername',
  'cases.caseaddress',
  'cases.casedbsdetails',
  'cases.casertwdetails',
] as const;
const CASE_DATA_TYPES = sql`array[${sql.join(
  CASE_DATA_AUDIT_TYPES.map((c) => sql`${c}`),
  sql`, `,
)}]::varchar[]`;

/**
 * Which redactions' copies to scrub: the hourly run's (`since`: every redaction whose copies are
 * not scrubbed yet, whatever its age, and the subjects erased since then), or every one of an
 * erased subject (its erasure's job).
 */
export type ScrubScope = { since: Date } | { subjectId: number };

/** The scope as the statements use it: the pending redactions' ids, or a subject's. */
type Scope = { ids: number[]; since: Date } | { subjectId: number };

const scopeOf = (s: Scope): SQL =>
  'ids' in s
    ? s.ids.length === 0
      ? sql`false`
      : sql`r.id in (${sql.join(
          s.ids.map((id) => sql`${id}`),
          sql`, `,
        )})`
    : sql`r.subject_id = ${s.subjectId}`;

/**
 * The audit log's copies of a redacted activity's content, and the provider's callbacks about
 * it, scrubbed (issue 34): every change of
 * an activity's result is audited with its old and new `result_data` (and a hand edit of its
 * provider log with the whole log), so a redaction that left them would leave the content in the
 * database. For each redaction of an activity of `customerId` in `scope` (a retention rule's or
 * an erasure's), the audit rows about that activity written up to the
 * redaction lose `result_data` (and a whole `processing_data`), marked `redacted: <reason>`; the
 * state changes, who and when stay. Likewise the case data's audit rows (a case's details,
 * birth details, names, addresses, passports, licences, DBS and right-to-work details, each
 * written with `case` and its old and new values under `personal`) of a case purged or of an
 * erased subject lose `personal`: which fields changed, who and when stay. The audit log is
 * insert-only for the application's roles: this runs as the tables' owner, after the
 * redaction's own transaction (the retention run; an erasure's job enqueued in its
 * transaction), and is idempotent (a row scrubbed is not selected again), so the next run
 * finishes what a failure left.
 */
export async function scrubRedactedAuditCopies(
  db: Database,
  customerId: number,
  scope: ScrubScope | Date,
): Promise<number> {
  const given: ScrubScope = scope instanceof Date ? { since: scope } : scope;
  return db.ownerTransaction(async (tx) => {
    // the redactions whose copies are still to scrub (of the subject, or any), noted at the end
    const pending = (
      await tx.execute<{ id: number }>(sql`
        select r.id from retention_redactions r
        where r.customer_id = ${customerId} and r.copies_scrubbed_at is null
          ${'subjectId' in given ? sql`and r.subject_id = ${given.subjectId}` : sql``}
        order by r.id limit ${SCRUB_BATCH}`)
    ).map((r) => Number(r.id));
    const s: Scope = 'since' in given ? { ids: pending, since: given.since } : given;
    const rows = await tx.execute(sql`
      update audit_actions a set changes = (
          case when jsonb_typeof(a.changes->'processing_data') = 'array'
            then a.changes - 'result_data' - 'processing_data'
            else a.changes - 'result_data' end
        ) || jsonb_build_object('redacted', r.rule)
      from retention_redactions r
      where r.customer_id = ${customerId} and r.target = 'activity' and ${scopeOf(s)}
        and a.customer_id = r.customer_id and a.content_type = 'cases.caseactivity'
        and a.object_id = r.target_id::text and a.created_at <= r.redacted_at
        and (a.changes->'result_data' is not null
          or jsonb_typeof(a.changes->'processing_data') = 'array')
      returning a.id`);
    // the provider's callbacks about it, applied up to the redaction (kept raw in the inbox):
    // the body goes, the row (provider, event id, when, outcome) stays; index of migration 0055
    const inbox = await tx.execute(sql`
      update check_callback_inbox i set body = jsonb_build_object('redacted', r.rule)
      from retention_redactions r
      where r.customer_id = ${customerId} and r.target = 'activity' and ${scopeOf(s)}
        and i.case_activity_id = r.target_id and i.customer_id = r.customer_id
        and i.applied_at is not null and i.applied_at <= r.redacted_at
        and i.body->'redacted' is null
      returning i.id`);
    const caseData = await scrubCaseDataCopies(tx, customerId, s);
    const purgedText = 'ids' in s ? await scrubPurgedCaseText(tx, customerId, s.ids) : 0;
    if (pending.length > 0) {
      await tx.execute(sql`update retention_redactions r set copies_scrubbed_at = now()
        where r.customer_id = ${customerId} and ${scopeOf({ ids: pending, since: new Date(0) })}`);
    }
    return rows.length + inbox.length + caseData + purgedText;
  });
}

/**
 * The free text staff wrote about the person on each case purged under the closed-cases rule (a
 * 'case' redaction among `ids`), replaced by `PURGED_TEXT`: its activities' notes and every saved
 * version of them (insert-only for the application: hence here, as the tables' owner, with the
 * purge's other copies), its decision notes, and the messages and resolution comments of the
 * flags raised on it. Who wrote them, when, and the flags' kinds and states stay. Text written
 * after the purge (the case is closed: none is expected) is not touched.
 */
async function scrubPurgedCaseText(
  tx: Tx,
  customerId: number,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const purged = sql`select r.case_id, r.redacted_at from retention_redactions r
    where r.customer_id = ${customerId} and r.target = 'case' and r.id = any(${integerArray(ids)})`;
  const notes = await tx.execute(sql`
    update case_activities x set notes = ${PURGED_TEXT}
    from (${purged}) p
    where x.customer_id = ${customerId} and x.case_id = p.case_id
      and x.notes <> '' and x.notes <> ${PURGED_TEXT}
    returning x.id`);
  const history = await tx.execute(sql`
    update case_activity_notes n set description = ${PURGED_TEXT}
    from (${purged}) p
    where n.customer_id = ${customerId} and n.case_id = p.case_id
      and n.created_at <= p.redacted_at and n.description <> ${PURGED_TEXT}
    returning n.id`);
  const decisions = await tx.execute(sql`
    update cases c set decision_notes = ${PURGED_TEXT}
    from (${purged}) p
    where c.customer_id = ${customerId} and c.id = p.case_id
      and c.decision_notes <> '' and c.decision_notes <> ${PURGED_TEXT}
    returning c.id`);
  const flagged = await tx.execute(sql`
    update flags f set
      message = case when f.message = '' then '' else ${PURGED_TEXT} end,
      resolution_comment = case when f.resolution_comment = '' then '' else ${PURGED_TEXT} end
    from (${purged}) p
    where f.customer_id = ${customerId} and f.case_id = p.case_id
      and f.created_at <= p.redacted_at
      and ((f.message <> '' and f.message <> ${PURGED_TEXT})
        or (f.resolution_comment <> '' and f.resolution_comment <> ${PURGED_TEXT}))
    returning f.id`);
  // the audit log's copies of that text (review 30, H1): an activity's notes as saved
  // (activity-notes.service: `notes: [before, after]`) and a flag's message and resolution
  // comment (raised, resolved; its label is the message); decision notes are not audited.
  // Found by object on the audit index; marked `redacted: <rule>`
  const audits = await tx.execute(sql`
    update audit_actions a set changes = (a.changes - 'notes')
        || jsonb_build_object('redacted', p.rule)
    from (${purgedWithRule(customerId, ids)}) p
    join case_activities x on x.customer_id = ${customerId} and x.case_id = p.case_id
    where a.customer_id = ${customerId} and a.content_type = 'cases.caseactivity'
      and a.object_id = x.id::text and a.changes ? 'notes' and a.created_at <= p.redacted_at
    returning a.id`);
  const flagAudits = await tx.execute(sql`
    update audit_actions a set
      changes = case when a.changes ?| ${FLAG_TEXT_KEYS}::text[]
        then (a.changes - ${FLAG_TEXT_KEYS}::text[]) || jsonb_build_object('redacted', p.rule)
        else a.changes end,
      object_repr = 'Flag on case ' || f.case_id
    from (${purgedWithRule(customerId, ids)}) p
    join flags f on f.customer_id = ${customerId} and f.case_id = p.case_id
    where a.customer_id = ${customerId} and a.content_type = ${FLAG_CT}
      and a.object_id = f.id::text and a.created_at <= p.redacted_at
      and (a.changes ?| ${FLAG_TEXT_KEYS}::text[] or a.object_repr <> 'Flag on case ' || f.case_id)
    returning a.id`);
  return (
    notes.length +
    history.length +
    decisions.length +
    flagged.length +
    audits.length +
    flagAudits.length
  );
}

/** The cases purged (a 'case' redaction among `ids`), when and under which rule. */
const purgedWithRule = (customerId: number, ids: readonly number[]) =>
  sql`select r.case_id, r.redacted_at, r.rule from retention_redactions r
    where r.customer_id = ${customerId} and r.target = 'case' and r.id = any(${integerArray(ids)})`;

/** A flag's audit rows' keys of free text: its message (raised by hand) and resolution comment. */
const FLAG_TEXT_KEYS = sql`array['message', 'resolution_comment']`;
/** The flags' audit content type (flags.routes' FLAG_CT). */
const FLAG_CT = 'flags.flag';

/**
 * The case data's audit rows lose their personal values (`personal`: the old and new name, date
 * of birth, address...) up to the redaction: of each case purged (a 'case' redaction) and each
 * case of an erased subject (any 'erasure' redaction, or the subject's every case when `scope`
 * is a subject's). Marked `redacted: <reason>`; `case`, `fields`, the verb, who and when stay.
 */
async function scrubCaseDataCopies(tx: Tx, customerId: number, s: Scope): Promise<number> {
  const purged = await tx.execute(sql`
    update audit_actions a set changes = (a.changes - 'personal')
        || jsonb_build_object('redacted', r.rule)
    from retention_redactions r
    where r.customer_id = ${customerId} and ${scopeOf(s)}
      and (r.target = 'case' or r.rule = ${ERASURE_RULE})
      and a.customer_id = r.customer_id and a.content_type = any(${CASE_DATA_TYPES})
      and a.changes ? 'personal'
      and a.changes->>'case' = r.case_id::text and a.created_at <= r.redacted_at
    returning a.id`);
  if ('ids' in s) {
    // a failed erasure job's work (the backstop): each subject erased in the window, whether
    // its erasure redacted something (a redaction under 'erasure') or nothing at all (no
    // document, no check: only the erasure request, carried out, says so), scrubbed as the
    // erasure's own job would have (its cases' case-data rows, its record's and cases' labels)
    const erasedSubjects = await tx.execute<{ subject_id: number }>(sql`
      select r.subject_id from retention_redactions r
      where r.customer_id = ${customerId} and r.rule = ${ERASURE_RULE} and ${scopeOf(s)}
      union
      select e.subject_id from erasure_requests e
      where e.customer_id = ${customerId} and e.state = 'completed'
        and e.completed_at >= ${s.since.toISOString()}`);
    let n = purged.length;
    for (const e of erasedSubjects) {
      n += await scrubCaseDataCopies(tx, customerId, { subjectId: Number(e.subject_id) });
    }
    return n;
  }
  // an erased subject with nothing redacted (no document, no check): its cases all the same
  const erased = await tx.execute(sql`
    update audit_actions a set changes = (a.changes - 'personal')
        || jsonb_build_object('redacted', ${ERASURE_RULE}::text)
    from cases c
    where c.customer_id = ${customerId} and c.subject_id = ${s.subjectId}
      and a.customer_id = c.customer_id and a.content_type = any(${CASE_DATA_TYPES})
      and a.changes ? 'personal'
      and a.changes->>'case' = c.id::text
    returning a.id`);
  return purged.length + erased.length + (await scrubSubjectRows(tx, customerId, s.subjectId));
}

/**
 * The subject record's own audit rows (created, updated, an invitation resent): its name, email,
 * date of birth and phone removed from `changes` and from the row's label; the erasure's own
 * rows stay.
 */
async function scrubSubjectRows(tx: Tx, customerId: number, subjectId: number): Promise<number> {
  // its own rows (the erasure's own stay), its registrations' and subscriptions' labels
  const own = await scrubRecordRows(tx, customerId, subjectId, 'keep-erasure-rows');
  // the rows of the subject's cases and their activities name the subject in their label
  // ('Case 7 (Olwen Doe)', '… activity 9'), and a reminder's `to` is the email: label and `to`
  // lose them (their verb, who and when stay). Found by their objects (each case, each of its
  // activities) on the audit log's object index
  const caseRows = await tx.execute(sql`
    update audit_actions a set
      object_repr = regexp_replace(a.object_repr, '^(Case ' || o.case_id || ${CASE_LABEL_NAME}, ${'\\1\\2'}),
      changes = case when a.changes ? 'to'
        then (a.changes - 'to') || jsonb_build_object('redacted', ${ERASURE_RULE}::text)
        else a.changes end
    from (
      select c.id as case_id, 'cases.case'::varchar as ct, c.id::varchar as oid
      from cases c where c.customer_id = ${customerId} and c.subject_id = ${subjectId}
      union all
      select c.id, 'cases.caseactivity'::varchar, x.id::varchar
      from cases c join case_activities x on x.customer_id = c.customer_id and x.case_id = c.id
      where c.customer_id = ${customerId} and c.subject_id = ${subjectId}
    ) o
    where a.customer_id = ${customerId} and a.content_type = o.ct and a.object_id = o.oid
      and a.object_repr like 'Case ' || o.case_id || ' (%'
    returning a.id`);
  // the duplicates merged into it (erased with it): their own rows and labels likewise
  let merged = 0;
  const duplicates = await mergedDuplicateIds(tx, customerId, subjectId);
  for (const id of duplicates) merged += await scrubRecordRows(tx, customerId, id);
  const acted = await scrubActorNames(tx, customerId, [subjectId, ...duplicates]);
  const histories = await scrubHistories(tx, customerId, [subjectId, ...duplicates]);
  return own + caseRows.length + merged + acted + histories;
}

/** The audit keys of a licensing application's rows that hold free text (not a decision's reason). */
const APPLICATION_TEXT_KEYS = sql`array['note', 'response', 'message']`;

/**
 * The insert-only histories' free text about the erased person (issue 34), as the erasure's
 * eraseStaffRecords does on the tables the customer may change: each saved version of their
 * activities' notes (`ERASED_TEXT`; the author and when stay), their licensing applications'
 * trail (each event's message, but a refusal's reason: the register of refusals; the person's
 * own actions keep `ERASED_NAME` as who acted), the applications' audit rows' notes,
 * responses and messages, and the licences' audit rows' copies of the holder's name, date of
 * birth and the conditions. The licences' events (issue, suspension, revocation: their reasons)
 * stay, the register of suspensions and revocations.
 */
async function scrubHistories(
  tx: Tx,
  customerId: number,
  subjectIds: readonly number[],
): Promise<number> {
  const ids = integerArray(subjectIds);
  const notes = await tx.execute(sql`
    update case_activity_notes n set description = ${ERASED_TEXT}
    from cases c
    where c.customer_id = ${customerId} and c.subject_id = any(${ids})
      and n.customer_id = c.customer_id and n.case_id = c.id and n.description <> ${ERASED_TEXT}
    returning n.id`);
  const events = await tx.execute(sql`
    update lms_application_events e set
      message = case when e.action = 'refuse' or e.message = '' then e.message else ${ERASED_TEXT} end,
      actor_name = case when e.actor_id is null and e.action in ('apply', 'respond', 'withdraw')
        then ${ERASED_NAME} else e.actor_name end
    from lms_applications a
    where a.customer_id = ${customerId} and a.subject_id = any(${ids})
      and e.customer_id = a.customer_id and e.application_id = a.id
      and ((e.action <> 'refuse' and e.message <> '' and e.message <> ${ERASED_TEXT})
        or (e.actor_id is null and e.action in ('apply', 'respond', 'withdraw')
          and e.actor_name <> ${ERASED_NAME}))
    returning e.id`);
  const audits = await tx.execute(sql`
    update audit_actions x set changes = (x.changes - ${APPLICATION_TEXT_KEYS}::text[])
        || jsonb_build_object('redacted', ${ERASURE_RULE}::text)
    from lms_applications a
    where a.customer_id = ${customerId} and a.subject_id = any(${ids})
      and x.customer_id = a.customer_id and x.content_type = 'lms_licences.application'
      and x.object_id = a.id::text and x.changes ?| ${APPLICATION_TEXT_KEYS}::text[]
    returning x.id`);
  // a licence's audit rows copy its holder's name and date of birth and its conditions
  const licenceAudits = await tx.execute(sql`
    update audit_actions x set changes = (x.changes - ${LICENCE_PERSONAL_KEYS}::text[])
        || jsonb_build_object('redacted', ${ERASURE_RULE}::text)
    from licences l
    where l.customer_id = ${customerId} and l.holder_id = any(${ids})
      and x.customer_id = l.customer_id and x.content_type = 'lms_licences.licence'
      and x.object_id = l.id::text and x.changes ?| ${LICENCE_PERSONAL_KEYS}::text[]
    returning x.id`);
  // the audit log's copies of the staff's free text about them (review 30, H1): their
  // activities' notes as saved, their flags' messages and resolution comments (a flag's label
  // is its message: it becomes 'Flag on case N', or 'Flag N' on the record)
  const noteAudits = await tx.execute(sql`
    update audit_actions a set changes = (a.changes - 'notes')
        || jsonb_build_object('redacted', ${ERASURE_RULE}::text)
    from cases c join case_activities x on x.customer_id = c.customer_id and x.case_id = c.id
    where c.customer_id = ${customerId} and c.subject_id = any(${ids})
      and a.customer_id = c.customer_id and a.content_type = 'cases.caseactivity'
      and a.object_id = x.id::text and a.changes ? 'notes'
    returning a.id`);
  const flagLabel = sql`case when f.case_id is null then 'Flag ' || f.id
    else 'Flag on case ' || f.case_id end`;
  const flagAudits = await tx.execute(sql`
    update audit_actions a set
      changes = case when a.changes ?| ${FLAG_TEXT_KEYS}::text[]
        then (a.changes - ${FLAG_TEXT_KEYS}::text[])
          || jsonb_build_object('redacted', ${ERASURE_RULE}::text)
        else a.changes end,
      object_repr = ${flagLabel}
    from flags f
    where f.customer_id = ${customerId}
      and (f.subject_id = any(${ids}) or f.case_id in (
        select c.id from cases c where c.customer_id = ${customerId} and c.subject_id = any(${ids})))
      and a.customer_id = f.customer_id and a.content_type = ${FLAG_CT}
      and a.object_id = f.id::text
      and (a.changes ?| ${FLAG_TEXT_KEYS}::text[] or a.object_repr <> ${flagLabel})
    returning a.id`);
  return (
    notes.length +
    events.length +
    audits.length +
    licenceAudits.length +
    noteAudits.length +
    flagAudits.length
  );
}

/** The audit keys of a licence's rows that copy its holder or hold free text (presentLicence's). */
const LICENCE_PERSONAL_KEYS = sql`array['holder_name', 'holder_dob', 'conditions']`;

/**
 * A subject record's own audit rows (the erased subject's, its erasure's rows kept; a merged
 * duplicate's, all) and its registrations' and subscriptions' rows, which name it in their label
 * and copy its details.
 */
async function scrubRecordRows(
  tx: Tx,
  customerId: number,
  subjectId: number,
  keep?: 'keep-erasure-rows',
): Promise<number> {
  const label = `Subject ${subjectId}`;
  const rows = await tx.execute(sql`
    update audit_actions a set
      changes = (a.changes - ${SUBJECT_FIELDS}::text[])
        || case when a.changes ?| ${SUBJECT_FIELDS}::text[]
          then jsonb_build_object('redacted', ${ERASURE_RULE}::text) else '{}'::jsonb end,
      object_repr = ${label}
    where a.customer_id = ${customerId} and a.content_type = 'subjects.subject'
      and a.object_id = ${String(subjectId)}
      ${keep ? sql`and a.verb not like 'erasure%'` : sql``}
      and (a.changes ?| ${SUBJECT_FIELDS}::text[] or a.object_repr <> ${label})
    returning a.id`);
  return (
    rows.length +
    (await scrubRegistrationAuditRows(tx, customerId, subjectId)) +
    (await scrubSubscriptionAuditRows(tx, customerId, subjectId))
  );
}

/**
 * Where the erased person acted or looked with their own sign-in at this customer (the portal:
 * audit rows, refusals, the record of who saw what), the actor's name becomes `ERASED_NAME`
 * (the actor's type and id, what and when stay); and the record of who saw what keeps of each
 * of their documents only its type, not the uploaded file's original name. The sign-in is one
 * across customers: another customer's rows, and rows of no customer, are not this erasure's.
 */
async function scrubActorNames(
  tx: Tx,
  customerId: number,
  subjectIds: readonly number[],
): Promise<number> {
  const ids = integerArray(subjectIds);
  const logins = (
    await tx.execute<{ user_id: number }>(sql`select distinct s.user_id from subjects s
      where s.customer_id = ${customerId} and s.id = any(${ids})`)
  ).map((r) => Number(r.user_id));
  let n = 0;
  if (logins.length > 0) {
    const users = integerArray(logins);
    // audit_actions and record_views on their partial indexes of subject users' rows (0059)
    for (const table of ['audit_actions', 'security_refusals', 'record_views'] as const) {
      const rows = await tx.execute(sql`
        update ${sql.identifier(table)} a set actor_name = ${ERASED_NAME}
        where a.customer_id = ${customerId} and a.actor_type = 'SubjectUser'
          and a.actor_id = any(${users}) and a.actor_name <> ${ERASED_NAME}
        returning a.id`);
      n += rows.length;
    }
    // rows of no customer (a sign-in before a customer was chosen, a registration; the record
    // of views always has one): the sign-in is one across customers, so only a login every
    // record of which is erased (closed by close-sign-in.ts) loses its name there; its
    // registration's label (the email) likewise
    const closed = integerArray(await closedLogins(tx, logins));
    for (const table of ['audit_actions', 'security_refusals'] as const) {
      const rows = await tx.execute(sql`
        update ${sql.identifier(table)} a set actor_name = ${ERASED_NAME}
        where a.customer_id is null and a.actor_type = 'SubjectUser'
          and a.actor_id = any(${closed}) and a.actor_name <> ${ERASED_NAME}
        returning a.id`);
      n += rows.length;
    }
    const labels = await tx.execute(sql`
      update audit_actions a set object_repr = 'Sign-in ' || a.object_id
      where a.customer_id is null and a.content_type = 'users.subjectuser'
        and a.object_id = any(${closed}::text[]) and a.object_repr <> 'Sign-in ' || a.object_id
      returning a.id`);
    n += labels.length;
  }
  const files = await tx.execute(sql`
    update record_views v set item_label = left(d.document_type, 200)
    from cases c join case_documents d on d.customer_id = c.customer_id and d.case_id = c.id
    where c.customer_id = ${customerId} and c.subject_id = any(${ids})
      and v.customer_id = c.customer_id and v.case_id = c.id and v.item_kind = 'document'
      and v.item_id = d.id and v.item_label <> left(d.document_type, 200)
    returning v.id`);
  return n + files.length;
}

/**
 * Of `logins`, those with no record left that is not erased, at any customer (as close-sign-in's
 * closeIfErased decides: erased by a carried-out request, or merged into an erased record).
 */
async function closedLogins(tx: Tx, logins: readonly number[]): Promise<number[]> {
  const rows = await tx.execute<{ id: number }>(sql`
    select l.id from unnest(${integerArray(logins)}) as l(id)
    where not exists (
      select 1 from subjects s
      where s.user_id = l.id and s.email not like '%@erased.invalid' and not exists (
        select 1 from erasure_requests e
        where e.customer_id = s.customer_id and e.subject_id = s.id and e.state = 'completed'))`);
  return rows.map((r) => Number(r.id));
}

/** After 'Case N' in a case's or its activity's audit label: the subject's name, and the rest kept. */
const CASE_LABEL_NAME = ') \\(.*\\)( activity \\d+)?$';

/** The subject record's personal fields as its audit rows name them (presentSubject, an invitation's `to`). */
const SUBJECT_FIELDS = sql`array['first_name', 'middlename', 'last_name', 'email', 'dob', 'phone_number', 'to']`;
