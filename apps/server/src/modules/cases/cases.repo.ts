import { CASE_STATE_LABELS, isCaseState } from '@kestrel/domain';
import {
  and,
  Column,
  eq,
  gte,
  inArray,
  is,
  isNotNull,
  isNull,
  lt,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import { compileDb, executePrepared, executePreparedRows, type Tx } from '../../db/connection.js';
import { iso } from '../../platform/clock.js';
import type { Actor } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import { isoFromPg } from '../../platform/json-sql.js';
import {
  COUNT_CAP,
  cappedCount,
  type Ordering,
  type OrderingRule,
  PreparedShapes,
  parseOrdering,
  totalColumn,
} from '../../platform/list-builder.js';
import {
  opsCustomerFilter,
  queryBool,
  queryDate,
  queryDateEnd,
  queryIds,
  queryString,
} from '../../platform/query-params.js';
import { placeholderBinder } from '../../platform/resource-query.js';
import { casesIdentifiedBy } from '../case-data/identifier-search.js';
import { subjectSearchCondition } from '../subjects/subject-search.js';
import { subjects } from '../subjects/subjects.table.js';
import { caseCounts, cases } from './cases.table.js';

/** True when an active flag points at the case (index flags_case_idx). */
export const flaggedSql = sql<boolean>`exists (select 1 from flags f
  where f.customer_id = ${cases.customerId} and f.case_id = ${cases.id} and f.active)`;

/**
 * The same flag as a column of a list page: a correlated scalar subquery with `limit 1`, which
 * PostgreSQL never turns into a hashed subplan. As `exists`, a generic plan (which expects every
 * matching case, not the page's 25) hashed every active flag of the tenant per request, a
 * sequential scan of `flags` taking most of the list's execution time; this probes
 * `flags_case_idx` once per row of the page.
 */
export const flaggedColumnSql = sql<boolean>`coalesce((select true from flags f
  where f.customer_id = ${cases.customerId} and f.case_id = ${cases.id} and f.active limit 1), false)`;

/**
 * The WHERE of the case list and export from the query string: state (a,b), process, subject,
 * created_after/created_before (inclusive dates, UTC), flagged, is_archived (default false),
 * search on the subject's name and email (prefix indexes on subjects).
 */
export interface CaseListWhere {
  /** Conditions whose values are placeholders (see `values`). */
  conds: SQL[];
  /** True when a condition reads subjects (search). */
  subject: boolean;
  /** The conditions' shape (which filters, how many values): one prepared query per shape. */
  key: string;
  /** The placeholders' values. */
  values: Record<string, unknown>;
  /**
   * When only the tenant, state and archived filters apply: the same conditions on case_counts,
   * whose few rows give the total (else null: the total is counted from cases).
   */
  counter: SQL[] | null;
  /** The customer's placeholder when the list is one customer's (else null: ops across customers). */
  customer: number | Placeholder | null;
  /**
   * The session customer's list (scope `tenant`): a user limited to segments is totalled from the
   * cases their policies show, not the kept counts (which count every case of the customer).
   */
  segmentScoped: boolean;
}

/**
 * `scope` `tenant` (default): the session customer's cases. `ops` (the cross-tenant list of
 * /api/ops/cases/): every customer's, or one customer's with `?customer=ID`. `identified`: the
 * cases whose national insurance, passport or licence number is exactly the search term
 * (`caseListWhere` looks them up first); when there are any, the search lists those cases, else
 * it searches the subjects' names and emails.
 */
export function caseListConditions(
  q: unknown,
  actor: Actor,
  scope: 'tenant' | 'ops' = 'tenant',
  identified: readonly number[] = [],
): CaseListWhere {
  const conds: SQL[] = [];
  const b = placeholderBinder();
  const binds = <V>(name: string, list: readonly V[]) =>
    list.map((v, i) => b.bind(`${name}${i}`, v));
  const customerId = scope === 'ops' ? opsCustomerFilter(q) : actor.customerId;
  // Without a customer (ops across tenants) the total sums every customer's counters.
  let counter: SQL[] | null = scope === 'ops' ? [] : null;
  let customer: number | Placeholder | null = null;
  if (customerId !== null) {
    customer = b.bind('customer', customerId);
    conds.push(eq(cases.customerId, customer));
    counter = [eq(caseCounts.customerId, customer)];
  }
  const state = queryString(q, 'state');
  if (state) {
    const states = state.split(',');
    const bad = states.find((s) => !isCaseState(s));
    if (bad !== undefined) {
      throw ValidationError.invalidChoice('state', bad);
    }
    const bound = binds('state', states);
    conds.push(inArray(cases.state, bound));
    counter?.push(inArray(caseCounts.state, bound));
  }
  const process = queryIds(q, 'process');
  if (process) {
    counter = null;
    conds.push(inArray(cases.processId, binds('process', process)));
  }
  const subject = queryIds(q, 'subject');
  if (subject) {
    counter = null;
    conds.push(inArray(cases.subjectId, binds('subject', subject)));
  }
  const after = queryDate(q, 'created_after');
  if (after) {
    counter = null;
    conds.push(gte(cases.createdAt, b.bind('after', after)));
  }
  const before = queryDateEnd(q, 'created_before');
  if (before) {
    counter = null;
    conds.push(lt(cases.createdAt, b.bind('before', before)));
  }
  const flagged = queryBool(q, 'flagged');
  if (flagged !== undefined) {
    counter = null;
    conds.push(flagged ? flaggedSql : sql`not ${flaggedSql}`);
    b.mark(flagged ? 'flagged' : 'not-flagged');
  }
  const archived = queryString(q, 'is_archived');
  if (archived !== 'all') {
    const only = archived === undefined || archived === '' ? false : queryBool(q, 'is_archived');
    conds.push(only ? isNotNull(cases.archivedAt) : isNull(cases.archivedAt));
    counter?.push(eq(caseCounts.archived, only === true));
    b.mark(only ? 'archived' : 'unarchived');
  }
  const term = queryString(q, 'search')?.trim();
  // An exact identifier found (keyed hashes, decision 027): its cases, by id (a bound array, its
  // own shape); the subjects are then not searched, nor joined to the page.
  const byIdentifier = Boolean(term) && identified.length > 0;
  if (term) {
    counter = null;
    conds.push(
      byIdentifier
        ? sql`${cases.id} = any(${b.bind('identified', [...identified])})`
        : subjectSearchCondition(term, b.bind),
    );
  }
  // The tenant list's total reads the segment scope (caseListQuery), the ops list's does not: two
  // statements, so two shapes (the same filters would otherwise share one prepared query).
  if (scope === 'tenant') b.mark('segment-scoped');
  return {
    conds,
    subject: Boolean(term) && !byIdentifier,
    key: b.shape.join(','),
    values: b.values,
    counter,
    customer,
    segmentScoped: scope === 'tenant',
  };
}

/**
 * `caseListConditions` with the cases a search term identifies exactly (national insurance,
 * passport or driving licence number, however spaced or cased: `casesWithIdentifier`, through
 * the keyed hashes) looked up first, in the request's transaction. A term that is no identifier
 * (no digit: a name, an email) costs no lookup. The tenant's list looks up its own customer's
 * cases only; the ops list those of its `?customer=`, or without one every customer's.
 */
export async function caseListWhere(
  tx: Tx,
  q: unknown,
  actor: Actor,
  scope: 'tenant' | 'ops' = 'tenant',
): Promise<CaseListWhere> {
  return caseListConditions(q, actor, scope, await casesIdentifiedBy(tx, q, actor, scope));
}

const CASE_ORDERING = {
  fields: {
    created_at: cases.createdAt,
    updated_at: cases.updatedAt,
    state: cases.state,
    last_name: subjects.lastName,
  },
  id: cases.id,
  fallback: '-created_at',
} satisfies OrderingRule;

/** `?ordering=` of the case list and export; `key` (the recognised terms) is part of its shape. */
export type CaseListOrder = Ordering;

export function caseOrdering(requested: string | undefined): CaseListOrder {
  return parseOrdering(requested, CASE_ORDERING);
}

/**
 * The case columns a list page carries from its page query (`casePage`) to the outer query, named
 * as in `cases` so that the outer query's `"cases"."…"` (the ordering, the process and flag
 * subqueries) reads them from the page.
 */
const casePageColumns = {
  id: cases.id,
  state: cases.state,
  processId: cases.processId,
  subjectId: cases.subjectId,
  createdAt: cases.createdAt,
  updatedAt: cases.updatedAt,
  completedAt: cases.completedAt,
  decision: cases.decision,
  archivedAt: cases.archivedAt,
  customerId: cases.customerId,
};

/**
 * The list's columns over the page (aliased `cases`) and its subject (aliased `subjects`), in the
 * order `selectCaseListJson` reads them. The process name and the flag are correlated subqueries
 * on the page's rows.
 */
export const caseListColumns = {
  id: cases.id,
  state: cases.state,
  processId: cases.processId,
  processName: sql<string>`(select p.name from processes p
    where p.customer_id = ${cases.customerId} and p.id = ${cases.processId})`,
  subjectId: cases.subjectId,
  firstName: subjects.firstName,
  lastName: subjects.lastName,
  email: subjects.email,
  createdAt: cases.createdAt,
  updatedAt: cases.updatedAt,
  completedAt: cases.completedAt,
  decision: cases.decision,
  archivedAt: cases.archivedAt,
  flagged: flaggedColumnSql,
  customerId: cases.customerId,
};

export type CaseListRow = {
  id: number;
  state: string;
  processId: number;
  processName: string;
  subjectId: number;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  decision: string | null;
  archivedAt: Date | null;
  flagged: boolean;
  customerId: number;
};

/** True when an ORDER BY term reads a column of subjects (`?ordering=last_name`). */
const readsSubject = (term: SQL) =>
  term.queryChunks.some((chunk) => is(chunk, Column) && chunk.table === subjects);

/** The join of a case to its subject (same customer). */
const caseSubject = () =>
  and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId));

