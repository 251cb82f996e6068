import { isCaseActivityState } from '@kestrel/domain';
import { and, eq, getTableColumns, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/connection.js';
import { runForRequest } from '../../platform/access.js';
import type { Actor } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import { listPage, pageResponse, parseOrdering, totalColumn } from '../../platform/list-builder.js';
import { pageUrl } from '../../platform/pagination.js';
import { queryIds, queryString } from '../../platform/query-params.js';
import { readOnly } from '../../platform/service-context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { casesIdentifiedBy } from '../case-data/identifier-search.js';
import { cases } from '../cases/cases.table.js';
import { subjectSearchCondition } from '../subjects/subject-search.js';
import { subjects } from '../subjects/subjects.table.js';
import { caseActivities, customerTurnStates } from './activities.table.js';
import { presentQueueRows, siblingActivities } from './activity-presenter.js';

/**
 * Where the customer's outstanding list stops counting (issue 28), as operations' list does
 * (OPS_COUNT_CAP): past it the page says `count: 1000, count_capped: true` ("1,000+"). A large
 * customer's 5,000 outstanding activities counted through their open cases cost more than the
 * page; counted to 1,001 in the page's order they cost the same at any size.
 */
export const OUTSTANDING_COUNT_CAP = 1_000;

/**
 * The conditions of the customer's outstanding list over `case_activities` alone: the customer's
 * turn (CUSTOMER_TURN_STATES as literals, the predicate of case_activities_outstanding_idx), the
 * filters (`case`, `state`, `activity_type`, `search`) and an open case. What needs another table
 * is a subquery: the activity type by code (a few global rows), and the case (open, and matching
 * the search) as a correlated subquery with `limit 1`, looked up by `(customer_id, id)` for each
 * activity read. PostgreSQL never turns that into a join, so the generic plan (made for the
 * average customer, decision 006) cannot pick a join over all of a customer's cases: it walks
 * the index in the page's order and stops once the page (or the capped total) is full.
 */
function outstandingConditions(q: unknown, actor: Actor, identified: readonly number[]): SQL[] {
  const conds: SQL[] = [customerTurnStates(caseActivities.state)];
  if (actor.customerId !== null) conds.push(eq(caseActivities.customerId, actor.customerId));
  const caseIds = queryIds(q, 'case');
  if (caseIds) conds.push(inArray(caseActivities.caseId, caseIds));
  const state = queryString(q, 'state');
  if (state) {
    const states = state.split(',');
    const bad = states.find((s) => !isCaseActivityState(s));
    if (bad !== undefined) throw ValidationError.invalidChoice('state', bad);
    conds.push(inArray(caseActivities.state, states));
  }
  const type = queryString(q, 'activity_type');
  if (type) {
    conds.push(
      sql`${caseActivities.activityTypeId} in (select t.id from activity_types t
        where t.code in ${type.split(',')})`,
    );
  }
  const term = queryString(q, 'search')?.trim();
  const byName = Boolean(term) && identified.length === 0;
  if (term && !byName) conds.push(inArray(caseActivities.caseId, [...identified]));
  const caseOf = and(
    eq(cases.customerId, caseActivities.customerId),
    eq(cases.id, caseActivities.caseId),
    notInArray(cases.state, ['complete', 'cancelled']),
    sql`${cases.archivedAt} is null`,
  );
  // a search by name: the open case whose subject matches
  const openCase =
    term && byName
      ? sql`select true from ${cases} inner join ${subjects}
          on ${subjects.customerId} = ${cases.customerId} and ${subjects.id} = ${cases.subjectId}
          where ${caseOf} and ${subjectSearchCondition(term)} limit 1`
      : sql`select true from ${cases} where ${caseOf} limit 1`;
  conds.push(sql`coalesce((${openCase}), false)`);
  return conds;
}

/**
 * A page of the customer's outstanding activities (/api/outstanding-activities/) and its total
 * counted up to OUTSTANDING_COUNT_CAP + 1 in the page's order. The page is found over
 * case_activities alone (`outstandingConditions`), then its rows look up their type, case and
 * subject. `more`: a row follows the page (one more is read).
 */
export async function selectOutstanding(
  tx: Tx,
  viewer: Actor,
  q: unknown,
  identified: readonly number[],
  order: SQL[],
  limit: number,
  offset: number,
) {
  const conds = outstandingConditions(q, viewer, identified);
  const capped = tx
    .select({ one: sql`1` })
    .from(caseActivities)
    .where(and(...conds))
    .orderBy(...order)
    .limit(OUTSTANDING_COUNT_CAP + 1);
  const page = tx
    .select(getTableColumns(caseActivities))
    .from(caseActivities)
    .where(and(...conds))
    .orderBy(...order)
    .limit(limit + 1)
    .offset(offset)
    .as('case_activities');
  // the page's case and subject, each looked up by (customer_id, id): lateral subqueries whose
  // `limit 1` keeps PostgreSQL from merging them into joins planned for the average customer
  const caseRow = tx
    .select({ state: cases.state, subjectId: cases.subjectId })
    .from(cases)
    .where(
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .limit(1)
    .as('activity_case');
  const subjectRow = tx
    .select({
      id: subjects.id,
      firstName: subjects.firstName,
      lastName: subjects.lastName,
      email: subjects.email,
    })
    .from(subjects)
    .where(
      and(eq(subjects.customerId, caseActivities.customerId), eq(subjects.id, caseRow.subjectId)),
    )
    .limit(1)
    .as('activity_subject');
  const rows = await tx
    .select({
      row: caseActivities,
      code: activityTypes.code,
      typeName: activityTypes.name,
      kind: activityTypes.kind,
      caseState: caseRow.state,
      subjectId: subjectRow.id,
      firstName: subjectRow.firstName,
      lastName: subjectRow.lastName,
      email: subjectRow.email,
      customerName: sql<string>`(select cu.name from customers cu
        where cu.id = ${caseActivities.customerId})`,
      total: totalColumn(sql`select count(*) from (${capped}) capped`),
    })
    .from(page)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .crossJoinLateral(caseRow)
    .crossJoinLateral(subjectRow)
    .orderBy(...order);
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const siblings = await siblingActivities(
    tx,
    shown.map((r) => ({ customerId: r.row.customerId, caseId: r.row.caseId })),
  );
  return {
    count: rows[0]?.total ?? 0,
    more,
    results: presentQueueRows(shown, siblings, viewer),
  };
}

/** `?ordering=` of the outstanding list: as the other activity lists, oldest change first. */
const OUTSTANDING_ORDERING = {
  fields: {
    created_at: caseActivities.createdAt,
    updated_at: caseActivities.updatedAt,
    state: caseActivities.state,
  },
  id: caseActivities.id,
  fallback: 'updated_at',
};

/**
 * GET /api/outstanding-activities/: the session customer's activities waiting for their action,
 * in the list's shape; past OUTSTANDING_COUNT_CAP the total says `count_capped` and `next` is
 * given while a row follows the page.
 */
export async function outstandingList(
  request: FastifyRequest,
  query: {
    ordering?: string | undefined;
    page?: number | undefined;
    page_size?: number | undefined;
  },
  path: string,
) {
  const { page, pageSize, offset } = listPage(query);
  const result = await runForRequest(
    request,
    'tenant',
    async ({ tx, actor }) =>
      selectOutstanding(
        tx,
        actor,
        query,
        await casesIdentifiedBy(tx, query, actor, 'tenant'),
        parseOrdering(query.ordering, OUTSTANDING_ORDERING).order,
        pageSize,
        offset,
      ),
    readOnly,
  );
  if (result.count > OUTSTANDING_COUNT_CAP) {
    return {
      ...pageResponse(request, path, page, pageSize, OUTSTANDING_COUNT_CAP, result.results),
      count_capped: true as const,
      next: result.more ? pageUrl(request, path, page + 1) : null,
    };
  }
  return pageResponse(request, path, page, pageSize, result.count, result.results);
}
