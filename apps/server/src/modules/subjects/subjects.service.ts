import type { SubjectCreate } from '@kestrel/domain';
import { and, eq, getTableColumns, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { diffChanges, recordAudit } from '../../platform/audit.js';
import { iso } from '../../platform/clock.js';
import type { Actor } from '../../platform/context.js';
import { API_MESSAGES, NotFoundError, ValidationError } from '../../platform/errors.js';
import { cases } from '../cases/cases.table.js';
import { customerEntitlements } from '../customers/customers.table.js';
import { flags } from '../flags/flags.table.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { subjects } from './subjects.table.js';

/**
 * A subject's columns plus:
 * - `hasAccount` (presented as `has_account`): whether the person has used their account with
 *   this customer, i.e. claimed it from this customer's invitation or signed in acting for this
 *   customer. Read from this customer's own audit trail (both are audited there, and its
 *   `(customer_id, content_type, object_id)` index serves the lookup), never from the login
 *   itself: that the person claimed an account through another customer is not this customer's
 *   to know.
 * - `loginClaimed`: whether the person's login (one across the product) has a password. It only
 *   picks the invitation email (a claim link, or a link to sign in), which goes to the person;
 *   it is never presented to the customer.
 */
export const subjectColumns = {
  ...getTableColumns(subjects),
  // Qualified by hand: Drizzle writes a lone table's columns unqualified, and a bare customer_id
  // here would be the audit row's own.
  hasAccount: sql<boolean>`exists (select 1 from audit_actions a
    where a.customer_id = "subjects"."customer_id" and a.content_type = 'users.subjectuser'
      and a.object_id = "subjects"."user_id"::text
      and a.verb in ('logged_in', 'account_claimed'))`.mapWith(Boolean),
  loginClaimed: sql<boolean>`exists (select 1 from subject_users u
    where u.id = ${subjects.userId} and u.password_hash is not null)`.mapWith(Boolean),
};
export type SubjectRow = typeof subjects.$inferSelect & {
  hasAccount: boolean;
  loginClaimed: boolean;
};
export const SUBJECT_CT = 'subjects.subject';
export const EMAIL_TAKEN = 'A subject with this email already exists.';

const FINAL_STATES = ['complete', 'cancelled'];

export function presentSubject(s: SubjectRow, openCases = 0) {
  return {
    id: s.id,
    first_name: s.firstName,
    middlename: s.middlename,
    last_name: s.lastName,
    email: s.email,
    dob: s.dob,
    phone_number: s.phoneNumber,
    has_account: s.hasAccount,
    is_archived: s.archivedAt !== null,
    archived_at: iso(s.archivedAt),
    created_at: s.createdAt.toISOString(),
    open_cases: openCases,
  };
}
export type SubjectOut = ReturnType<typeof presentSubject>;

export const subjectRepr = (s: Pick<SubjectRow, 'firstName' | 'lastName' | 'email'>) =>
  `${s.firstName} ${s.lastName} <${s.email}>`;

/** Open (not complete/cancelled, not archived) case counts per subject, one query. */
export async function openCaseCounts(tx: Tx, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: cases.subjectId, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(cases)
    .where(
      and(
        inArray(cases.subjectId, ids),
        notInArray(cases.state, FINAL_STATES),
        isNull(cases.archivedAt),
      ),
    )
    .groupBy(cases.subjectId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

export async function presentSubjects(tx: Tx, rows: SubjectRow[]): Promise<SubjectOut[]> {
  const counts = await openCaseCounts(
    tx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentSubject(r, counts.get(r.id) ?? 0));
}

export async function getSubject(tx: Tx, id: number, forUpdate = false): Promise<SubjectRow> {
  const q = tx.select(subjectColumns).from(subjects).where(eq(subjects.id, id)).limit(1);
  const [row] = forUpdate ? await q.for('update', { of: subjects }) : await q;
  if (!row) throw new NotFoundError();
  return row;
}

/**
 * The id of the person's login for an email: found, or created with these details (no password:
 * the person claims it from an invitation). Through kestrel_subject_login(), so a tenant learns
 * the id of a login without reading it or any other customer's records of the person.
 */
export async function subjectLoginFor(
  tx: Tx,
  data: Pick<SubjectCreate, 'email' | 'first_name' | 'last_name'> & Partial<SubjectCreate>,
): Promise<number> {
  const rows = await tx.execute<{ id: number }>(
    sql`select kestrel_subject_login(${data.email}, ${data.first_name}, ${data.middlename ?? ''},
      ${data.last_name}, ${data.dob ?? null}::date, ${data.phone_number ?? ''}) as id`,
  );
  const id = [...rows][0]?.id;
  if (id === undefined || id === null) throw new Error('kestrel_subject_login returned nothing');
  return Number(id);
}

/**
 * Inserts the customer's record of a person, linked to the person's login (created if none).
 * The email is unique within the customer: a clash is a 400 on `email`. Another customer may
 * hold the same person; both records link to the one login.
 */
export async function insertSubject(
  tx: Tx,
  actor: Actor,
  customerId: number,
  data: SubjectCreate,
): Promise<SubjectRow> {
  const email = data.email.toLowerCase();
  // An email this customer holds already links to an existing login: finding it changes nothing,
  // and the unique (customer_id, lower(email)) index refuses the insert below.
  const userId = await subjectLoginFor(tx, { ...data, email });
  const [inserted] = await tx
    .insert(subjects)
    .values({
      customerId,
      userId,
      email,
      firstName: data.first_name,
      middlename: data.middlename ?? '',
      lastName: data.last_name,
      dob: data.dob ?? null,
      phoneNumber: data.phone_number ?? '',
    })
    .onConflictDoNothing()
    .returning({ id: subjects.id });
  if (!inserted) throw ValidationError.of('email', EMAIL_TAKEN);
  const row = await getSubject(tx, inserted.id);
  await recordAudit(tx, actor, {
    verb: 'created',
    contentType: SUBJECT_CT,
    objectId: row.id,
    objectRepr: subjectRepr(row),
    changes: presentSubject(row),
  });
  await flagLikelyDuplicates(tx, actor, row);
  return row;
}

/** What the duplicate rule compares of a subject (its stored, lower-cased columns). */
export type DuplicateKeys = Pick<
  SubjectRow,
  'customerId' | 'id' | 'searchFirst' | 'searchLast' | 'dob' | 'emailNormalised'
>;

/**
 * Up to five other unarchived subjects of the customer that look like `row`: two index lookups
 * with the subject's own values as constants (first name and date of birth, then last name;
 * normalised email), each on a (customer_id, ...) index with plain column equality, which
 * row-level security lets an index serve. Constants rather than a self-join: on the embedded
 * database, whose statistics may be stale (no autovacuum), a join was planned as a walk of every
 * subject of the customer per write (45 ms at 200 subjects, 200 ms at 1,200: a 1,000-row import
 * took minutes).
 */
export function likelyDuplicatesSql(row: DuplicateKeys) {
  const byName =
    row.dob === null || row.searchFirst === null || row.searchLast === null
      ? sql``
      : sql`select d.id from subjects d where d.customer_id = ${row.customerId}
      and d.search_first = ${row.searchFirst} and d.search_last = ${row.searchLast}
      and d.dob = ${row.dob} and d.id <> ${row.id} and d.archived_at is null
    union
    `;
  return sql`${byName}select d.id from subjects d where d.customer_id = ${row.customerId}
      and d.email_normalised = ${row.emailNormalised ?? ''} and d.id <> ${row.id}
      and d.archived_at is null
    order by 1 limit 5`;
}

/**
 * The duplicate rule (entitlement subject_dedup): a subject added or changed to look like another
 * unarchived subject of the customer (same first and last name and date of birth, or the same
 * normalised email) gets a rule flag naming them, unless it has an active rule flag already. The
 * flag is audited as the acting user's; the duplicates screen merges them. Two subjects added at
 * the same moment, in transactions that cannot see each other, are not flagged: the duplicates
 * screen (which compares every pair) still lists them.
 */
export async function flagLikelyDuplicates(tx: Tx, actor: Actor, row: SubjectRow): Promise<void> {
  const [gate] = await tx.execute<{ entitled: boolean; flagged: boolean }>(sql`select
    exists (select 1 from ${customerEntitlements} e where e.customer_id = ${row.customerId}
      and e.entitlement = 'subject_dedup') as entitled,
    exists (select 1 from ${flags} f where f.customer_id = ${row.customerId}
      and f.subject_id = ${row.id} and f.kind = 'rule' and f.active) as flagged`);
  if (!gate?.entitled || gate.flagged || row.archivedAt !== null) return;
  const found = await tx.execute<{ id: number }>(likelyDuplicatesSql(row));
  const ids = [...found].map((r) => Number(r.id));
  if (ids.length === 0) return;
  const message = `Possible duplicate of ${ids.map((i) => `subject #${i}`).join(', ')}: the same name and date of birth, or the same email.`;
  const [flag] = await tx
    .insert(flags)
    .values({
      customerId: row.customerId,
      subjectId: row.id,
      kind: 'rule',
      message,
      createdByName: 'Duplicate check',
    })
    .returning({ id: flags.id });
  await recordAudit(tx, actor, {
    verb: 'created',
    contentType: 'flags.flag',
    objectId: flag?.id ?? null,
    objectRepr: message.slice(0, 200),
    changes: { kind: 'rule', subject: row.id, message },
  });
  if (flag) {
    await emitWebhookEvent(
      tx,
      row.customerId,
      'flag.raised',
      { flag: { id: flag.id, kind: 'rule', case: null, subject: row.id } },
      new Date(),
    );
  }
}

export async function updateSubject(
  tx: Tx,
  actor: Actor,
  id: number,
  data: Partial<SubjectCreate>,
): Promise<SubjectOut> {
  const existing = await getSubject(tx, id, true);
  const before = presentSubject(existing);
  if (data.email !== undefined && data.email.toLowerCase() !== existing.email) {
    const [clash] = await tx
      .select({ id: subjects.id })
      .from(subjects)
      .where(
        and(
          eq(subjects.customerId, existing.customerId),
          sql`lower(${subjects.email}) = ${data.email.toLowerCase()}`,
          ne(subjects.id, id),
        ),
      )
      .limit(1);
    if (clash) throw ValidationError.of('email', EMAIL_TAKEN);
  }
  const set: Partial<typeof subjects.$inferInsert> = {};
  if (data.first_name !== undefined) set.firstName = data.first_name;
  if (data.last_name !== undefined) set.lastName = data.last_name;
  if ('middlename' in data) set.middlename = data.middlename ?? '';
  if (data.email !== undefined && data.email.toLowerCase() !== existing.email) {
    // another address is another login: the record follows the person it now names
    set.email = data.email.toLowerCase();
    set.userId = await subjectLoginFor(tx, {
      email: set.email,
      first_name: data.first_name ?? existing.firstName,
      last_name: data.last_name ?? existing.lastName,
    });
  }
  if ('dob' in data) set.dob = data.dob ?? null;
  if ('phone_number' in data) set.phoneNumber = data.phone_number ?? '';
  let row = existing;
  if (Object.keys(set).length > 0) {
    await tx
      .update(subjects)
      .set(set)
      .where(eq(subjects.id, id))
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw ValidationError.of('email', EMAIL_TAKEN);
        throw err;
      });
    row = await getSubject(tx, id);
  }
  const [after] = await presentSubjects(tx, [row]);
  if (!after) throw new NotFoundError();
  await recordAudit(tx, actor, {
    verb: 'updated',
    contentType: SUBJECT_CT,
    objectId: id,
    objectRepr: subjectRepr(row),
    changes: diffChanges(before, { ...after, open_cases: before.open_cases }),
  });
  if (set.firstName !== undefined || set.lastName !== undefined || 'dob' in set || set.email) {
    await flagLikelyDuplicates(tx, actor, row);
  }
  return after;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (e: unknown) =>
    typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
  const cause = typeof err === 'object' && err !== null && 'cause' in err ? err.cause : null;
  return code(err) === '23505' || code(cause) === '23505';
}

export async function archiveSubject(
  tx: Tx,
  actor: Actor,
  id: number,
  now: Date,
): Promise<SubjectOut> {
  const existing = await getSubject(tx, id, true);
  if (existing.archivedAt)
    throw ValidationError.of('non_field_errors', 'This subject is already archived.');
  const open = (await openCaseCounts(tx, [id])).get(id) ?? 0;
  if (open > 0) {
    throw ValidationError.of('non_field_errors', 'A subject with open cases cannot be archived.');
  }
  await tx.update(subjects).set({ archivedAt: now }).where(eq(subjects.id, id));
  const row = { ...existing, archivedAt: now };
  await recordAudit(tx, actor, {
    verb: 'archived',
    contentType: SUBJECT_CT,
    objectId: id,
    objectRepr: subjectRepr(row),
  });
  return presentSubject(row, 0);
}

export type DuplicateReason = 'name_dob' | 'email';

/**
 * Likely duplicates among the customer's unarchived subjects: same first and last name
 * (case-insensitive) and date of birth, or the same normalised email. One pair per match,
 * the lower id as `subject`.
 */
export async function findDuplicates(
  tx: Tx,
  opts: { subjectId?: number; limit: number; offset: number },
): Promise<{ count: number; pairs: { a: number; b: number; reasons: DuplicateReason[] }[] }> {
  const one =
    opts.subjectId === undefined
      ? sql`true`
      : sql`(a.id = ${opts.subjectId} or b.id = ${opts.subjectId})`;
  const rows = await tx.execute<{
    a: number;
    b: number;
    name_dob: boolean;
    email: boolean;
    total: number;
  }>(sql`
    with s as (
      select id, lower(first_name) fn, lower(last_name) ln, dob,
        email_normalised ne
      from subjects where archived_at is null
    )
    select a.id as a, b.id as b,
      (a.fn = b.fn and a.ln = b.ln and a.dob is not null and a.dob = b.dob) as name_dob,
      (a.ne = b.ne) as email,
      count(*) over() as total
    from s a join s b on a.id < b.id
      and ((a.fn = b.fn and a.ln = b.ln and a.dob = b.dob) or a.ne = b.ne)
    where ${one}
    order by a.id, b.id
    limit ${opts.limit} offset ${opts.offset}`);
  const list = [...rows];
  return {
    count: Number(list[0]?.total ?? 0),
    pairs: list.map((r) => ({
      a: Number(r.a),
      b: Number(r.b),
      reasons: [
        ...(r.name_dob ? (['name_dob'] as const) : []),
        ...(r.email ? (['email'] as const) : []),
      ],
    })),
  };
}

/** Moves the duplicate's cases and flags to the kept subject and archives the duplicate. */
export async function mergeSubjects(
  tx: Tx,
  actor: Actor,
  keepId: number,
  duplicateId: number,
  now: Date,
): Promise<SubjectOut> {
  if (keepId === duplicateId) {
    throw ValidationError.of('duplicate', 'A subject cannot be merged into itself.');
  }
  const keep = await getSubject(tx, keepId, true);
  const dup = await tx
    .select(subjectColumns)
    .from(subjects)
    .where(eq(subjects.id, duplicateId))
    .for('update', { of: subjects })
    .then((r) => r[0]);
  if (!dup) throw ValidationError.doesNotExist('duplicate', duplicateId);
  if (keep.archivedAt) throw ValidationError.of('non_field_errors', API_MESSAGES.subjectArchived);
  if (dup.archivedAt) throw ValidationError.of('duplicate', API_MESSAGES.subjectArchived);
  const moved = await tx
    .update(cases)
    .set({ subjectId: keepId, updatedAt: now })
    .where(eq(cases.subjectId, duplicateId))
    .returning({ id: cases.id });
  await tx.update(flags).set({ subjectId: keepId }).where(eq(flags.subjectId, duplicateId));
  await tx
    .update(subjects)
    .set({ archivedAt: now, mergedIntoId: keepId })
    .where(eq(subjects.id, duplicateId));
  const changes = { merged: duplicateId, into: keepId, cases: moved.map((c) => c.id) };
  await recordAudit(tx, actor, {
    verb: 'merged',
    contentType: SUBJECT_CT,
    objectId: keepId,
    objectRepr: subjectRepr(keep),
    changes,
  });
  await recordAudit(tx, actor, {
    verb: 'merged',
    contentType: SUBJECT_CT,
    objectId: duplicateId,
    objectRepr: subjectRepr(dup),
    changes,
  });
  const [out] = await presentSubjects(tx, [keep]);
  if (!out) throw new NotFoundError();
  return out;
}
