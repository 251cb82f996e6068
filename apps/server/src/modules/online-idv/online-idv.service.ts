import {
  COUNTERSIGNED_KINDS,
  isOnlineIdentityVerified,
  type ManualApproval,
  ONLINE_IDV_CHECK_TEXTS,
  type OnlineIdvOut,
  type OnlineIdvProfile,
  type OnlineIdvResultData,
  type OnlineIdvStartOut,
  type SubjectOnlineIdvOut,
} from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { AppError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import {
  type IdvLevel,
  type IdvPerson,
  type IdvProvider,
  IdvProviderError,
  type IdvResult,
} from '../../providers/idv/provider.js';
import { allowCase, CASE_REF_COLUMNS, type CaseRef, caseRefOf } from '../case-data/case-access.js';
import { caseAddresses, caseBasicDetails } from '../case-data/case-data.table.js';
import { callbackUrlOf } from '../checks/activity.js';
import { idvProvider } from '../checks/online-idv/providers.js';
import { caseOnlineIdv } from './online-idv.table.js';

// The online identity check of a case (issue 16): the subject starts it (a provider session,
// audited), the provider's result arrives by a signed callback and/or is fetched on return, and
// is stored once; a pass fills the basic details (names, date of birth) and the current address
// with source idsp, which then lock (the case-data service refuses changes to them).

export const ONLINE_IDV_CONTENT_TYPE = 'cases.caseonlineidv';
/** The basic details a pass provides (locked through `idsp_fields`). */
export const IDSP_BASIC_FIELDS = ['forename', 'middlename', 'surname', 'dob'] as const;

type Row = typeof caseOnlineIdv.$inferSelect;

const BLANK: OnlineIdvOut = {
  session: null,
  ibv_verified: false,
  ibv_session: null,
  manual_idv_approved: false,
  id_profile: null,
  verified: false,
};

/** The schemes of a stored profile (DBS, RTW) and whether each one's requirements were met. */
function schemesOf(row: Row): { name: string; requirements_met: boolean }[] {
  const schemes = Array.isArray(row.idProfile?.schemes) ? row.idProfile.schemes : [];
  return schemes.flatMap((s: unknown) =>
    typeof s === 'object' && s !== null && 'name' in s && 'requirements_met' in s
      ? [{ name: String(s.name), requirements_met: s.requirements_met === true }]
      : [],
  );
}

/** Spec point 4's rule over a stored check. */
function verifiedOf(row: Row): boolean {
  return isOnlineIdentityVerified({
    ibv_verified: row.ibvVerified,
    manual_idv_approved: row.manualIdvApproved,
    id_profile: { schemes: schemesOf(row) },
  });
}

function present(row: Row | undefined): SubjectOnlineIdvOut {
  if (!row) return { ...BLANK, status: 'not-started', url: null };
  // approved by hand without an online check ('manual'): nothing is left to do online
  const status =
    row.status === 'passed' || row.status === 'failed'
      ? row.status
      : row.status === 'manual'
        ? 'passed'
        : 'in-progress';
  return {
    session: row.session,
    ibv_verified: row.ibvVerified,
    ibv_session: row.ibvSession,
    manual_idv_approved: row.manualIdvApproved,
    id_profile: row.idProfile ?? null,
    verified: verifiedOf(row),
    status,
    url: status === 'in-progress' ? row.sessionUrl : null,
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const MISMATCH_REASONS = [
  'document_previous_name',
  'document_short_name',
  'account_name_incorrect',
  'other',
] as const;

/**
 * The online identity activity's result data (spec point 2's panel) from the case's stored check:
 * names, date of birth, current address, level of assurance, right to work verified or not, DBS
 * identity verified or manual, the name mismatch and its reason, bank verification, manual
 * approval; `verified` by spec point 4's rule. Nothing but the session while it is unfinished.
 */
export function idvResultDataOf(
  row: Row,
  approval: ManualApproval | null = null,
): OnlineIdvResultData {
  const finished = row.status === 'passed' || row.status === 'failed';
  const base: OnlineIdvResultData = {
    session: row.session,
    manual_idv_approved: row.manualIdvApproved,
    ...(approval ? { manual_approval: approval } : {}),
  };
  if (!finished) return base;
  const p = row.idProfile ?? {};
  const person = obj(p.person);
  const address = obj(p.address);
  const mismatch = obj(p.name_mismatch);
  const reason = MISMATCH_REASONS.find((r) => r === mismatch?.reason);
  const scheme = (name: string) => schemesOf(row).find((s) => s.name === name)?.requirements_met;
  const route = str(p.route);
  return {
    ...base,
    outcome: row.status === 'passed' ? 'passed' : 'failed',
    verified: verifiedOf(row),
    method: row.manualIdvApproved
      ? 'manual'
      : route === 'bank' || route === 'post-office' || route === 'digital'
        ? route
        : row.ibvVerified
          ? 'bank'
          : row.status === 'passed'
            ? 'digital'
            : null,
    forename: str(person?.forename),
    middlename: str(person?.middlename),
    surname: str(person?.surname),
    dob: str(person?.dob),
    current_address: address
      ? {
          line_one: str(address.line_one),
          line_two: str(address.line_two),
          town: str(address.town),
          postcode: str(address.postcode),
          country: str(address.country),
        }
      : null,
    level_of_assurance: str(p.level_of_assurance),
    rtw_verified: scheme('RTW') === true,
    dbs_identity: scheme('DBS') === true ? 'verified' : 'manual',
    name_mismatch: reason ? { reason, document_name: str(mismatch?.document_name) } : null,
    ibv_verified: row.ibvVerified,
    ibv_session: row.ibvSession,
    failure_reason: str(p.failure_reason),
    completed_at: str(p.completed_at),
  };
}

async function rowOf(tx: Tx, caseId: number): Promise<Row | undefined> {
  const rows = await tx.select().from(caseOnlineIdv).where(eq(caseOnlineIdv.caseId, caseId));
  return rows[0];
}

/**
 * The online identity check data of a case (spec point 3) for the portal payload: read in the
 * caller's context (RLS decides what it may see); blank until the check is started.
 */
export async function onlineIdvOf(ctx: ServiceContext, caseId: number): Promise<OnlineIdvOut> {
  return onlineIdvOfCase(ctx.tx, caseId);
}

/** onlineIdvOf in a transaction (lists). */
export async function onlineIdvOfCase(tx: Tx, caseId: number): Promise<OnlineIdvOut> {
  const { status: _status, url: _url, ...out } = present(await rowOf(tx, caseId));
  return out;
}

/**
 * GET /api/case-online-idv/{case}/ (customer staff) and /api/ops/...: the point 3 data of a case
 * the caller can see (404 otherwise: RLS hides other tenants' cases).
 */
export async function caseOnlineIdvOf(
  ctx: ServiceContext,
  audience: 'staff' | 'ops',
  caseId: number,
): Promise<OnlineIdvOut> {
  const rows = await ctx.tx.execute<Record<string, unknown>>(
    sql`select ${sql.raw(CASE_REF_COLUMNS)} from cases c where c.id = ${caseId}`,
  );
  allowCase(caseRefOf(rows[0]), audience, 'read');
  return onlineIdvOf(ctx, caseId);
}

/** GET /api/s/case-online-idv/{case}/: 404 for a case that is not the subject's open one. */
export async function subjectOnlineIdv(
  ctx: ServiceContext,
  caseId: number,
): Promise<SubjectOnlineIdvOut> {
  const rows = await ctx.tx.execute<Record<string, unknown>>(
    sql`select ${sql.raw(CASE_REF_COLUMNS)} from cases c where c.id = ${caseId}`,
  );
  allowCase(caseRefOf(rows[0]), 'subject', 'read');
  return present(await rowOf(ctx.tx, caseId));
}

/**
 * The subject's own open case, read in the system context with the tenant and the subject's login
 * explicit (the subject role may not write this table): 404 otherwise, 403 once submitted.
 */
async function subjectCase(
  ctx: ServiceContext,
  subject: Actor,
  caseId: number,
): Promise<{ ref: CaseRef; person: IdvPerson; level: IdvLevel; activity: number | null }> {
  if (subject.type !== 'SubjectUser' || subject.customerId === null || subject.id === null) {
    throw new NotFoundError();
  }
  const rows = await ctx.tx.execute<Record<string, unknown>>(sql`
    select ${sql.raw(CASE_REF_COLUMNS)},
      coalesce(nullif(b.forename, ''), s.first_name, '') as forename,
      coalesce(nullif(b.middlename, ''), s.middlename, '') as middlename,
      coalesce(nullif(b.surname, ''), s.last_name, '') as surname,
      coalesce(b.dob, s.dob, u.dob)::text as dob,
      exists (select 1 from case_activities a join activity_types t on t.id = a.activity_type_id
        where a.customer_id = c.customer_id and a.case_id = c.id
          and t.code in (${sql.join(
            COUNTERSIGNED_KINDS.map((c) => sql`${c}`),
            sql`, `,
          )})) as high,
      (select a.id from case_activities a join activity_types t on t.id = a.activity_type_id
        where a.customer_id = c.customer_id and a.case_id = c.id and t.code = 'online-idv'
        order by a.id limit 1) as idv_activity
    from cases c
    join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
    left join subject_users u on u.id = s.user_id
    left join case_basic_details b on b.customer_id = c.customer_id and b.case_id = c.id
    where c.id = ${caseId} and c.customer_id = ${subject.customerId} and s.user_id = ${subject.id}`);
  const row = rows[0];
  const ref = allowCase(caseRefOf(row), 'subject', 'write');
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    ref,
    person: {
      forename: text(row?.forename),
      middlename: text(row?.middlename),
      surname: text(row?.surname),
      dob: text(row?.dob).slice(0, 10) || null,
    },
    level: row?.high === true ? 'high' : 'medium',
    activity: row?.idv_activity == null ? null : Number(row.idv_activity),
  };
}

export interface StartDeps {
  provider: IdvProvider;
  /** Base of the links the provider sends the person back to and posts results to. */
  publicUrl: string;
}

/**
 * POST .../start/: opens a provider session for the person (a new one each time until the check
 * has passed or failed) and records it, audited. Run in the system context (see subjectCase).
 */
export async function startOnlineIdv(
  ctx: ServiceContext,
  deps: StartDeps,
  subject: Actor,
  caseId: number,
): Promise<OnlineIdvStartOut> {
  const { ref, person, level, activity } = await subjectCase(ctx, subject, caseId);
  // the check is the case's online identity activity: without one there is nothing to start
  if (activity === null) throw new NotFoundError();
  const before = await rowOf(ctx.tx, ref.id);
  if (before && before.status !== 'in-progress') {
    throw ValidationError.of('non_field_errors', ONLINE_IDV_CHECK_TEXTS.alreadyVerified);
  }
  const base = (subject.brandAddress ?? deps.publicUrl).replace(/\/$/, '');
  let session: { id: string; url: string };
  try {
    session = await deps.provider.createSession({
      reference: `case-${ref.id}`,
      person,
      level,
      returnUrl: `${base}/s/case-portal/${ref.id}/online-idv?idv=return`,
      // the engine's callback route of the case's online identity activity
      callbackUrl: callbackUrlOf(deps.publicUrl.replace(/\/$/, ''), idvProvider.name, activity),
    });
  } catch (err) {
    if (err instanceof IdvProviderError) {
      throw new AppError(502, { detail: ONLINE_IDV_CHECK_TEXTS.providerUnavailable });
    }
    throw err;
  }
  const now = ctx.clock.now();
  const values = {
    provider: deps.provider.name,
    session: session.id,
    sessionUrl: session.url,
    status: 'in-progress',
    startedAt: now,
    updatedAt: now,
  };
  await ctx.tx
    .insert(caseOnlineIdv)
    .values({ customerId: ref.customerId, caseId: ref.id, ...values })
    .onConflictDoUpdate({ target: [caseOnlineIdv.customerId, caseOnlineIdv.caseId], set: values });
  await recordAudit(ctx.tx, subject, {
    verb: before ? 'updated' : 'created',
    contentType: ONLINE_IDV_CONTENT_TYPE,
    objectId: ref.id,
    objectRepr: `Online identity check of case ${ref.id}`,
    customerId: ref.customerId,
    changes: {
      case: ref.id,
      provider: deps.provider.name,
      session: [before?.session ?? null, session.id],
      level,
    },
  });
  return { session: session.id, url: session.url };
}

/** What storing a result did. */
export type StoreOutcome = 'stored' | 'already-stored';

/**
 * Stores a provider result once (a callback, or the answer fetched on return), as the system:
 * 404 for an unknown session, 400 when the result names another case; a second delivery changes
 * nothing. A pass fills and locks the case's basic details and current address (source idsp).
 */
export async function storeIdvResult(
  ctx: ServiceContext,
  result: IdvResult,
): Promise<StoreOutcome> {
  const rows = await ctx.tx
    .select()
    .from(caseOnlineIdv)
    .where(eq(caseOnlineIdv.session, result.session))
    .for('update');
  const row = rows[0];
  if (!row) throw new NotFoundError();
  if (result.reference !== `case-${row.caseId}`) {
    throw ValidationError.of('reference', 'The result names another case.');
  }
  if (row.status !== 'in-progress') return 'already-stored';
  const profile: OnlineIdvProfile = {
    outcome: result.outcome,
    level_of_assurance: result.level_of_assurance,
    schemes: result.schemes,
    person: result.person,
    address: result.address,
    failure_reason: result.failure_reason,
    completed_at: result.completed_at,
  };
  const extra = { route: result.route, name_mismatch: result.name_mismatch };
  const now = ctx.clock.now();
  await ctx.tx
    .update(caseOnlineIdv)
    .set({
      status: result.outcome,
      ibvVerified: result.ibv_verified,
      ibvSession: result.ibv_session,
      idProfile: { ...profile, ...extra },
      completedAt: now,
      updatedAt: now,
    })
    .where(and(eq(caseOnlineIdv.customerId, row.customerId), eq(caseOnlineIdv.caseId, row.caseId)));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: ONLINE_IDV_CONTENT_TYPE,
    objectId: row.caseId,
    objectRepr: `Online identity check of case ${row.caseId}`,
    customerId: row.customerId,
    changes: {
      case: row.caseId,
      session: row.session,
      status: [row.status, result.outcome],
      ibv_verified: result.ibv_verified,
      level_of_assurance: result.level_of_assurance,
      name_mismatch: result.name_mismatch?.reason ?? null,
    },
  });
  if (result.outcome === 'passed') await fillCaseData(ctx, row, result);
  return 'stored';
}

