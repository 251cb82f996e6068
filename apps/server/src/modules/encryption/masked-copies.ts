import { sql } from 'drizzle-orm';
import type { Database } from '../../db/connection.js';
import { maskedChanges } from './field-cipher.js';
import { MASK_BULLETS, maskLicenceNumbers, maskOptional } from './mask.js';

/**
 * The copies of the encrypted identifiers written before they were masked (mask.ts), masked in
 * place: the audit log's old and new values of case data, a DBS check's applicant NI number, a
 * right-to-work check's share code in its result and its logged requests, driving licence
 * numbers, and the activities' audit rows (each change of a result audited with its before and
 * after). Three phases (the case data's audit rows, the activities, the activities' audit rows),
 * each walked by id; each row written only if it is still the one read.
 */

/** The audit content types of the tables with encrypted columns. */
const AUDITED_TABLES: Record<string, string> = {
  'cases.casebasicdetails': 'case_basic_details',
  'cases.casepassport': 'case_passports',
  'cases.casedrivinglicence': 'case_driving_licences',
  'cases.casertwdetails': 'case_rtw_details',
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An audit row's changes with their personal identifiers masked. */
function maskedAudit(contentType: string, changes: unknown): unknown {
  const table = AUDITED_TABLES[contentType];
  if (!table || !isObject(changes) || !isObject(changes.personal)) return changes;
  const pairs: Record<string, [unknown, unknown]> = {};
  for (const [k, v] of Object.entries(changes.personal)) {
    if (Array.isArray(v) && v.length === 2) pairs[k] = [v[0], v[1]];
  }
  return { ...changes, personal: { ...changes.personal, ...maskedChanges(table, pairs) } };
}

/** An activity's result and provider log with the applicant's NI number and share codes masked. */
function maskedActivity(result: unknown, processing: unknown): [unknown, unknown] {
  let r = result;
  if (isObject(r)) {
    if (isObject(r.applicant) && typeof r.applicant.nin === 'string') {
      r = { ...r, applicant: { ...r.applicant, nin: maskOptional(r.applicant.nin) } };
    }
    if (isObject(r) && typeof r.share_code === 'string') {
      r = { ...r, share_code: maskOptional(r.share_code) };
    }
  }
  let p = processing;
  if (isObject(p) && Array.isArray(p.events)) {
    p = {
      ...p,
      events: p.events.map((e: unknown) =>
        isObject(e) && isObject(e.body) && typeof e.body.share_code === 'string'
          ? { ...e, body: { ...e.body, share_code: maskOptional(e.body.share_code) } }
          : e,
      ),
    };
  }
  return [r, p];
}

/**
 * An activity's result (or a whole provider log) as a copy keeps it (the audit log's before and
 * after of a change): its driving licence numbers, applicant's NI number and share codes masked,
 * whatever the kind (a copy never needs the plain value). What writeActivity audits, and what
 * the sweep's third phase makes of the rows written before.
 */
export function maskedResultCopy(result: unknown): unknown {
  return maskedActivity(maskLicenceNumbers(result), null)[0];
}

/** A whole provider log as a copy keeps it (see maskedResultCopy). */
export function maskedLogCopy(processing: unknown): unknown {
  return maskedActivity(null, maskLicenceNumbers(processing))[1];
}

/** An activity's audit row's changes with the identifiers of its results and logs masked. */
function maskedActivityAudit(changes: unknown): unknown {
  if (!isObject(changes)) return changes;
  const pair = (v: unknown, mask: (x: unknown) => unknown) => (Array.isArray(v) ? v.map(mask) : v);
  return {
    ...changes,
    ...('result_data' in changes
      ? { result_data: pair(changes.result_data, maskedResultCopy) }
      : {}),
    ...('processing_data' in changes
      ? { processing_data: pair(changes.processing_data, maskedLogCopy) }
      : {}),
  };
}

/** A jsonpath filter: a value neither blank nor masked already. */
const UNMASKED = `? (@ != "" && !(@ starts with "${MASK_BULLETS}"))`;
const exists = (column: string, path: string) =>
  `jsonb_path_exists(${column}, '${path} ${UNMASKED}'::jsonpath)`;

/**
 * The audit rows holding a plain identifier. The same text is the predicate of the partial index
 * audit_actions_unmasked_idx (migration 0054): the index holds only the rows still to mask, so a
 * sweep over a big log reads a few index entries, not the log. Keep the two the same (the test
 * reads the query's plan).
 */
export const AUDIT_UNMASKED = `content_type in (${Object.keys(AUDITED_TABLES)
  .map((c) => `'${c}'`)
  .join(', ')}) and (${[
  exists('changes', '$.personal.nin[*]'),
  exists('changes', '$.personal.number[*]'),
  exists('changes', '$.personal.share_code[*]'),
].join(' or ')})`;

/**
 * The activities holding a plain identifier: an applicant's NI number or a share code (DBS,
 * right to work), or a driving licence number anywhere in a result or a provider log (driver
 * data, licence checks: mask.ts `maskLicenceNumbers`). The predicate of the partial index
 * case_activities_unmasked_idx (migration 0054), as AUDIT_UNMASKED.
 */
export const ACTIVITY_UNMASKED = `(${[
  exists('result_data', '$.applicant.nin'),
  exists('result_data', '$.share_code'),
  exists('processing_data', '$.events[*].body.share_code'),
  exists('result_data', '$.**.drivingLicenceNumber'),
  exists('result_data', '$.**.licence_number'),
  exists('result_data', '$.**.licence.number'),
  exists('processing_data', '$.**.drivingLicenceNumber'),
  exists('processing_data', '$.**.licence_number'),
  exists('processing_data', '$.**.licence.number'),
].join(' or ')})`;

/**
 * The activities' audit rows holding a plain identifier in a result's before or after
 * (`result_data`) or in a hand edit's whole provider logs (`processing_data`; the engine's own
 * log writes audit only the event appended). The predicate of the partial index
 * audit_actions_activity_unmasked_idx (migration 0056), as AUDIT_UNMASKED.
 */
export const AUDIT_ACTIVITY_UNMASKED = `content_type = 'cases.caseactivity' and (${[
  exists('changes', '$.result_data[*].applicant.nin'),
  exists('changes', '$.result_data[*].share_code'),
  exists('changes', '$.result_data.**.drivingLicenceNumber'),
  exists('changes', '$.result_data.**.licence_number'),
  exists('changes', '$.result_data.**.licence.number'),
  exists('changes', '$.processing_data[*].events[*].body.share_code'),
  exists('changes', '$.processing_data.**.drivingLicenceNumber'),
  exists('changes', '$.processing_data.**.licence_number'),
  exists('changes', '$.processing_data.**.licence.number'),
].join(' or ')})`;

/** The kinds whose results and logs hold driving licence numbers (masked by `maskLicenceNumbers`). */
const LICENCE_KINDS = ['driver-data', 'licence-check'];

/**
 * One batch of one phase (0: the case data's audit rows, 1: activities, 2: the activities' audit
 * rows) after `afterId`: masked, next id or null.
 */
export async function maskStoredCopies(
  db: Database,
  phase: number,
  afterId: number,
  batch: number,
): Promise<{ masked: number; skipped: number; lastId: number | null; full: boolean }> {
  const out = { masked: 0, skipped: 0, lastId: null as number | null, full: false };
  await db.ownerTransaction(async (tx) => {
    if (phase === 0 || phase === 2) {
      // 0: the case data's audit rows; 2: the activities' (their results' before and after)
      const rows = await tx.execute<{ id: number; content_type: string; changes: unknown }>(sql`
        select id, content_type, changes from audit_actions
        where id > ${afterId} and ${sql.raw(phase === 0 ? AUDIT_UNMASKED : AUDIT_ACTIVITY_UNMASKED)}
        order by id limit ${batch}`);
      for (const r of rows) {
        const next =
          phase === 0 ? maskedAudit(r.content_type, r.changes) : maskedActivityAudit(r.changes);
        const done =
          await tx.execute(sql`update audit_actions set changes = ${JSON.stringify(next)}::jsonb
          where id = ${r.id} and changes = ${JSON.stringify(r.changes)}::jsonb returning id`);
        if (done.length === 0) out.skipped += 1;
        else out.masked += 1;
      }
      out.lastId = rows.length > 0 ? Number(rows.at(-1)?.id) : null;
      out.full = rows.length === batch;
      return;
    }
    // a licence number outside the licence kinds (none is known) is left: the index keeps it
    const rows = await tx.execute<{
      id: number;
      result_data: unknown;
      processing_data: unknown;
      licence_kind: boolean;
    }>(sql`
      select id, result_data, processing_data,
        coalesce((select t.code from activity_types t where t.id = activity_type_id) in (${sql.join(
          LICENCE_KINDS.map((k) => sql`${k}`),
          sql`, `,
        )}), false) as licence_kind
      from case_activities
      where id > ${afterId} and ${sql.raw(ACTIVITY_UNMASKED)}
      order by id limit ${batch}`);
    for (const r of rows) {
      const [result, processing] = r.licence_kind
        ? maskedActivity(maskLicenceNumbers(r.result_data), maskLicenceNumbers(r.processing_data))
        : maskedActivity(r.result_data, r.processing_data);
      // nothing of this row's to mask (a number outside the licence kinds): left as it is
      if (
        JSON.stringify(result) === JSON.stringify(r.result_data) &&
        JSON.stringify(processing) === JSON.stringify(r.processing_data)
      ) {
        continue;
      }
      const done = await tx.execute(sql`update case_activities
        set result_data = ${JSON.stringify(result)}::jsonb,
          processing_data = ${JSON.stringify(processing)}::jsonb
        where id = ${r.id}
          and result_data is not distinct from ${JSON.stringify(r.result_data)}::jsonb
          and processing_data is not distinct from ${JSON.stringify(r.processing_data)}::jsonb
        returning id`);
      if (done.length === 0) out.skipped += 1;
      else out.masked += 1;
    }
    out.lastId = rows.length > 0 ? Number(rows.at(-1)?.id) : null;
    out.full = rows.length === batch;
  });
  return out;
}

/** The number of phases of `maskStoredCopies`. */
export const MASK_PHASES = 3;
