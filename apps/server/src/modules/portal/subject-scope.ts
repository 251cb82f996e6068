import { isCaseOpen, isCaseSubmitted } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, PermissionDeniedError } from '../../platform/errors.js';
import {
  type ContextDeps,
  type RunOptions,
  runAsSystem,
  runInTenant,
  type ServiceContext,
} from '../../platform/service-context.js';
import { SUBMITTED_DETAIL } from '../case-data/case-access.js';

/**
 * The subject's cases across customers (decision 005: one login, a record per customer). A
 * subject session acts for one customer; the portal's routes act for the customer of the case
 * they are about instead, so a person held by two customers reaches both cases, and each case
 * is still visible only inside its own customer:
 * - reads run in that customer's tenant as the subject (RLS: its own records' cases only);
 * - writes to cases, activities and consents (tables the subject role may only read) run in the
 *   system context, after `lockOwnCase` checked, in the same transaction, that the case is the
 *   subject's own (its record at that customer links to the login).
 */

export interface OwnCase {
  id: number;
  customerId: number;
  subjectId: number;
  state: string;
  portalLastCompletedSection: string | null;
}

function requireSubject(actor: Actor): number {
  if (actor.type !== 'SubjectUser' || actor.id === null) throw new NotFoundError();
  return actor.id;
}

/**
 * What the caller does with the case: `read` and `write` need it open (a subject sees its open
 * cases only; `write` also refuses a submitted one), `any` takes a finished one too (its case
 * page, its consents), never an archived one.
 */
export type CaseIntent = 'read' | 'write' | 'any';

function ownCaseOf(row: Record<string, unknown> | undefined, intent: CaseIntent): OwnCase | null {
  if (!row || row.archived === true) return null;
  if (intent !== 'any' && !isCaseOpen(String(row.state))) return null;
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    subjectId: Number(row.subject_id),
    state: String(row.state),
    portalLastCompletedSection:
      row.portal_last_completed_section == null ? null : String(row.portal_last_completed_section),
  };
}

const ownCaseSql = (caseId: number, login: number, lock: boolean) => sql`
  select c.id, c.customer_id, c.subject_id, c.state, c.portal_last_completed_section,
    (c.archived_at is not null) as archived
  from cases c join subjects s on s.customer_id = c.customer_id and s.id = c.subject_id
  where c.id = ${caseId} and s.user_id = ${login}
  ${lock ? sql`for update of c` : sql``}`;

/**
 * The subject's actor acting for the customer of case `caseId` when that case is the subject's
 * own (any state but archived); otherwise the actor unchanged, so RLS answers as it always did
 * (404). For the case-data and case-documents subject routes, whose session customer is only the
 * newest of the customers holding the person: `runInTenant(deps, await subjectCaseActor(...))`.
 */
export async function subjectCaseActor(
  deps: ContextDeps,
  actor: Actor,
  caseId: number,
): Promise<Actor> {
  if (actor.type !== 'SubjectUser' || actor.id === null) return actor;
  const login = actor.id;
  const own = await runAsSystem(
    deps,
    async ({ tx }) => ownCaseOf((await tx.execute(ownCaseSql(caseId, login, false)))[0], 'any'),
    actor,
  );
  return own ? { ...actor, customerId: own.customerId } : actor;
}

/** Tables of one case's records (with `case_id`) whose id `subjectRecordActor` may look up. */
export const CASE_RECORD_TABLES = [
  'case_other_names',
  'case_addresses',
  'case_documents',
  'subject_consents',
] as const;

/**
 * `subjectCaseActor` for a record of a case (an address, another name, a document) given by its
 * own id: the actor acting for its case's customer when the case is the subject's own.
 */
export async function subjectRecordActor(
  deps: ContextDeps,
  actor: Actor,
  table: (typeof CASE_RECORD_TABLES)[number],
  id: number,
): Promise<Actor> {
  if (actor.type !== 'SubjectUser' || actor.id === null) return actor;
  if (!CASE_RECORD_TABLES.includes(table)) return actor;
  const caseId = await runAsSystem(
    deps,
    async ({ tx }) => {
      const rows = await tx.execute<{ case_id: number }>(
        sql`select case_id from ${sql.identifier(table)} where id = ${id}`,
      );
      return rows[0] ? Number(rows[0].case_id) : null;
    },
    actor,
  );
  return caseId === null ? actor : subjectCaseActor(deps, actor, caseId);
}

/** The customers holding the subject's login (each has a record linked to it). */
export async function subjectCustomerIds(deps: ContextDeps, actor: Actor): Promise<number[]> {
  const login = requireSubject(actor);
  return runAsSystem(
    deps,
    async ({ tx }) => {
      const rows = await tx.execute<{ customer_id: number }>(
        sql`select distinct customer_id from subjects where user_id = ${login} order by customer_id`,
      );
      return rows.map((r) => Number(r.customer_id));
    },
    actor,
  );
}

/**
 * Runs `fn` in the tenant of the case's customer as the subject (RLS applies): 404 unless the
 * case is the subject's own, open and not archived.
 */
export async function runForSubjectCase<T>(
  deps: ContextDeps,
  actor: Actor,
  caseId: number,
  fn: (ctx: ServiceContext, own: OwnCase) => Promise<T>,
  opts: RunOptions & { intent?: CaseIntent } = {},
): Promise<T> {
  const login = requireSubject(actor);
  const intent = opts.intent ?? 'read';
  const found = await runAsSystem(
    deps,
    async ({ tx }) => ownCaseOf((await tx.execute(ownCaseSql(caseId, login, false)))[0], intent),
    actor,
  );
  if (!found) throw new NotFoundError();
  const runOpts: RunOptions = opts.readOnly === undefined ? {} : { readOnly: opts.readOnly };
  return runInTenant(
    deps,
    { ...actor, customerId: found.customerId },
    (ctx) => fn(ctx, found),
    runOpts,
  );
}

/**
 * In a system transaction: the subject's own open case, locked for update (404 otherwise); with
 * `write`, 403 once it is submitted (the portal is read-only then).
 */
export async function lockOwnCase(
  ctx: ServiceContext,
  caseId: number,
  intent: CaseIntent,
): Promise<OwnCase> {
  const login = requireSubject(ctx.actor);
  const own = ownCaseOf((await ctx.tx.execute(ownCaseSql(caseId, login, true)))[0], intent);
  if (!own) throw new NotFoundError();
  if (intent === 'write' && isCaseSubmitted(own)) {
    throw new PermissionDeniedError(SUBMITTED_DETAIL, 'case submitted');
  }
  return own;
}

/**
 * Runs `fn` in one system transaction on behalf of the subject, its actor acting for the case's
 * customer (audit rows land in that customer's trail). `fn` must start with `lockOwnCase`.
 */
export function runSubjectWrite<T>(
  deps: ContextDeps,
  actor: Actor,
  fn: (ctx: ServiceContext) => Promise<T>,
): Promise<T> {
  requireSubject(actor);
  return runAsSystem(deps, fn, actor);
}
