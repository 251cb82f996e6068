import { addressGaps, type LicencePerson, MESSAGES } from '@kestrel/domain';
import { type SQL, type SQLChunk, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import {
  type FieldErrors,
  fieldErrorsOf,
  NotFoundError,
  ValidationError,
} from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { decryptRecord, encryptValues, maskedChanges } from '../encryption/field-cipher.js';
import {
  allowCase,
  CASE_REF_COLUMNS,
  type CaseDataAudience,
  type CaseRef,
  caseRefOf,
} from './case-access.js';
import {
  addresses,
  basicDetails,
  type CaseDataResource,
  type FieldKind,
  type ListResource,
  type Record_,
  type SingleResource,
} from './case-data.resources.js';

// Case data for every audience with the same rules (spec points 3, 5 and 7): a write merges the
// sent fields onto the stored record, refuses a change to an idsp-locked field (400 naming it),
// checks the merged record with the resource's rules (400 `{field: [messages]}`), then saves it
// and its audit row (old and new values) in the caller's transaction: nothing is half-saved.

const today = (ctx: ServiceContext) => ctx.clock.now().toISOString().slice(0, 10);
const isRecord = (v: unknown): v is Record_ =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored value as the API shows it: '' for a blank text, null for no date or JSON. */
function shown(kind: FieldKind, value: unknown): unknown {
  if (kind === 'text') return typeof value === 'string' ? value : '';
  if (kind === 'date') return typeof value === 'string' ? value.slice(0, 10) : null;
  if (kind === 'bool') return value === true;
  return isRecord(value) ? value : null;
}

/** The editable fields of a stored record (or blank ones for none). */
function fieldsOf(res: CaseDataResource, record: Record_ | null): Record_ {
  const out: Record_ = {};
  for (const [field, kind] of Object.entries(res.fields)) out[field] = shown(kind, record?.[field]);
  return out;
}

/** The fields a write may not change: idsp-provided ones, or every field of an idsp record. */
function lockedFields(res: CaseDataResource, record: Record_ | null): string[] {
  if (!record) return [];
  if (res.locks === 'fields') {
    const list = record.idsp_fields;
    return Array.isArray(list) ? list.filter((f): f is string => typeof f === 'string') : [];
  }
  if (res.locks === 'source' && record.source === 'idsp') return Object.keys(res.fields);
  return [];
}

/** The response of one record (the contract's `…Out`). */
function present(res: CaseDataResource, caseId: number, record: Record_, email = ''): Record_ {
  const out: Record_ = { ...(res.kind === 'list' ? { id: Number(record.id) } : {}), case: caseId };
  Object.assign(out, fieldsOf(res, record));
  if (res === basicDetails) out.email = email;
  if (res.locks === 'source')
    out.source = typeof record.source === 'string' ? record.source : 'manual';
  if (res.locks !== 'none') out.locked_fields = lockedFields(res, record);
  return out;
}

/** Comparable text of a value: blank, null and undefined are the same. */
function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) =>
    v === undefined || v === null || v === ''
      ? ''
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
  return norm(a) === norm(b);
}

/** The sent fields (keys present in the parsed body), without `case` and the read-only email. */
function sentFields(res: CaseDataResource, body: Record_): Record_ {
  const out: Record_ = {};
  for (const key of Object.keys(body)) if (key in res.fields) out[key] = body[key];
  return out;
}

/**
 * The record to save: `sent` merged onto `base`; 400 naming each locked field it changes, then
 * 400 with the rules' messages. Returns the checked values of the editable fields.
 */
function checked(
  ctx: ServiceContext,
  res: CaseDataResource,
  base: Record_,
  sent: Record_,
  locked: readonly string[],
  holder: LicencePerson,
): Record_ {
  const merged = { ...base, ...sent };
  const lockErrors: FieldErrors = {};
  for (const field of locked) {
    if (!same(merged[field], base[field])) lockErrors[field] = [MESSAGES.idspLocked];
  }
  if (Object.keys(lockErrors).length > 0) throw new ValidationError(lockErrors);
  const parsed = res.rules(today(ctx), holder).safeParse(merged);
  if (!parsed.success) {
    throw new ValidationError(
      fieldErrorsOf(
        parsed.error.issues.map((i) => ({ key: i.path.join('.'), message: i.message })),
      ),
    );
  }
  const data = isRecord(parsed.data) ? parsed.data : {};
  const values: Record_ = {};
  for (const [field, kind] of Object.entries(res.fields)) {
    values[field] = kind === 'json' ? (data[field] ?? null) : shown(kind, data[field]);
  }
  return values;
}

