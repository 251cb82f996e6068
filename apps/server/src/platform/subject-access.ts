import {
  isCaseOpen,
  isCaseSubmitted,
  type PortalSection,
  portalSections,
  requiredConsents,
} from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { actorOf, runForRequest } from './access.js';
import type { Actor } from './context.js';
import { NotFoundError, PermissionDeniedError } from './errors.js';
import {
  type ContextDeps,
  type RunOptions,
  readOnly,
  runAsSystem,
  runInTenant,
  type ServiceContext,
} from './service-context.js';

// Subject case access, one policy for every route a subject reaches a case through (the portal,
// case data, documents, the online identity check, trust-to-ride bookings):
//
//   a subject touches only its own case, open (not complete, cancelled or archived), and
//   writes only until it is submitted and only what a section of that case allows.
//
// The rule is `allowSubjectCase`; the runners below apply it and then run the work as the
// subject itself (the kestrel_subject role, RLS limiting rows to its own records, in the tenant
// of the case's customer). Only the look-up of which customer holds a case for this login
// (decision 005: one login, a record per customer) and work that must see other subjects' rows
// (a session's capacity) run as the system, each named so.

export const SUBMITTED_DETAIL =
  'This case has been submitted: its details can no longer be changed.';

/**
 * What the caller does with the case: `read` and `write` need it open (a subject sees its open
 * cases only; `write` also refuses a submitted one), `any` takes a finished one too (its case
 * page, its consents), never an archived one.
 */
export type CaseIntent = 'read' | 'write' | 'any';

/** The subject's case as the policy reads it. */
export interface SubjectCase {
  id: number;
  customerId: number;
  subjectId: number;
  state: string;
  portalLastCompletedSection: string | null;
  /** The portal sections the case has (from its activities and the consents they ask for). */
  sections: PortalSection[];
}

/**
 * The sections that write each subject-writable table: a subject may write a table of a case
 * only when the case has one of them (a case without a criminal-record check has no DBS details
 * to fill in, one without a right-to-work check no share code).
 */
const DBS_LEVELS: readonly PortalSection[] = ['dbs-enhanced', 'dbs-standard', 'dbs-basic'];
export const SECTION_WRITES: Readonly<Record<string, readonly PortalSection[]>> = {
  case_basic_details: ['basic-details', ...DBS_LEVELS],
  case_other_names: ['basic-details', ...DBS_LEVELS],
  case_birth_details: DBS_LEVELS,
  case_dbs_details: DBS_LEVELS,
  case_addresses: ['address-history', ...DBS_LEVELS],
  case_passports: ['document-collection', 'rtw', ...DBS_LEVELS],
  case_driving_licences: ['driver-data', 'document-collection', ...DBS_LEVELS],
  case_dbs_update_details: ['dbs-update'],
  case_rtw_details: ['rtw'],
  case_documents: ['document-collection', 'rtw', ...DBS_LEVELS],
  case_online_idv: ['online-idv'],
  trust_to_ride_bookings: [],
};

/** What a write must be allowed by: a table (SECTION_WRITES) or a section by name. */
export type SectionNeed = { table: string } | { section: PortalSection };

function sectionsFor(need: SectionNeed): readonly PortalSection[] | null {
  if ('section' in need) return [need.section];
  return SECTION_WRITES[need.table] ?? null;
}

/**
 * THE rule. The case (null: not the subject's own, or unknown) if the subject may do `intent`
 * to it, and, for a write that names what it writes, if a section of the case allows that;
 * otherwise 404 (not its own, closed, archived; a section the case does not have), or 403 once
 * the case is submitted (the portal is read-only then). A table the map does not name is
 * written by no section (404).
 */