/**
 * A list's total (`total`, for `totalColumn`) and whether it was counted (`live`: then up to
 * COUNT_CAP + 1, `capped` in the page) rather than read from the kept counters.
 */
function caseListTotal(tx: Tx, where: CaseListWhere) {
  // Exact from the counters; else counted up to COUNT_CAP + 1 (a search or a filter of a large
  // customer matches tens of thousands: issue 28), `capped` in the page.
  const base = tx.select({ one: sql`1` }).from(cases);
  const live = cappedCount(
    where.subject
      ? base.innerJoin(subjects, caseSubject()).where(and(...where.conds))
      : base.where(and(...where.conds)),
  );
  // A user limited to segments (kestrel_segment_scope() not null) is counted from the cases their
  // policies let them see, not from the kept counts (which count every case of the customer). The choice is made in the statement
  // (InitPlans run only when read, so only one branch counts), not by a round trip of its own
  // before it (issue 28); `live` tells the caller which total it got.
  const scoped = sql`(select kestrel_segment_scope()) is not null`;
  const byScope = where.counter !== null && where.segmentScoped;
  const counted = where.counter
    ? tx
        .select({ n: sql`coalesce(sum(${caseCounts.n}), 0)` })
        .from(caseCounts)
        .where(and(...where.counter))
    : live;
  const total = byScope
    ? sql`select case when ${scoped} then (${live}) else (${counted}) end`
    : counted;
  const byScopeLive = sql<boolean>`${scoped}`;
  return {
    total,
    live: byScope ? byScopeLive : sql<boolean>`${sql.raw(String(where.counter === null))}`,
  };
}