/** A pass: the verified names, date of birth and current address, source idsp (locked). */
async function fillCaseData(ctx: ServiceContext, row: Row, result: IdvResult): Promise<void> {
  const key = { customerId: row.customerId, caseId: row.caseId };
  const audit = (
    contentType: string,
    objectId: number,
    verb: 'created' | 'updated',
    changes: Record<string, unknown>,
  ) =>
    recordAudit(ctx.tx, ctx.actor, {
      verb,
      contentType,
      objectId,
      objectRepr: `${contentType === 'cases.caseaddress' ? 'Address' : 'Basic details'} of case ${row.caseId}`,
      customerId: row.customerId,
      changes: {
        case: row.caseId,
        source: 'idsp',
        fields: Object.keys(changes),
        personal: changes,
      },
    });
  const { person, address } = result;
  if (person) {
    const values = {
      forename: person.forename,
      middlename: person.middlename,
      surname: person.surname,
      dob: person.dob,
    };
    const [existing] = await ctx.tx
      .select()
      .from(caseBasicDetails)
      .where(
        and(
          eq(caseBasicDetails.customerId, key.customerId),
          eq(caseBasicDetails.caseId, key.caseId),
        ),
      );
    const locked = [...new Set([...(existing?.idspFields ?? []), ...IDSP_BASIC_FIELDS])];
    if (existing) {
      await ctx.tx
        .update(caseBasicDetails)
        .set({ ...values, onlineIdv: true, idspFields: locked, updatedAt: ctx.clock.now() })
        .where(
          and(
            eq(caseBasicDetails.customerId, key.customerId),
            eq(caseBasicDetails.caseId, key.caseId),
          ),
        );
    } else {
      // a first save keeps what the subject's profile prefilled (the phone number)
      const [subject] = await ctx.tx.execute<{ phone_number: string | null }>(sql`
        select s.phone_number from cases c
        join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
        where c.customer_id = ${key.customerId} and c.id = ${key.caseId}`);
      await ctx.tx.insert(caseBasicDetails).values({
        ...key,
        ...values,
        phoneNumber: subject?.phone_number ?? '',
        onlineIdv: true,
        idspFields: locked,
      });
    }
    await audit('cases.casebasicdetails', row.caseId, existing ? 'updated' : 'created', {
      forename: [existing?.forename ?? null, values.forename],
      middlename: [existing?.middlename ?? null, values.middlename],
      surname: [existing?.surname ?? null, values.surname],
      dob: [existing?.dob ?? null, values.dob],
    });
  }
  if (address) {
    const values = {
      country: address.country,
      lineOne: address.line_one,
      lineTwo: address.line_two,
      // the '(for DBS)' values of a replaced address no longer apply
      countryDbs: '',
      lineOneDbs: '',
      lineTwoDbs: '',
      townDbs: '',
      town: address.town,
      postcode: address.postcode,
      fromDate: address.from_date,
      toDate: null,
      current: true,
      source: 'idsp',
      metadata: { provider: row.provider, session: row.session, verified: true },
    };
    // the current address (whatever its source) becomes the verified one: one current address
    const [current] = await ctx.tx
      .select()
      .from(caseAddresses)
      .where(
        and(
          eq(caseAddresses.customerId, key.customerId),
          eq(caseAddresses.caseId, key.caseId),
          eq(caseAddresses.current, true),
        ),
      );
    let id: number;
    if (current) {
      id = current.id;
      await ctx.tx
        .update(caseAddresses)
        .set({ ...values, updatedAt: ctx.clock.now() })
        .where(and(eq(caseAddresses.customerId, key.customerId), eq(caseAddresses.id, current.id)));
    } else {
      const [inserted] = await ctx.tx
        .insert(caseAddresses)
        .values({ ...key, ...values })
        .returning({ id: caseAddresses.id });
      id = inserted?.id ?? 0;
    }
    await audit('cases.caseaddress', id, current ? 'updated' : 'created', {
      line_one: [current?.lineOne ?? null, address.line_one],
      line_two: [current?.lineTwo ?? null, address.line_two],
      town: [current?.town ?? null, address.town],
      postcode: [current?.postcode ?? null, address.postcode],
      country: [current?.country ?? null, address.country],
      from_date: [current?.fromDate ?? null, address.from_date],
      source: [current?.source ?? null, 'idsp'],
    });
  }
}