/** The changed fields `{field: [old, new]}` between two sets of editable fields (null: none). */
function changesOf(
  before: Record_ | null,
  after: Record_ | null,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    const old = before?.[key] ?? null;
    const now = after?.[key] ?? null;
    if (!same(old, now)) out[key] = [old, now];
  }
  return out;
}

/**
 * The audit row of a write, in its transaction, for the case's customer: which fields changed
 * and, under `personal`, their old and new values (the ops audit list leaves `personal` out:
 * personal data stays with the customer's own staff). The identifiers stored encrypted (national
 * insurance, passport and licence numbers) are kept masked: no plain copy in the audit log.
 */
async function audit(
  ctx: ServiceContext,
  res: CaseDataResource,
  ref: CaseRef,
  verb: 'created' | 'updated' | 'deleted',
  objectId: number,
  changes: Record<string, [unknown, unknown]>,
): Promise<void> {
  await recordAudit(ctx.tx, ctx.actor, {
    verb,
    contentType: res.contentType,
    objectId,
    objectRepr: `${res.item} of case ${ref.id}`,
    customerId: ref.customerId,
    changes: {
      case: ref.id,
      fields: Object.keys(changes),
      personal: maskedChanges(res.table, changes),
    },
  });
}

const list = (parts: SQLChunk[]) => sql.join(parts, sql`, `);
const table = (res: CaseDataResource) => sql.identifier(res.table);

/** A value as an SQL parameter of its column. */
function param(kind: FieldKind, value: unknown): SQL {
  if (kind === 'json')
    return value === null || value === undefined ? sql`null` : sql`${JSON.stringify(value)}::jsonb`;
  return sql`${value}`;
}

/**
 * The columns a record's values are stored in: the editable fields, the encrypted ones as their
 * ciphertext (modules/encryption/field-cipher.ts) with their keyed hashes beside them.
 */
function storedColumns(res: CaseDataResource, values: Record_): [string, SQL][] {
  const stored = encryptValues(res.table, values);
  return [
    ...Object.entries(res.fields).map(([f, kind]): [string, SQL] => [f, param(kind, stored[f])]),
    ...Object.keys(stored)
      .filter((k) => !(k in res.fields))
      .map((k): [string, SQL] => [k, sql`${stored[k]}`]),
  ];
}

/** A row as the service works with it: encrypted fields decrypted, their hashes left out. */
function readRecord(res: CaseDataResource, record: Record_): Record_ {
  return decryptRecord(res.table, record);
}

async function insertRecord(
  tx: Tx,
  res: CaseDataResource,
  ref: CaseRef,
  values: Record_,
  extra: Record_ = {},
): Promise<Record_> {
  const stored = storedColumns(res, values);
  const columns = [...stored.map(([c]) => c), ...Object.keys(extra)];
  const params = [...stored.map(([, p]) => p), ...Object.values(extra).map((v) => sql`${v}`)];
  const rows = await tx.execute<{ record: Record_ }>(sql`
    insert into ${table(res)} as t (customer_id, case_id, ${list(columns.map((c) => sql.identifier(c)))})
    values (${ref.customerId}, ${ref.id}, ${list(params)})
    returning to_jsonb(t) as record`);
  return readRecord(res, rows[0]?.record ?? {});
}

async function updateRecord(
  tx: Tx,
  res: CaseDataResource,
  where: SQL,
  values: Record_,
): Promise<Record_> {
  const sets = storedColumns(res, values).map(([c, p]) => sql`${sql.identifier(c)} = ${p}`);
  const rows = await tx.execute<{ record: Record_ }>(sql`
    update ${table(res)} as t set ${list(sets)}, updated_at = now()
    where ${where} returning to_jsonb(t) as record`);
  return readRecord(res, rows[0]?.record ?? {});
}