/**
 * The total alone, for a page past the last one (no rows to carry it): the same count as the
 * page's, a search's up to COUNT_CAP + 1.
 */
function caseTotalQuery(tx: Tx, where: CaseListWhere) {
  const { total, live } = caseListTotal(tx, where);
  return tx.select({ total: totalColumn(total), live }).from(sql`(select 1) one`);
}

/**
 * The matches a search's page reads and counts (`caseListQuery`'s `span`): COUNT_CAP + 1 (the
 * total stops there, as every list's: `cappedCount`), or to the end of a deeper page.
 */
export function searchSpan(limit: number, offset: number): number {
  return Math.max(COUNT_CAP + 1, offset + limit);
}

/**
 * One statement: the page of cases with subject, process and flag, and the total as an
 * uncorrelated scalar subquery over cases alone (computed once, index-only on the partial
 * indexes, or the few `case_counts` rows) rather than count(*) over() that would join every
 * matching row.
 *
 * The page is found first, over cases alone (`from (select … limit … offset …) "cases"`), and
 * only its rows look up their subject, each by `(customer_id, id)` (a lateral subquery; its
 * `limit 1` keeps PostgreSQL from merging it into an ordinary join). Every list is planned once
 * for every customer (a generic plan, decision 006), with the average customer's row counts: as a
 * plain join, the plan made for customers of ~100 subjects read all of a customer's subjects for
 * every page (a `Materialize` filtered per row): 11-20 ms a page for a customer of 5,000 subjects
 * instead of 0.2 ms. Here the planner has no join to choose: 25 rows, 25 index lookups, whatever
 * the customer's size (issue 28). Subjects join the page query itself only where its rows depend
 * on them: a search, or an ordering by last name.
 *
 * The page and the subject are aliased `cases` and `subjects`, so `order` (the same ORDER BY
 * for the page and the outer query: a join does not keep an order) and the process and flag
 * subqueries name their columns as on the tables.
 */
