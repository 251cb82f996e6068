import {
  activityNoteOut,
  COUNTERSIGNED_KINDS,
  caseActivityListFilters,
  caseActivityListItemOut,
  caseActivityPatch,
  isCaseActivityState,
  opsListFilters,
  opsQueueFilters,
  pageOut,
} from '@kestrel/domain';
import { and, eq, inArray, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/connection.js';
import { opsActorOf, runForRequest } from '../../platform/access.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { listPage, pageResponse, parseOrdering, totalColumn } from '../../platform/list-builder.js';
import { listQuerySchema, pageUrl } from '../../platform/pagination.js';
import {
  opsCustomerFilter,
  parseBody,
  queryIds,
  queryString,
} from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInOps } from '../../platform/service-context.js';
import { recordsViews } from '../access-log/access-log.service.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { casesIdentifiedBy } from '../case-data/identifier-search.js';
import { cases } from '../cases/cases.table.js';
import { checkHandEdit } from '../checks/hooks.js';
import { awaitingCountersignature } from '../dbs-details/dbs-details.service.js';
import { reopenPortal } from '../portal/portal.service.js';
import { subjectSearchCondition } from '../subjects/subject-search.js';
import { subjects } from '../subjects/subjects.table.js';
import { changeActivity, sendActivityBack } from './activities.service.js';
import { CUSTOMER_TURN_STATES, caseActivities, opsTurnStates } from './activities.table.js';
import { queueConditions } from './activity-claims.js';
import {
  activityNotesHistory,
  activityNotesInput,
  assertNotesAccess,
  saveActivityNotes,
} from './activity-notes.service.js';
import {
  type NotesViewer,
  presentQueueRows,
  type SiblingActivity,
  siblingActivities,
  siblingOf,
} from './activity-presenter.js';
import { CappedTotals } from './ops-capped-total.js';
import { outstandingList } from './outstanding-list.js';

/** Activities waiting for operations staff (ops outstanding activities, across customers). */
export const OPS_OUTSTANDING_STATES = ['ca-awaiting-ops', 'ca-error-initiating'];

/** Which list: every activity, the customer's outstanding ones, or ops' across customers. */
type ListKind = 'all' | 'outstanding' | 'ops';

const ORDERING_FIELDS = {
  created_at: caseActivities.createdAt,
  updated_at: caseActivities.updatedAt,
  state: caseActivities.state,
};

/**
 * Where operations' list across customers stops counting (issue 29): past it the page says
 * `count: OPS_COUNT_CAP, count_capped: true` ("1,000+"). Counting 10,000 of ~60,000 waiting
 * activities through their open cases cost ~60 ms of PostgreSQL CPU a request; 1,000 cost ~1 ms.
 */
export const OPS_COUNT_CAP = 1_000;

/**
 * Operations' turn: theirs, and the checks waiting for a countersignature (which operations may
 * give, as customer staff may). Over case_activities joined to activity_types. Led by the states
 * of case_activities_ops_waiting_idx as literals (OPS_TURN_STATES, the index's predicate): the
 * planner then walks that index in updated_at order under a page's LIMIT instead of sorting every
 * waiting row (issue 29).
 */
export function opsTurn(): SQL | undefined {
  const countersigning = and(
    eq(caseActivities.state, 'ca-awaiting-agent'),
    inArray(activityTypes.code, [...COUNTERSIGNED_KINDS]),
    awaitingCountersignature(caseActivities.customerId, caseActivities.caseId),
  );
  return and(
    opsTurnStates(caseActivities.state),
    or(inArray(caseActivities.state, OPS_OUTSTANDING_STATES), countersigning),
  );
}

/**
 * Operations' list filtered by kind (`activity_type`, issue 29). One kind: the activity's type id
 * equals that code's id, a scalar subquery the planner runs first, so the page and its capped total
 * walk case_activities_ops_kind_idx (that kind's waiting activities in updated_at order) instead of
 * every waiting activity's (by code, through the join, a rare kind read all ~60,000: p99 3.3 s).
 * Several kinds: by code, as before.
 */
export function opsKindCondition(codes: readonly string[]): SQL {
  const [one] = codes;
  if (codes.length === 1 && one !== undefined) {
    return sql`${caseActivities.activityTypeId} = (select t.id from activity_types t where t.code = ${one})`;
  }
  return inArray(activityTypes.code, [...codes]);
}

/**
 * The activities of the row's case in brief, as a JSON array of `[id, state, code, name]` in the
 * case's order: a correlated subquery by customer and case (case_activities_case_idx, one probe a
 * row of the page; the Limit stops it with the page).
 */