export function allowSubjectCase(
  found: (SubjectCase & { archived: boolean }) | null,
  intent: CaseIntent,
  need?: SectionNeed,
): SubjectCase {
  if (!found || found.archived) throw new NotFoundError();
  if (intent !== 'any' && !isCaseOpen(found.state)) throw new NotFoundError();
  if (intent === 'write' && isCaseSubmitted(found)) {
    throw new PermissionDeniedError(SUBMITTED_DETAIL, 'case submitted');
  }
  if (intent === 'write' && need) {
    const allowed = sectionsFor(need);
    if (allowed !== null && allowed.length === 0) {
      // written for the subject by the system only (a booking): no section writes it directly
    } else if (!allowed?.some((s) => found.sections.includes(s))) {
      throw new NotFoundError();
    }
  }
  const { archived: _archived, ...own } = found;
  return own;
}

/** The login of a subject actor; 404 for anyone else (a subject route never says more). */
export function subjectLogin(actor: Actor): number {
  if (actor.type !== 'SubjectUser' || actor.id === null) throw new NotFoundError();
  return actor.id;
}

/** The case `caseId` if it is the login's own (its record at the case's customer links to it). */
const ownCaseSql = (caseId: number, login: number, lock: boolean) => sql`
  select c.id, c.customer_id, c.subject_id, c.state, c.portal_last_completed_section,
    (c.archived_at is not null) as archived,
    coalesce((select array_agg(t.code order by t.code) from case_activities a
      join activity_types t on t.id = a.activity_type_id
      where a.case_id = c.id), '{}') as codes
  from cases c join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
  where c.id = ${caseId} and s.user_id = ${login}
  ${lock ? sql`for update of c` : sql``}`;

function caseOf(row: Record<string, unknown> | undefined) {
  if (!row) return null;
  const codes = Array.isArray(row.codes) ? row.codes.map(String) : [];
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    subjectId: Number(row.subject_id),
    state: String(row.state),
    portalLastCompletedSection:
      row.portal_last_completed_section == null ? null : String(row.portal_last_completed_section),
    sections: portalSections({ activityCodes: codes, requiredConsents: requiredConsents(codes) }),
    archived: row.archived === true,
  };
}

/**
 * The customer holding case `caseId` for this subject's login, or null: a read-only look-up
 * as the system (the session acts for one customer, the login's records are at several).
 */
async function customerOfOwnCase(
  deps: ContextDeps,
  login: number,
  caseId: number,
): Promise<number | null> {
  if (!Number.isSafeInteger(caseId)) return null;
  return runAsSystem(deps, async ({ tx }) => {
    const rows = await tx.execute<{ customer_id: number }>(sql`
      select c.customer_id from cases c
      join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
      where c.id = ${caseId} and s.user_id = ${login}`);
    return rows[0] ? Number(rows[0].customer_id) : null;
  });
}

/**
 * In an open transaction (the subject's own, or the system's on its behalf): the subject's
 * case, locked for update, as `allowSubjectCase` allows it (404 / 403 otherwise).
 */
export async function lockSubjectCase(
  ctx: ServiceContext,
  caseId: number,
  intent: CaseIntent,
  need?: SectionNeed,
): Promise<SubjectCase> {
  const login = subjectLogin(ctx.actor);
  const rows = await ctx.tx.execute(ownCaseSql(caseId, login, intent === 'write'));
  return allowSubjectCase(caseOf(rows[0]), intent, need);
}

/**
 * The case, read (not locked) in an open transaction, as `allowSubjectCase` allows it: for
 * reads, and for a read-only check before a write (an upload's fields, before its body).
 */
export async function readSubjectCase(
  ctx: ServiceContext,
  caseId: number,
  intent: CaseIntent,
  need?: SectionNeed,
): Promise<SubjectCase> {
  const login = subjectLogin(ctx.actor);
  const rows = await ctx.tx.execute(ownCaseSql(caseId, login, false));
  return allowSubjectCase(caseOf(rows[0]), intent, need);
}

export interface SubjectRunOptions extends RunOptions {
  /** What the work does with the case (`read` unless given). */
  intent?: CaseIntent;
  /** For a write: the table or section it writes, which a section of the case must allow. */
  need?: SectionNeed;
}

/**
 * Runs `fn` as the subject (kestrel_subject, RLS: its own records only) in the tenant of case
 * `caseId`'s customer, after `allowSubjectCase` allowed it in the same transaction (a write
 * locks the case first): 404 unless the case is the subject's own and open, 403 for a write
 * once it is submitted, 404 for a write no section of the case allows.
 */