export function caseListQuery(
  tx: Tx,
  where: CaseListWhere,
  order: SQL[],
  limit: number | Placeholder,
  offset: number | Placeholder,
  /** False for the export, which shows no total: `total` is then 0, nothing counted. */
  withTotal = true,
  /**
   * A search: its matches read for the page and counted, in the page's order (at least
   * COUNT_CAP + 1, and the page's end: `searchSpan`); a placeholder `span` when prepared.
   */
  span: number | Placeholder = typeof limit === 'number' && typeof offset === 'number'
    ? searchSpan(limit, offset)
    : sql.placeholder('span'),
) {
  const { total, live: liveColumn } = caseListTotal(tx, where);
  // A search's page counts its matches as it reads them (`matches`): the page sorts every match
  // anyway (the newest 25 of them), and a count of its own would read them all a second time
  // (issue 28: 994 matches of 'hartley' for the large customer of 1,000,000 cases). The count is
  // of the first `span` matches in the page's order only (COUNT_CAP + 1, or up to the page's end
  // when deeper): a window count over every match numbered and sorted every one of tens of
  // thousands (a broad term: an email domain, a common surname). Other pages carry a constant.
  const pageOf = tx.select({
    ...casePageColumns,
    matches: (where.subject && withTotal ? sql<number>`count(*) over ()` : sql<number>`0`).as(
      'matches',
    ),
  });
  const casesPage = () =>
    pageOf
      .from(cases)
      .where(and(...where.conds))
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
      .as('cases');
  let page: ReturnType<typeof casesPage>;
  if (where.subject) {
    // A search finds its subjects first (their search indexes), then their cases: the first
    // `span` in the page's order (a sort bounded at `span`), then the page of those and their
    // count (at most `span`). By last name they are numbered (`rn`) in that order, which the
    // page over them cannot name (the subject's column); the numbering sorts every match.
    const numbered = order.some(readsSubject);
    const matched = tx
      .select({
        ...casePageColumns,
        rn: numbered
          ? sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as('rn')
          : sql<number>`0`.as('rn'),
      })
      .from(cases)
      .innerJoin(subjects, caseSubject())
      .where(and(...where.conds))
      .orderBy(...order)
      .limit(span)
      .as('cases');
    page = pageOf
      .from(matched)
      .orderBy(...(numbered ? [sql`rn`] : order))
      .limit(limit)
      .offset(offset)
      .as('cases');
  } else if (order.some(readsSubject)) {
    // By last name: the customer's subjects in name order (subjects_name_idx), each one's cases
    // looked up (cases_subject_idx) until the page is full. The lateral subquery's ORDER BY (of
    // one subject's few cases) keeps the lookup a lookup: merged into a join, the average
    // customer's plan compared every subject with every case of a large customer (882,304
    // comparisons for 10,000 cases: 57 ms instead of 0.4 ms).
    const subjectCases = tx
      .select(casePageColumns)
      .from(cases)
      .where(and(caseSubject(), ...where.conds))
      .orderBy(cases.id)
      .as('cases');
    page = pageOf
      .from(subjects)
      .crossJoinLateral(subjectCases)
      .where(where.customer === null ? undefined : eq(subjects.customerId, where.customer))
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
      .as('cases');
  } else {
    page = casesPage();
  }
  // The page's subject, looked up by (customer_id, id): a lateral subquery whose `limit 1` keeps
  // PostgreSQL from merging it into a join it would plan for the average customer.
  const subject = tx
    .select({ firstName: subjects.firstName, lastName: subjects.lastName, email: subjects.email })
    .from(subjects)
    .where(caseSubject())
    .limit(1)
    .as('subjects');
  return tx
    .select({
      ...caseListColumns,
      // a search: its matches counted by the page (exact; capped at COUNT_CAP in the answer)
      total: !withTotal
        ? sql<number>`0`.mapWith(Number)
        : where.subject
          ? sql<number>`${page.matches}`.mapWith(Number)
          : totalColumn(total),
      live: liveColumn,
    })
    .from(page)
    .crossJoinLateral(subject)
    .orderBy(...order);
}