function inlineSiblings(): SQL<unknown> {
  return sql<unknown>`(select coalesce(json_agg(json_build_array(s.id, s.state, st.code, st.name)
      order by s.position, s.id), '[]'::json)
    from case_activities s join activity_types st on st.id = s.activity_type_id
    where s.customer_id = ${caseActivities.customerId} and s.case_id = ${caseActivities.caseId})`;
}

/** The sibling activities of inlineSiblings' JSON (parsed by the driver, or text). */
function siblingsOf(value: unknown): SiblingActivity[] {
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    if (!Array.isArray(item)) return [];
    const [id, state, code, name] = item;
    return typeof id === 'number' &&
      typeof state === 'string' &&
      typeof code === 'string' &&
      typeof name === 'string'
      ? [siblingOf(id, state, code, name)]
      : [];
  });
}

/** An open case (not complete, cancelled or archived): over cases joined to the activity. */
export const openCase = (): SQL[] => [
  notInArray(cases.state, ['complete', 'cancelled']),
  isNull(cases.archivedAt),
];

function conditions(
  request: FastifyRequest,
  actor: Actor,
  kind: ListKind,
  identified: readonly number[] = [],
): SQL[] {
  const q = request.query;
  const conds: SQL[] = [];
  const customerId = kind === 'ops' ? opsCustomerFilter(q) : actor.customerId;
  if (customerId !== null) conds.push(eq(caseActivities.customerId, customerId));
  const caseIds = queryIds(q, 'case');
  if (caseIds) conds.push(inArray(caseActivities.caseId, caseIds));
  const state = queryString(q, 'state');
  if (state) {
    const states = state.split(',');
    const bad = states.find((s) => !isCaseActivityState(s));
    if (bad !== undefined) {
      throw ValidationError.invalidChoice('state', bad);
    }
    conds.push(inArray(caseActivities.state, states));
  }
  const type = queryString(q, 'activity_type');
  if (type)
    conds.push(
      kind === 'ops'
        ? opsKindCondition(type.split(','))
        : inArray(activityTypes.code, type.split(',')),
    );
  const term = queryString(q, 'search')?.trim();
  if (term) {
    conds.push(
      identified.length > 0
        ? inArray(caseActivities.caseId, [...identified])
        : subjectSearchCondition(term),
    );
  }
  if (kind === 'outstanding') conds.push(inArray(caseActivities.state, CUSTOMER_TURN_STATES));
  if (kind === 'ops') {
    const ops = opsTurn();
    if (ops) conds.push(ops);
    // the work queue's filters (issue 29): assignee, age, past target
    conds.push(...queueConditions(q, actor, request.server.deps.clock.now()));
  }
  if (kind !== 'all') conds.push(...openCase());
  return conds;
}

// The joins of an activity row: its type, its case and the case's subject.
const typeJoin = eq(activityTypes.id, caseActivities.activityTypeId);
const caseJoin = and(
  eq(cases.customerId, caseActivities.customerId),
  eq(cases.id, caseActivities.caseId),
);
const subjectJoin = and(
  eq(subjects.customerId, cases.customerId),
  eq(subjects.id, cases.subjectId),
);

/**
 * A capped count (operations' list across customers): whether its filters name subjects, and
 * whether the total is known to be at the cap already (CappedTotals: not counted again).
 */
interface CappedCount {
  subjects: boolean;
  atCap?: boolean;
}

/**
 * A page of activities and, when `counted`, the total of `where` (a scalar count in the same
 * statement, see totalColumn; else 0): exact, or (`counted` a CappedCount: operations' list across
 * customers, issue 29) up to OPS_COUNT_CAP + 1 in the page's order, over case_activities, cases
 * and activity_types (opsTurn, `activity_type` and `past_target` name it), joined to subjects only
 * when a search asks (the join never drops a row: cases.subject_id is a NOT NULL foreign key). A
 * table named in `where` but not joined here would be read from the page's row (the count is a
 * subquery of the page's statement): join it. `more`: a row follows the page (one more is read).
 */
