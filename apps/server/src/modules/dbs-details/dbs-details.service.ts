import {
  type CaseDbsDetailsOut,
  type CaseDbsDetailsSubjectOut,
  type CaseRtwDetailsOut,
  COUNTERSIGNED_KINDS,
  caseDocumentType,
  DBS_DETAILS_MESSAGES,
  dbsDetailsFields,
  type IdentityCheckOut,
  identityCheckOutcome,
  identityGroupOf,
  isCaseOpen,
  refineDbsDetails,
  refineRtwDetails,
  rtwDetailsFields,
} from '@kestrel/domain';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { iso } from '../../platform/clock.js';
import { fieldErrorsOf, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import {
  allowCase,
  CASE_REF_COLUMNS,
  type CaseDataAudience,
  type CaseRef,
  caseRefOf,
} from '../case-data/case-access.js';
import { gateOpened } from '../checks/hooks.js';
import { decryptRecord, encryptValues, maskedChanges } from '../encryption/field-cipher.js';
import { DBS_DETAILS_CONTENT_TYPE } from './dbs-reset.js';

// DBS details and right-to-work details of a case (spec point 3), for staff, ops and the subject
// (case-data's access rules: RLS by tenant and subject, the subject's open cases only, no subject
// write once submitted). Each write merges onto the stored (or blank) record, checks it, saves
// it and its audit row in the caller's transaction.

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const day = (v: unknown): string | null => (typeof v === 'string' && v ? v.slice(0, 10) : null);
const stamp = (v: unknown): string | null =>
  typeof v === 'string' && v ? iso(new Date(v)) : v instanceof Date ? iso(v) : null;
const name = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const today = (ctx: ServiceContext) => ctx.clock.now().toISOString().slice(0, 10);

interface Loaded {
  ref: CaseRef | null;
  record: Row | null;
}

/**
 * The case and its record. A staff or ops write locks the case row first (`lock`), so two
 * verifications, or an edit racing a verification, run one after the other.
 */
async function load(
  tx: Tx,
  table: 'case_dbs_details' | 'case_rtw_details',
  caseId: number,
  lock = false,
) {
  const rows = await tx.execute<Row>(sql`
    select ${sql.raw(CASE_REF_COLUMNS)},
      case when r.case_id is null then null else to_jsonb(r) end as record
    from cases c
    left join ${sql.identifier(table)} r on r.customer_id = c.customer_id and r.case_id = c.id
    where c.id = ${caseId}${lock ? sql` for update of c` : sql``}`);
  const row = rows[0];
  const record = row?.record;
  // the share code is encrypted at rest (decision 027): answered plain
  return {
    ref: caseRefOf(row),
    record: isRow(record) ? decryptRecord(table, record) : null,
  } satisfies Loaded;
}

function throwIssues(issues: readonly { path: PropertyKey[]; message: string }[]): never {
  throw new ValidationError(
    fieldErrorsOf(issues.map((i) => ({ key: i.path.map(String).join('.'), message: i.message }))),
  );
}

async function audit(
  ctx: ServiceContext,
  ref: CaseRef,
  contentType: string,
  item: string,
  verb: 'created' | 'updated',
  changes: Record<string, [unknown, unknown]>,
): Promise<void> {
  await recordAudit(ctx.tx, ctx.actor, {
    verb,
    contentType,
    objectId: ref.id,
    objectRepr: `${item} of case ${ref.id}`,
    customerId: ref.customerId,
    changes: { case: ref.id, fields: Object.keys(changes), personal: changes },
  });
}

function changesOf(before: Row, after: Row): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after)) {
    if ((before[key] ?? null) !== (after[key] ?? null))
      out[key] = [before[key] ?? null, after[key]];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// DBS details

export { DBS_DETAILS_CONTENT_TYPE };
export const RTW_DETAILS_CONTENT_TYPE = 'cases.casertwdetails';

interface DbsEditable extends Row {
  idv_option: string;
  video_call_date: string | null;
  in_person_expected_date: string | null;
  discrepancy_notes: string;
}

function dbsEditable(record: Row | null): DbsEditable {
  return {
    idv_option: text(record?.idv_option),
    video_call_date: day(record?.video_call_date),
    in_person_expected_date: day(record?.in_person_expected_date),
    discrepancy_notes: text(record?.discrepancy_notes),
  };
}

/**
 * The case's identity check as it stands: its level (standard or enhanced when it has such a
 * check), its documents that are not rejected and on the identity list, and its online identity
 * check (passed, or approved by hand), against the route the chosen option must meet.
 */
async function identityCheckOf(tx: Tx, ref: CaseRef, idvOption: string) {
  const { id: caseId, customerId } = ref;
  const rows = await tx.execute<{
    full: boolean;
    docs: { id: number; document_type: string }[];
    idv: boolean | null;
  }>(sql`
    select
      exists (select 1 from case_activities ca join activity_types t on t.id = ca.activity_type_id
        where ca.customer_id = ${customerId} and ca.case_id = ${caseId} and t.code in (${sql.join(
          COUNTERSIGNED_KINDS.map((c) => sql`${c}`),
          sql`, `,
        )})) as full,
      coalesce((select jsonb_agg(jsonb_build_object('id', d.id, 'document_type', d.document_type)
          order by d.id)
        from case_documents d
        where d.customer_id = ${customerId} and d.case_id = ${caseId} and not d.rejected),
        '[]'::jsonb) as docs,
      (select o.status = 'passed' or o.manual_idv_approved
        from case_online_idv o where o.customer_id = ${customerId} and o.case_id = ${caseId}) as idv`);
  const row = rows[0];
  // the documents on the identity list count (a right-to-work one does not)
  const documents: IdentityCheckOut['documents'] = [];
  const documentCodes: string[] = [];
  for (const d of row?.docs ?? []) {
    const group = identityGroupOf(d.document_type);
    if (!group) continue;
    documents.push({ id: d.id, name: caseDocumentType(d.document_type)?.name ?? '', group });
    documentCodes.push(d.document_type);
  }
  const level = row?.full ? 'standard-enhanced' : 'basic';
  const onlineIdvPassed = row?.idv === true;
  const outcome = identityCheckOutcome({ level, idvOption, documentCodes, onlineIdvPassed });
  return { ...outcome, level, online_idv_passed: onlineIdvPassed, documents } as const;
}

function presentDbs(
  caseId: number,
  record: Row | null,
  identityCheck: IdentityCheckOut,
): CaseDbsDetailsOut {
  const e = dbsEditable(record);
  const state = text(record?.state);
  return {
    case: caseId,
    idv_option:
      e.idv_option === 'online' || e.idv_option === 'in-person' || e.idv_option === 'video-call'
        ? e.idv_option
        : '',
    video_call_date: e.video_call_date,
    in_person_expected_date: e.in_person_expected_date,
    discrepancy_notes: e.discrepancy_notes,
    state: state === 'verified' || state === 'countersigned' ? state : 'pending',
    verified_by: name(record?.verified_by),
    verified_at: stamp(record?.verified_at),
    identity_route: typeof record?.identity_route === 'number' ? record.identity_route : null,
    countersigned_by: name(record?.countersigned_by),
    countersigned_at: stamp(record?.countersigned_at),
    identity_check: identityCheck,
  };
}

/** Verification and countersigning are for an open case (not finished, cancelled or archived). */
function openCase(ref: CaseRef): CaseRef {
  if (!isCaseOpen(ref.state) || ref.archived) {
    throw ValidationError.of('state', DBS_DETAILS_MESSAGES.caseClosed);
  }
  return ref;
}

/** What the subject's view never shows (subjectView drops it): not read for them. */
const NOT_READ: IdentityCheckOut = {
  level: 'basic',
  basis: null,
  met: false,
  route: null,
  problem: '',
  online_idv_passed: false,
  documents: [],
};

/** The record presented with its identity check (staff and ops; read in the caller's context). */
async function present(
  tx: Tx,
  audience: CaseDataAudience,
  ref: CaseRef,
  record: Row | null,
): Promise<CaseDbsDetailsOut> {
  const check =
    audience === 'subject' ? NOT_READ : await identityCheckOf(tx, ref, text(record?.idv_option));
  return presentDbs(ref.id, record, check);
}

/** The subject's restricted view (no notes, no other people's names). */
export function subjectView(out: CaseDbsDetailsOut): CaseDbsDetailsSubjectOut {
  return {
    case: out.case,
    idv_option: out.idv_option,
    video_call_date: out.video_call_date,
    in_person_expected_date: out.in_person_expected_date,
    state: out.state,
  };
}

/** GET: the case's DBS details, blank (pending) until saved. */
export async function retrieveDbsDetails(
  ctx: ServiceContext,
  audience: CaseDataAudience,
  caseId: number,
): Promise<CaseDbsDetailsOut> {
  const loaded = await load(ctx.tx, 'case_dbs_details', caseId);
  const ref = allowCase(loaded.ref, audience, 'read');
  return present(ctx.tx, audience, ref, loaded.record);
}

async function upsertDbs(tx: Tx, ref: CaseRef, values: Row, exists: boolean): Promise<Row> {
  const rows = exists
    ? await tx.execute<{ record: Row }>(sql`
        update case_dbs_details as t set ${sql.join(
          Object.entries(values).map(([k, v]) => sql`${sql.identifier(k)} = ${v}`),
          sql`, `,
        )}, updated_at = now()
        where t.customer_id = ${ref.customerId} and t.case_id = ${ref.id}
        returning to_jsonb(t) as record`)
    : await tx.execute<{ record: Row }>(sql`
        insert into case_dbs_details as t (customer_id, case_id, ${sql.join(
          Object.keys(values).map((k) => sql.identifier(k)),
          sql`, `,
        )})
        values (${ref.customerId}, ${ref.id}, ${sql.join(
          Object.values(values).map((v) => sql`${v}`),
          sql`, `,
        )})
        returning to_jsonb(t) as record`);
  return rows[0]?.record ?? {};
}

/**
 * PATCH: the sent fields merged onto the stored record, checked (the chosen route's date not in
 * the past). The subject sets the route only (its body has no notes); nothing changes once the
 * identity is verified (400).
 */
export async function patchDbsDetails(
  ctx: ServiceContext,
  audience: CaseDataAudience,
  caseId: number,
  body: Row,
): Promise<CaseDbsDetailsOut> {
  const loaded = await load(ctx.tx, 'case_dbs_details', caseId, audience !== 'subject');
  const ref = allowCase(loaded.ref, audience, 'write');
  const before = dbsEditable(loaded.record);
  const sent: Row = {};
  const allowed =
    audience === 'subject'
      ? ['idv_option', 'video_call_date', 'in_person_expected_date']
      : Object.keys(before);
  for (const key of allowed) if (key in body) sent[key] = body[key];
  const parsed = dbsDetailsFields
    .superRefine((d, c) =>
      refineDbsDetails(
        {
          idv_option: d.idv_option,
          video_call_date: d.video_call_date,
          in_person_expected_date: d.in_person_expected_date,
        },
        c,
        today(ctx),
      ),
    )
    .safeParse({ ...before, ...sent });
  if (!parsed.success) throwIssues(parsed.error.issues);
  const after: DbsEditable = {
    idv_option: parsed.data.idv_option,
    video_call_date: parsed.data.video_call_date,
    in_person_expected_date: parsed.data.in_person_expected_date,
    discrepancy_notes: parsed.data.discrepancy_notes ?? '',
  };
  const changes = changesOf(before, after);
  if (Object.keys(changes).length === 0) return present(ctx.tx, audience, ref, loaded.record);
  const state = text(loaded.record?.state);
  if (state === 'verified' || state === 'countersigned') {
    const locked: Record<string, string[]> = {};
    for (const key of Object.keys(changes)) locked[key] = [DBS_DETAILS_MESSAGES.verifiedLocked];
    throw new ValidationError(locked);
  }
  const saved = await upsertDbs(ctx.tx, ref, after, loaded.record !== null);
  await audit(
    ctx,
    ref,
    DBS_DETAILS_CONTENT_TYPE,
    'DBS details',
    loaded.record ? 'updated' : 'created',
    changes,
  );
  return present(ctx.tx, audience, ref, saved);
}

/**
 * POST .../verify/: the applicant's identity verified against the evidence (pending ->
 * verified), with any discrepancies: online, the case's online identity check passed; with
 * documents, the case's documents (not rejected) meet an identity checking route, which is
 * recorded on the details and on the documents counted (their route_index). Otherwise 400
 * with what is missing. Staff or ops only.
 */
export async function verifyDbsDetails(
  ctx: ServiceContext,
  audience: CaseDataAudience,
  caseId: number,
  discrepancyNotes: string | undefined,
): Promise<CaseDbsDetailsOut> {
  if (audience === 'subject') throw new PermissionDeniedError();
  const loaded = await load(ctx.tx, 'case_dbs_details', caseId, true);
  const ref = openCase(allowCase(loaded.ref, audience, 'write'));
  const before = dbsEditable(loaded.record);
  const state = text(loaded.record?.state) || 'pending';
  if (state !== 'pending') throw ValidationError.of('state', DBS_DETAILS_MESSAGES.alreadyVerified);
  if (before.idv_option === '') throw ValidationError.of('idv_option', 'Required');
  const check = await identityCheckOf(ctx.tx, ref, before.idv_option);
  if (!check.met) throw ValidationError.of('identity_check', check.problem);
  const notes = discrepancyNotes ?? before.discrepancy_notes;
  const saved = await upsertDbs(
    ctx.tx,
    ref,
    {
      ...before,
      discrepancy_notes: notes,
      state: 'verified',
      verified_by: ctx.actor.name.slice(0, 200),
      verified_at: ctx.clock.now().toISOString(),
      identity_route: check.route,
    },
    loaded.record !== null,
  );
  const counted = check.basis === 'documents' ? check.documents.map((d) => d.id) : [];
  if (counted.length > 0) {
    await ctx.tx.execute(sql`
      update case_documents set route_index = ${check.route}, updated_at = now()
      where customer_id = ${ref.customerId} and case_id = ${ref.id}
        and id in (${sql.join(
          counted.map((id) => sql`${id}`),
          sql`, `,
        )})`);
  }
  await audit(ctx, ref, DBS_DETAILS_CONTENT_TYPE, 'DBS details', 'updated', {
    state: ['pending', 'verified'],
    identity_route: [null, check.route],
    ...(counted.length > 0 ? { documents: [null, counted] } : {}),
    ...(notes !== before.discrepancy_notes
      ? { discrepancy_notes: [before.discrepancy_notes, notes] }
      : {}),
  });
  return presentDbs(ref.id, saved, check);
}

/** POST .../countersign/: verified -> countersigned. Staff or ops only. */
export async function countersignDbsDetails(
  ctx: ServiceContext,
  audience: CaseDataAudience,
  caseId: number,
): Promise<CaseDbsDetailsOut> {
  if (audience === 'subject') throw new PermissionDeniedError();
  const loaded = await load(ctx.tx, 'case_dbs_details', caseId, true);
  const ref = openCase(allowCase(loaded.ref, audience, 'write'));
  const state = text(loaded.record?.state) || 'pending';
  if (state === 'countersigned') {
    throw ValidationError.of('state', DBS_DETAILS_MESSAGES.alreadyCountersigned);
  }
  if (state !== 'verified' || !loaded.record) {
    throw ValidationError.of('state', DBS_DETAILS_MESSAGES.verifyFirst);
  }
  // the evidence still holds (a document rejected since verification is found here)
  const check = await identityCheckOf(ctx.tx, ref, text(loaded.record.idv_option));
  if (!check.met) throw ValidationError.of('identity_check', check.problem);
  const saved = await upsertDbs(
    ctx.tx,
    ref,
    {
      state: 'countersigned',
      countersigned_by: ctx.actor.name.slice(0, 200),
      countersigned_at: ctx.clock.now().toISOString(),
    },
    true,
  );
  await audit(ctx, ref, DBS_DETAILS_CONTENT_TYPE, 'DBS details', 'updated', {
    state: ['verified', 'countersigned'],
  });
  // a countersigned application goes to the DBS (issue 17): the engine submits what waited
  await gateOpened(ctx, ref.id);
  return presentDbs(ref.id, saved, check);
}

// ---------------------------------------------------------------------------------------------
// Right to work

function presentRtw(caseId: number, record: Row | null): CaseRtwDetailsOut {
  const route = text(record?.route);
  return {
    case: caseId,
    route: route === 'share-code' || route === 'documents' ? route : '',
    share_code: text(record?.share_code),
    verification_method_display: text(record?.verification_method_display),
    checked_by: name(record?.checked_by),
    checked_at: stamp(record?.checked_at),
    state_display: text(record?.state_display),
  };
}

export async function retrieveRtwDetails(
  ctx: ServiceContext,
  audience: CaseDataAudience,
  caseId: number,
): Promise<CaseRtwDetailsOut> {
  const loaded = await load(ctx.tx, 'case_rtw_details', caseId);
  const ref = allowCase(loaded.ref, audience, 'read');
  return presentRtw(ref.id, loaded.record);
}

/** PATCH: the route and share code (a share code is kept only for the online check). */
export async function patchRtwDetails(
  ctx: ServiceContext,
  audience: CaseDataAudience,
  caseId: number,
  body: Row,
): Promise<CaseRtwDetailsOut> {
  const loaded = await load(ctx.tx, 'case_rtw_details', caseId);
  const ref = allowCase(loaded.ref, audience, 'write');
  const before = { route: text(loaded.record?.route), share_code: text(loaded.record?.share_code) };
  const sent: Row = {};
  for (const key of ['route', 'share_code']) if (key in body) sent[key] = body[key];
  const parsed = rtwDetailsFields
    .superRefine((d, c) => refineRtwDetails(d, c))
    .safeParse({ ...before, ...sent });
  if (!parsed.success) throwIssues(parsed.error.issues);
  const after = {
    route: parsed.data.route,
    share_code: parsed.data.route === 'documents' ? '' : parsed.data.share_code,
  };
  const changes = changesOf(before, after);
  if (Object.keys(changes).length === 0) return presentRtw(ref.id, loaded.record);
  const shareCode = encryptValues('case_rtw_details', { share_code: after.share_code }).share_code;
  const rows = loaded.record
    ? await ctx.tx.execute<{ record: Row }>(sql`
        update case_rtw_details as t set route = ${after.route}, share_code = ${shareCode},
          updated_at = now()
        where t.customer_id = ${ref.customerId} and t.case_id = ${ref.id}
        returning to_jsonb(t) as record`)
    : await ctx.tx.execute<{ record: Row }>(sql`
        insert into case_rtw_details as t (customer_id, case_id, route, share_code)
        values (${ref.customerId}, ${ref.id}, ${after.route}, ${shareCode})
        returning to_jsonb(t) as record`);
  await audit(
    ctx,
    ref,
    RTW_DETAILS_CONTENT_TYPE,
    'right to work details',
    loaded.record ? 'updated' : 'created',
    // the share code is stored encrypted: the audit keeps it masked
    maskedChanges('case_rtw_details', changes),
  );
  const saved = rows[0]?.record;
  return presentRtw(ref.id, saved ? decryptRecord('case_rtw_details', saved) : null);
}

/**
 * The condition "this activity's case has its DBS details verified and waiting for a
 * countersignature" over the given activity columns (the ops outstanding list shows such checks).
 */
export function awaitingCountersignature(customerId: AnyColumn, caseId: AnyColumn): SQL {
  return sql`exists (select 1 from case_dbs_details d
    where d.customer_id = ${customerId} and d.case_id = ${caseId} and d.state = 'verified')`;
}