type PreparedCaseList = ReturnType<ReturnType<typeof caseListQuery>['prepare']>;
/** Prepared case lists by shape; shapes are few (filters used, ordering), but capped anyway. */
const preparedCaseLists = new PreparedShapes<PreparedCaseList>('case_list_');

/**
 * The case list query of this shape, built once (compileDb) with limit/offset placeholders;
 * `counted` false: the export's, without the total.
 */
function preparedCaseList(
  where: CaseListWhere,
  order: CaseListOrder,
  counted = true,
): PreparedCaseList {
  return preparedCaseLists.get(`${where.key}|${order.key}${counted ? '' : '|export'}`, (name) =>
    caseListQuery(
      compileDb,
      where,
      order.order,
      sql.placeholder('limit'),
      sql.placeholder('offset'),
      counted,
    ).prepare(name),
  );
}

type PreparedCaseTotal = ReturnType<ReturnType<typeof caseTotalQuery>['prepare']>;
const preparedCaseTotals = new PreparedShapes<PreparedCaseTotal>('case_total_');

/**
 * The total of a page past the last one (its statement has no rows to carry it): counted alone,
 * as the page would have (issue 28: it answered 0). The first page's total is its own.
 */
async function totalPastEnd(
  tx: Tx,
  where: CaseListWhere,
  offset: number,
): Promise<{ count: number; capped: boolean }> {
  if (offset === 0) return { count: 0, capped: true };
  const prepared = preparedCaseTotals.get(where.key, (name) =>
    caseTotalQuery(compileDb, where).prepare(name),
  );
  const [row] = await executePrepared(tx, prepared, where.values);
  return { count: row?.total ?? 0, capped: row?.live !== false };
}

const str = (v: unknown) => JSON.stringify(v === null || v === undefined ? null : String(v));
const isoOrNull = (v: unknown) => (typeof v === 'string' ? `"${isoFromPg(v)}"` : 'null');

/**
 * The list page with each row's JSON written straight from the driver's values (the fields of
 * `caseListColumns` in order): no Drizzle row mapping, no Date objects, no second serialisation.
 * Equal to `presentCaseListItem` (a test compares them).
 */