async function selectActivities(
  tx: Tx,
  viewer: NotesViewer,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
  counted: boolean | CappedCount = true,
) {
  const cappedTotal = (capped: CappedCount) => {
    let q = tx
      .select({ one: sql`1` })
      .from(caseActivities)
      .innerJoin(activityTypes, typeJoin)
      .innerJoin(cases, caseJoin)
      .$dynamic();
    if (capped.subjects) q = q.innerJoin(subjects, subjectJoin);
    // in the page's order: the planner walks the page's index and stops at the cap, where a
    // bitmap of every waiting activity (~60,000) was built first
    const counted = q
      .where(where)
      .orderBy(...order)
      .limit(OPS_COUNT_CAP + 1);
    return totalColumn(sql`select count(*) from (${counted}) capped`);
  };
  const capped = typeof counted === 'object';
  const total =
    typeof counted === 'object'
      ? counted.atCap
        ? sql<number>`${sql.raw(String(OPS_COUNT_CAP + 1))}`.mapWith(Number)
        : cappedTotal(counted)
      : counted
        ? totalColumn(
            tx
              .select({ n: sql`count(*)` })
              .from(caseActivities)
              .innerJoin(activityTypes, typeJoin)
              .innerJoin(cases, caseJoin)
              .innerJoin(subjects, subjectJoin)
              .where(where),
          )
        : sql<number>`0`.mapWith(Number);
  const rows = await tx
    .select({
      row: caseActivities,
      code: activityTypes.code,
      typeName: activityTypes.name,
      kind: activityTypes.kind,
      caseState: cases.state,
      subjectId: subjects.id,
      firstName: subjects.firstName,
      lastName: subjects.lastName,
      email: subjects.email,
      customerName: sql<string>`(select cu.name from customers cu
        where cu.id = ${caseActivities.customerId})`,
      total,
      // operations' list across customers: the page's sibling activities in the same statement
      // (inlineSiblings), not a second read transaction and round trip a request (issue 28)
      siblings: capped ? inlineSiblings() : sql<unknown>`null`,
    })
    .from(caseActivities)
    .innerJoin(activityTypes, typeJoin)
    .innerJoin(cases, caseJoin)
    .innerJoin(subjects, subjectJoin)
    .where(where)
    .orderBy(...order)
    .limit(capped ? limit + 1 : limit)
    .offset(offset);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const siblings = capped
    ? new Map(page.map((r) => [r.row.caseId, siblingsOf(r.siblings)]))
    : await siblingActivities(
        tx,
        page.map((r) => ({ customerId: r.row.customerId, caseId: r.row.caseId })),
      );
  return {
    count: rows[0]?.total ?? 0,
    more,
    results: presentQueueRows(page, siblings, viewer),
  };
}

const activityPatch = caseActivityPatch;

/**
 * /api/case-activities/ (every activity), /api/outstanding-activities/ (the customer's turn) and
 * /api/ops/outstanding-activities/ (operations' turn, every customer; `?customer=ID` for one).
 */