/**
 * POST .../refresh/ (the person is back from the provider): asks the provider for the result of
 * the unfinished session and stores it (as the system); then answers the check as GET does.
 */
export async function fetchAndStore(
  ctx: ServiceContext,
  provider: IdvProvider,
  subject: Actor,
  caseId: number,
): Promise<void> {
  if (subject.type !== 'SubjectUser' || subject.customerId === null || subject.id === null) {
    throw new NotFoundError();
  }
  const rows = await ctx.tx.execute<Record<string, unknown>>(sql`
    select ${sql.raw(CASE_REF_COLUMNS)}, o.session, o.status
    from cases c join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
    left join case_online_idv o on o.customer_id = c.customer_id and o.case_id = c.id
    where c.id = ${caseId} and c.customer_id = ${subject.customerId} and s.user_id = ${subject.id}`);
  const row = rows[0];
  allowCase(caseRefOf(row), 'subject', 'read');
  if (row?.status !== 'in-progress' || typeof row.session !== 'string') return;
  let result: IdvResult | null;
  try {
    result = await provider.fetchResult(row.session);
  } catch (err) {
    if (err instanceof IdvProviderError) {
      throw new AppError(502, { detail: ONLINE_IDV_CHECK_TEXTS.providerUnavailable });
    }
    throw err;
  }
  if (result) await storeIdvResult(ctx, result);
}