export async function selectCaseListJson(
  tx: Tx,
  where: CaseListWhere,
  order: CaseListOrder,
  limit: number,
  offset: number,
): Promise<{ json: string[]; count: number; capped: boolean }> {
  const prepared = preparedCaseList(where, order);
  const rows = await executePreparedRows(tx, prepared, {
    ...where.values,
    limit,
    offset,
    span: searchSpan(limit, offset),
  });
  const json = rows.map((r) => {
    const [id, state, processId, processName, subjectId, first, last, email] = r;
    const [createdAt, updatedAt, completedAt, decision, archivedAt, flagged, customerId] =
      r.slice(8);
    const label =
      typeof state === 'string' && isCaseState(state) ? CASE_STATE_LABELS[state] : state;
    return (
      `{"id":${Number(id)},"state":${str(state)},"state_display":${str(label)},` +
      `"process":{"id":${Number(processId)},"name":${str(processName)}},` +
      `"subject":{"id":${Number(subjectId)},"first_name":${str(first)},"last_name":${str(last)},"email":${str(email)}},` +
      `"created_at":${isoOrNull(createdAt)},"updated_at":${isoOrNull(updatedAt)},` +
      `"completed_at":${isoOrNull(completedAt)},"decision":${str(decision)},` +
      `"is_archived":${archivedAt !== null},"flagged":${flagged === true},` +
      `"customer":${Number(customerId)}}`
    );
  });
  // counted up to COUNT_CAP + 1 unless the counters gave it
  const first = rows[0];
  if (!first) return { json, ...(await totalPastEnd(tx, where, offset)) };
  return { json, count: Number(first[15] ?? 0), capped: first[16] !== false };
}

/** The page and total: the query built once per shape (compileDb), run with this request's values. */
export async function selectCaseList(
  tx: Tx,
  where: CaseListWhere,
  order: CaseListOrder,
  limit: number,
  offset: number,
): Promise<{ rows: CaseListRow[]; count: number; capped: boolean }> {
  const rows = await executePrepared(tx, preparedCaseList(where, order), {
    ...where.values,
    limit,
    offset,
    span: searchSpan(limit, offset),
  });
  const first = rows[0];
  if (!first) return { rows, ...(await totalPastEnd(tx, where, offset)) };
  return { rows, count: first.total, capped: first.live !== false };
}

/**
 * The export's rows (`limit` at most, from the first): the list's query and rows without its
 * total, which the export does not show (a filtered export counted up to 10,001 matches besides
 * reading them).
 */
export async function selectCaseExport(
  tx: Tx,
  where: CaseListWhere,
  order: CaseListOrder,
  limit: number,
): Promise<CaseListRow[]> {
  return executePrepared(tx, preparedCaseList(where, order, false), {
    ...where.values,
    limit,
    offset: 0,
    span: limit,
  });
}

export function presentCaseListItem(r: CaseListRow) {
  return {
    id: r.id,
    state: r.state,
    state_display: isCaseState(r.state) ? CASE_STATE_LABELS[r.state] : r.state,
    process: { id: r.processId, name: r.processName },
    subject: { id: r.subjectId, first_name: r.firstName, last_name: r.lastName, email: r.email },
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    completed_at: iso(r.completedAt),
    decision: r.decision,
    is_archived: r.archivedAt !== null,
    flagged: Boolean(r.flagged),
    customer: r.customerId,
  };
}

/** A CSV cell: quoted when needed; a leading =,+,-,@ is prefixed with ' (formula injection). */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export const CSV_HEADER = [
  'id',
  'state',
  'process',
  'subject_first_name',
  'subject_last_name',
  'subject_email',
  'created_at',
  'updated_at',
  'completed_at',
  'decision',
  'flagged',
];

export function csvRow(r: CaseListRow): string {
  return [
    r.id,
    r.state,
    r.processName,
    r.firstName,
    r.lastName,
    r.email,
    r.createdAt.toISOString(),
    r.updatedAt.toISOString(),
    iso(r.completedAt),
    r.decision,
    r.flagged ? 'yes' : 'no',
  ]
    .map(csvCell)
    .join(',');
}