export async function activitiesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const view = { access: { permissions: ['cases.view_caseactivity' as const] } };

  for (const [path, kind, fallback] of [
    ['/api/case-activities/', 'all', '-created_at'],
    ['/api/outstanding-activities/', 'outstanding', 'updated_at'],
    ['/api/ops/outstanding-activities/', 'ops', 'updated_at'],
  ] as const) {
    const scope = kind === 'ops' ? 'ops' : 'tenant';
    const outstanding = kind !== 'all';
    // operations' list across customers counts up to OPS_COUNT_CAP (issue 29: ~60,000 waiting)
    const capped = kind === 'ops';
    const totals = new CappedTotals();
    const orderingRule = { fields: ORDERING_FIELDS, id: caseActivities.id, fallback };
    r.get(
      path,
      {
        schema: {
          tags: ['cases'],
          querystring: listQuerySchema.extend({
            ...caseActivityListFilters,
            ...opsListFilters,
            ...(kind === 'ops' ? opsQueueFilters : {}),
          }),
          response: { 200: pageOut(caseActivityListItemOut) },
        },
        config: view,
        onSend: recordsViews('activities'),
      },
      async (request) => {
        // the customer's turn: its own query, the page found over case_activities alone (issue 28)
        if (kind === 'outstanding') return outstandingList(request, request.query, path);
        const { page, pageSize, offset } = listPage(request.query);
        const totalKey = capped
          ? CappedTotals.keyOf(request.query, request.session?.user?.id ?? null)
          : '';
        const atCap = capped && totals.atCap(totalKey);
        const result = await runForRequest(
          request,
          scope,
          async ({ tx, actor }) => {
            const identified = await casesIdentifiedBy(
              tx,
              request.query,
              actor,
              kind === 'ops' ? 'ops' : 'tenant',
            );
            // a search by name filters on subjects (subjectSearchCondition)
            const searched = Boolean(queryString(request.query, 'search')?.trim());
            return selectActivities(
              tx,
              actor,
              and(...conditions(request, actor, kind, identified)),
              parseOrdering(request.query.ordering, orderingRule).order,
              pageSize,
              offset,
              capped ? { subjects: searched, atCap } : true,
            );
          },
          readOnly,
        );
        if (capped && !atCap) totals.found(totalKey, result.count > OPS_COUNT_CAP);
        if (capped && result.count > OPS_COUNT_CAP) {
          // counted up to the cap: `next` while a row follows the page
          return {
            ...pageResponse(request, path, page, pageSize, OPS_COUNT_CAP, result.results),
            count_capped: true as const,
            next: result.more ? pageUrl(request, path, page + 1) : null,
          };
        }
        return pageResponse(request, path, page, pageSize, result.count, result.results);
      },
    );

    r.get(
      `${path}:id/`,
      {
        schema: { tags: ['cases'], params: idParams, response: { 200: caseActivityListItemOut } },
        config: view,
        onSend: recordsViews('activity'),
      },
      async (request) => {
        const id = parseId(request.params.id);
        const found = await runForRequest(
          request,
          scope,
          ({ tx, actor }) =>
            selectActivities(
              tx,
              actor,
              and(
                eq(caseActivities.id, id),
                ...(outstanding ? conditions(request, actor, kind) : []),
              ),
              [],
              1,
              0,
              false,
            ),
          readOnly,
        );
        const one = found.results[0];
        if (!one) throw new NotFoundError();
        return one;
      },
    );
  }

  for (const [path, scope] of [
    ['/api/case-activities/:id/', 'tenant'],
    ['/api/ops/case-activities/:id/', 'ops'],
  ] as const) {
    r.patch(
      path,
      {
        schema: {
          tags: ['cases'],
          params: idParams,
          body: activityPatch,
          response: { 200: caseActivityListItemOut },
        },
        config: { access: { permissions: ['cases.change_caseactivity'] } },
      },
      async (request) => {
        const id = parseId(request.params.id);
        const { notes, ...data } = parseBody(activityPatch, request.body);
        return runForRequest(request, scope, async ({ tx, actor }) => {
          const now = app.deps.clock.now();
          if (data.processing_data !== undefined || notes !== undefined) assertNotesAccess(actor);
          // sent back to its subject: the domain's send-back rule, not the engine's hand moves
          const { state, ...rest } = data;
          const sendingBack = state === 'ca-awaiting-subject';
          await checkHandEdit(tx, actor, id, sendingBack ? rest : data);
          if (notes !== undefined) await saveActivityNotes(tx, actor, id, notes, now);
          if (sendingBack) {
            const { activity } = await sendActivityBack(tx, actor, id, rest, now);
            // a submitted case's portal reopens at Review & Submit (audited)
            await reopenPortal(tx, actor, activity.caseId, now);
          } else if (Object.values(data).some((v) => v !== undefined) || notes === undefined) {
            await changeActivity(tx, actor, id, data, now);
          }
          const out = await selectActivities(tx, actor, eq(caseActivities.id, id), [], 1, 0);
          const one = out.results[0];
          if (!one) throw new NotFoundError();
          return one;
        });
      },
    );
  }

  const opsOnly = { access: { permissions: ['cases.change_caseactivity' as const] } };
  const notesPath = '/api/ops/case-activities/:id/notes/';

  /** Saves an activity's notes (operations only; 400 characters), appended to its history. */
  r.post(
    notesPath,
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        body: activityNotesInput,
        response: { 201: activityNoteOut },
      },
      config: opsOnly,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const { notes } = parseBody(activityNotesInput, request.body);
      const entry = await runInOps(deps, opsActorOf(request), ({ tx, actor }) =>
        saveActivityNotes(tx, actor, id, notes, app.deps.clock.now()),
      );
      reply.code(201);
      return entry;
    },
  );

  /** The notes history: who saved what, when (newest first). */
  r.get(
    notesPath,
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        querystring: listQuerySchema,
        response: { 200: pageOut(activityNoteOut) },
      },
      config: view,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const { page, pageSize, offset } = listPage(request.query);
      const out = await runInOps(
        deps,
        opsActorOf(request),
        ({ tx, actor }) => activityNotesHistory(tx, actor, id, pageSize, offset),
        readOnly,
      );
      return pageResponse(
        request,
        `/api/ops/case-activities/${id}/notes/`,
        page,
        pageSize,
        out.count,
        out.results,
      );
    },
  );
}