/** The person a licence number is checked against: the case's basic details, else its subject. */
async function holderOf(tx: Tx, ref: CaseRef): Promise<LicencePerson> {
  const rows = await tx.execute<Record_>(sql`
    select s.first_name, s.middlename as s_middlename, s.last_name, s.dob as s_dob,
      b.forename, b.middlename, b.surname, b.forename_dbs, b.surname_dbs, b.dob
    from subjects s
    left join case_basic_details b on b.customer_id = s.customer_id and b.case_id = ${ref.id}
    where s.customer_id = ${ref.customerId} and s.id = ${ref.subjectId}`);
  const r = rows[0] ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const own = text(r.forename) !== '' || text(r.surname) !== '';
  return own
    ? {
        forename: text(r.forename),
        middlename: text(r.middlename),
        surname: text(r.surname),
        forename_dbs: text(r.forename_dbs),
        surname_dbs: text(r.surname_dbs),
        dob: text(r.dob) || text(r.s_dob) || null,
      }
    : {
        forename: text(r.first_name),
        middlename: text(r.s_middlename),
        surname: text(r.last_name),
        dob: text(r.s_dob) || null,
      };
}

const NO_HOLDER: LicencePerson = { dob: null };

// ---------------------------------------------------------------------------------------------
// Records one per case (basic and birth details, passport, licence, DBS update details)

interface Loaded {
  ref: CaseRef;
  record: Record_ | null;
  subject: Record_;
}

/** The case, its record of `res` and (for basic details) its subject, in one query. */
async function loadSingle(tx: Tx, res: SingleResource, caseId: number): Promise<Loaded | null> {
  const withSubject = res === basicDetails;
  const rows = await tx.execute<Record_>(sql`
    select ${sql.raw(CASE_REF_COLUMNS)},
      case when r.case_id is null then null else to_jsonb(r) end as record
      ${withSubject ? sql`, s.email as s_email, s.first_name as s_first_name, s.middlename as s_middlename, s.last_name as s_last_name, s.dob as s_dob, s.phone_number as s_phone_number` : sql``}
    from cases c
    left join ${table(res)} r on r.customer_id = c.customer_id and r.case_id = c.id
    ${withSubject ? sql`join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id` : sql``}
    where c.id = ${caseId}`);
  const row = rows[0];
  const ref = caseRefOf(row);
  if (!row || !ref) return null;
  return { ref, record: isRecord(row.record) ? readRecord(res, row.record) : null, subject: row };
}

/** Basic details not saved yet: the subject's names, date of birth and phone. */
function prefill(subject: Record_): Record_ {
  return {
    forename: subject.s_first_name,
    middlename: subject.s_middlename,
    surname: subject.s_last_name,
    dob: subject.s_dob,
    phone_number: subject.s_phone_number,
  };
}

function presentLoaded(res: SingleResource, loaded: Loaded): Record_ {
  const email = typeof loaded.subject.s_email === 'string' ? loaded.subject.s_email : '';
  if (loaded.record) return present(res, loaded.ref.id, loaded.record, email);
  if (res.missing === 'not-found') throw new NotFoundError();
  return present(res, loaded.ref.id, res === basicDetails ? prefill(loaded.subject) : {}, email);
}

/** GET .../{case}/: the record; blank ones prefilled, the others 404 until created. */
export async function retrieveSingle(
  ctx: ServiceContext,
  res: SingleResource,
  audience: CaseDataAudience,
  caseId: number,
): Promise<Record_> {
  const loaded = await loadSingle(ctx.tx, res, caseId);
  allowCase(loaded?.ref ?? null, audience, 'read');
  if (!loaded) throw new NotFoundError();
  return presentLoaded(res, loaded);
}

/**
 * POST (`mode` create: 400 when the case has one), PUT and PATCH (`update`: 404 for a record
 * that must be created first; basic and birth details are created by their first save).
 */