export async function runForSubjectCase<T>(
  deps: ContextDeps,
  actor: Actor,
  caseId: number,
  fn: (ctx: ServiceContext, own: SubjectCase) => Promise<T>,
  opts: SubjectRunOptions = {},
): Promise<T> {
  const login = subjectLogin(actor);
  const customerId = await customerOfOwnCase(deps, login, caseId);
  if (customerId === null) throw new NotFoundError();
  const intent = opts.intent ?? 'read';
  const runOpts: RunOptions = opts.readOnly === true ? readOnly : {};
  return runInTenant(
    deps,
    { ...actor, customerId },
    async (ctx) => {
      const own =
        intent === 'write' && opts.readOnly !== true
          ? await lockSubjectCase(ctx, caseId, intent, opts.need)
          : await readSubjectCase(ctx, caseId, intent, opts.need);
      return fn(ctx, own);
    },
    runOpts,
  );
}

/** Tables of one case's records (with `case_id`) a subject route may name a record of. */
export const CASE_RECORD_TABLES = [
  'case_other_names',
  'case_addresses',
  'case_documents',
  'subject_consents',
] as const;
export type CaseRecordTable = (typeof CASE_RECORD_TABLES)[number];

export const isCaseRecordTable = (table: string): table is CaseRecordTable =>
  (CASE_RECORD_TABLES as readonly string[]).includes(table);

/**
 * The case of record `id` of `table` when it is one of the login's own cases (null otherwise):
 * a read-only look-up as the system, like `customerOfOwnCase`.
 */
export async function caseOfSubjectRecord(
  deps: ContextDeps,
  actor: Actor,
  table: CaseRecordTable,
  id: number,
): Promise<number | null> {
  const login = subjectLogin(actor);
  if (!Number.isSafeInteger(id) || !isCaseRecordTable(table)) return null;
  return runAsSystem(deps, async ({ tx }) => {
    const rows = await tx.execute<{ case_id: number }>(sql`
      select r.case_id from ${sql.identifier(table)} r
      join cases c on c.id = r.case_id
      join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
      where r.id = ${id} and s.user_id = ${login}`);
    return rows[0] ? Number(rows[0].case_id) : null;
  });
}

/**
 * `runForSubjectCase` for a record of a case given by its own id (an address, another name, a
 * document, a consent): 404 unless its case is the subject's own and the policy allows it.
 */
export async function runForSubjectRecord<T>(
  deps: ContextDeps,
  actor: Actor,
  table: CaseRecordTable,
  id: number,
  fn: (ctx: ServiceContext, own: SubjectCase) => Promise<T>,
  opts: SubjectRunOptions = {},
): Promise<T> {
  const caseId = await caseOfSubjectRecord(deps, actor, table, id);
  if (caseId === null) throw new NotFoundError();
  return runForSubjectCase(deps, actor, caseId, fn, {
    ...opts,
    need: opts.need ?? (opts.intent === 'write' ? { table } : undefined),
  });
}

/** The customers holding the subject's login (each has a record linked to it). */
export async function subjectCustomerIds(deps: ContextDeps, actor: Actor): Promise<number[]> {
  const login = subjectLogin(actor);
  return runAsSystem(deps, async ({ tx }) => {
    const rows = await tx.execute<{ customer_id: number }>(
      sql`select distinct customer_id from subjects where user_id = ${login} order by customer_id`,
    );
    return rows.map((r) => Number(r.customer_id));
  });
}

/**
 * The system's work on behalf of a subject, for what the subject may ask for but not write
 * itself (a trust-to-ride booking: a session's capacity counts every subject's bookings, which
 * the subject may not read): the system role, the subject's actor (acting for the case's
 * customer) for audit, after `allowSubjectCase` allowed it in the same transaction. Everything
 * else a subject writes runs as the subject (`runForSubjectCase`).
 */