export async function saveSingle(
  ctx: ServiceContext,
  res: SingleResource,
  audience: CaseDataAudience,
  caseId: number,
  body: Record_,
  mode: 'create' | 'update',
): Promise<Record_> {
  const loaded = await loadSingle(ctx.tx, res, caseId);
  const ref = allowCase(loaded?.ref ?? null, audience, 'write');
  if (!loaded) throw new NotFoundError();
  const { record } = loaded;
  if (mode === 'create' && record) {
    throw ValidationError.of('case', `${res.item} with this case already exists.`);
  }
  if (mode === 'update' && !record && res.missing === 'not-found') throw new NotFoundError();
  const base = fieldsOf(res, record ?? (res === basicDetails ? prefill(loaded.subject) : null));
  const holder = res.needsHolder ? await holderOf(ctx.tx, ref) : NO_HOLDER;
  const values = checked(ctx, res, base, sentFields(res, body), lockedFields(res, record), holder);
  let saved: Record_;
  if (record) {
    const changes = changesOf(fieldsOf(res, record), values);
    if (Object.keys(changes).length === 0) return presentLoaded(res, loaded);
    saved = await updateRecord(
      ctx.tx,
      res,
      sql`t.customer_id = ${ref.customerId} and t.case_id = ${ref.id}`,
      values,
    );
    await audit(ctx, res, ref, 'updated', ref.id, changes);
  } else {
    const extra = res.locks === 'source' ? { source: 'manual' } : {};
    saved = await insertRecord(ctx.tx, res, ref, values, extra);
    await audit(ctx, res, ref, 'created', ref.id, changesOf(null, values));
  }
  return presentLoaded(res, { ...loaded, record: saved });
}

/** 400 naming the locked fields when an idsp record (or field) would be deleted. */
function refuseLockedDelete(res: CaseDataResource, record: Record_): void {
  const locked = lockedFields(res, record);
  if (locked.length === 0) return;
  const fields = res.locks === 'source' ? ['source'] : locked;
  throw new ValidationError(
    Object.fromEntries(fields.map((f) => [f, [MESSAGES.idspLockedDelete]])),
  );
}

/** DELETE .../{case}/: 404 when there is nothing stored; idsp records cannot be deleted. */
export async function deleteSingle(
  ctx: ServiceContext,
  res: SingleResource,
  audience: CaseDataAudience,
  caseId: number,
): Promise<void> {
  const loaded = await loadSingle(ctx.tx, res, caseId);
  const ref = allowCase(loaded?.ref ?? null, audience, 'write');
  if (!loaded?.record) throw new NotFoundError();
  refuseLockedDelete(res, loaded.record);
  await ctx.tx.execute(
    sql`delete from ${table(res)} where customer_id = ${ref.customerId} and case_id = ${ref.id}`,
  );
  await audit(ctx, res, ref, 'deleted', ref.id, changesOf(fieldsOf(res, loaded.record), null));
}

// ---------------------------------------------------------------------------------------------
// Records many per case (other names, addresses)

/** GET ?case=ID: every record of the case in one page; addresses add the gaps of 60 months. */
export async function listMany(
  ctx: ServiceContext,
  res: ListResource,
  audience: CaseDataAudience,
  caseId: number,
): Promise<Record_> {
  const rows = await ctx.tx.execute<Record_>(sql`
    select ${sql.raw(CASE_REF_COLUMNS)},
      coalesce((select jsonb_agg(to_jsonb(r) order by ${sql.raw(res.order)})
        from ${table(res)} r where r.customer_id = c.customer_id and r.case_id = c.id), '[]'::jsonb) as records
    from cases c where c.id = ${caseId}`);
  const ref = allowCase(caseRefOf(rows[0]), audience, 'read');
  const records = Array.isArray(rows[0]?.records)
    ? rows[0].records.filter(isRecord).map((r) => readRecord(res, r))
    : [];
  const results = records.map((r) => present(res, ref.id, r));
  const page: Record_ = { count: results.length, next: null, previous: null, results };
  if (res.gaps) {
    page.gaps = addressGaps(
      records.map((r) => ({
        from_date: shown('date', r.from_date) as string | null,
        to_date: shown('date', r.to_date) as string | null,
        current: r.current === true,
      })),
      today(ctx),
    );
  }
  return page;
}

/** One record by its id with its case; null when this context cannot see it. */
async function loadItem(
  tx: Tx,
  res: ListResource,
  id: number,
): Promise<{ ref: CaseRef; record: Record_ } | null> {
  const rows = await tx.execute<Record_>(sql`
    select ${sql.raw(CASE_REF_COLUMNS)}, to_jsonb(r) as record
    from ${table(res)} r join cases c on c.customer_id = r.customer_id and c.id = r.case_id
    where r.id = ${id}`);
  const ref = caseRefOf(rows[0]);
  const record = rows[0]?.record;
  return ref && isRecord(record) ? { ref, record: readRecord(res, record) } : null;
}

/** 400 on `current` when another address of the case is current already. */
async function refuseSecondCurrent(tx: Tx, ref: CaseRef, values: Record_, self: number | null) {
  if (values.current !== true) return;
  const rows = await tx.execute<{ id: number }>(sql`
    select id from case_addresses
    where customer_id = ${ref.customerId} and case_id = ${ref.id} and current
      and id <> ${self ?? 0}`);
  if (rows.length > 0) throw ValidationError.of('current', MESSAGES.oneCurrentAddress);
}

/** GET .../{id}/. */
export async function retrieveItem(
  ctx: ServiceContext,
  res: ListResource,
  audience: CaseDataAudience,
  id: number,
): Promise<Record_> {
  const item = await loadItem(ctx.tx, res, id);
  const ref = allowCase(item?.ref ?? null, audience, 'read');
  if (!item) throw new NotFoundError();
  return present(res, ref.id, item.record);
}

/** POST with `case`: 201 with the new record. */
export async function createItem(
  ctx: ServiceContext,
  res: ListResource,
  audience: CaseDataAudience,
  body: Record_,
): Promise<Record_> {
  const caseId = Number(body.case);
  const rows = await ctx.tx.execute<Record_>(
    sql`select ${sql.raw(CASE_REF_COLUMNS)} from cases c where c.id = ${caseId}`,
  );
  // another tenant's or subject's case is not found, as on every other route
  const ref = allowCase(caseRefOf(rows[0]), audience, 'write');
  const values = checked(ctx, res, fieldsOf(res, null), sentFields(res, body), [], NO_HOLDER);
  if (res === addresses) await refuseSecondCurrent(ctx.tx, ref, values, null);
  const saved = await insertRecord(ctx.tx, res, ref, values);
  await audit(ctx, res, ref, 'created', Number(saved.id), changesOf(null, values));
  return present(res, ref.id, saved);
}

/** PATCH .../{id}/: the sent fields merged onto the stored record. */
export async function patchItem(
  ctx: ServiceContext,
  res: ListResource,
  audience: CaseDataAudience,
  id: number,
  body: Record_,
): Promise<Record_> {
  const item = await loadItem(ctx.tx, res, id);
  const ref = allowCase(item?.ref ?? null, audience, 'write');
  if (!item) throw new NotFoundError();
  const base = fieldsOf(res, item.record);
  const values = checked(
    ctx,
    res,
    base,
    sentFields(res, body),
    lockedFields(res, item.record),
    NO_HOLDER,
  );
  const changes = changesOf(base, values);
  if (Object.keys(changes).length === 0) return present(res, ref.id, item.record);
  if (res === addresses) await refuseSecondCurrent(ctx.tx, ref, values, id);
  const saved = await updateRecord(
    ctx.tx,
    res,
    sql`t.customer_id = ${ref.customerId} and t.id = ${id}`,
    values,
  );
  await audit(ctx, res, ref, 'updated', id, changes);
  return present(res, ref.id, saved);
}

/** DELETE .../{id}/: idsp records cannot be deleted. */
export async function deleteItem(
  ctx: ServiceContext,
  res: ListResource,
  audience: CaseDataAudience,
  id: number,
): Promise<void> {
  const item = await loadItem(ctx.tx, res, id);
  const ref = allowCase(item?.ref ?? null, audience, 'write');
  if (!item) throw new NotFoundError();
  refuseLockedDelete(res, item.record);
  await ctx.tx.execute(
    sql`delete from ${table(res)} where customer_id = ${ref.customerId} and id = ${id}`,
  );
  await audit(ctx, res, ref, 'deleted', id, changesOf(fieldsOf(res, item.record), null));
}