export async function runSystemForSubjectCase<T>(
  deps: ContextDeps,
  actor: Actor,
  caseId: number,
  fn: (ctx: ServiceContext, own: SubjectCase) => Promise<T>,
  opts: { intent?: CaseIntent; need?: SectionNeed } = {},
): Promise<T> {
  const login = subjectLogin(actor);
  const customerId = await customerOfOwnCase(deps, login, caseId);
  if (customerId === null) throw new NotFoundError();
  return runAsSystem(
    deps,
    async (ctx) => fn(ctx, await lockSubjectCase(ctx, caseId, opts.intent ?? 'write', opts.need)),
    { ...actor, customerId },
  );
}

/**
 * What a case-scoped request is about: a case by its id (with, for a write, the table it
 * writes), or a record of a case (an address, another name, a document) by its table and id.
 */
export type CaseTarget = { case: number; table?: string } | { table: string; id: number };

/**
 * The one way the case-data, documents, DBS details and identity routes run, whoever calls:
 * staff and ops as `runForRequest` does; a subject through the policy (`runForSubjectCase`,
 * `runForSubjectRecord`): a write (any method but GET) needs its own open, unsubmitted case
 * and a section of it that writes the target's table; a read its own case (the service then
 * applies the policy's `read`, see case-data/case-access.ts). A target that is not a whole
 * number leaves the session's actor, so the service answers as for any bad input.
 */
export async function runForCaseRequest<T>(
  request: FastifyRequest,
  scope: 'ops' | 'staff' | 'subject',
  target: CaseTarget,
  fn: (ctx: ServiceContext) => Promise<T>,
  opts?: RunOptions,
): Promise<T> {
  if (scope !== 'subject') return runForRequest(request, scope, fn, opts);
  const deps = request.server.deps;
  const actor = actorOf(request);
  const write = request.method !== 'GET' && request.method !== 'HEAD';
  const subjectOpts: SubjectRunOptions = {
    ...(opts?.readOnly === true ? readOnly : {}),
    intent: write ? 'write' : 'any',
  };
  if ('case' in target) {
    if (!Number.isSafeInteger(target.case)) return runInTenant(deps, actor, fn, opts);
    const need = write && target.table !== undefined ? { table: target.table } : undefined;
    return runForSubjectCase(deps, actor, target.case, (ctx) => fn(ctx), {
      ...subjectOpts,
      ...(need ? { need } : {}),
    });
  }
  if (!Number.isSafeInteger(target.id) || !isCaseRecordTable(target.table)) {
    return runInTenant(deps, actor, fn, opts);
  }
  return runForSubjectRecord(deps, actor, target.table, target.id, (ctx) => fn(ctx), subjectOpts);
}

/**
 * The subject's actor acting for the customer of case `caseId` when that case is the subject's
 * own (any state but archived is for the policy to judge later); otherwise the actor unchanged,
 * so RLS answers 404. For routes that run in a tenant themselves.
 */
export async function subjectCaseActor(
  deps: ContextDeps,
  actor: Actor,
  caseId: number,
): Promise<Actor> {
  if (actor.type !== 'SubjectUser' || actor.id === null) return actor;
  const customerId = await customerOfOwnCase(deps, actor.id, caseId);
  return customerId === null ? actor : { ...actor, customerId };
}

/**
 * A system transaction on behalf of the subject whose `fn` starts with `lockSubjectCase` (which
 * applies the policy): for work the subject may not do as itself (see
 * `runSystemForSubjectCase`, which takes the case and checks it for you).
 */
export function runSubjectWrite<T>(
  deps: ContextDeps,
  actor: Actor,
  fn: (ctx: ServiceContext) => Promise<T>,
): Promise<T> {
  subjectLogin(actor);
  return runAsSystem(deps, fn, actor);
}

/** `subjectCaseActor` for a record of a case given by its own id (an address, a document). */
export async function subjectRecordActor(
  deps: ContextDeps,
  actor: Actor,
  table: CaseRecordTable,
  id: number,
): Promise<Actor> {
  if (actor.type !== 'SubjectUser' || actor.id === null) return actor;
  const caseId = await caseOfSubjectRecord(deps, actor, table, id);
  return caseId === null ? actor : subjectCaseActor(deps, actor, caseId);
}
