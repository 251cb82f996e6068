import { isCaseActivityState } from '@kestrel/domain';
import { and, asc, desc, eq, inArray, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import type { Actor } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { listQuerySchema, pageOf } from '../../platform/pagination.js';
import { idParams, orderColumn, pageResponse, parseId } from '../../platform/resource-query.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { changeActivity, presentActivity, siblingActivities } from '../cases/cases.service.js';
import { caseActivities, cases } from '../cases/cases.table.js';
import {
  inOps,
  inTenant,
  opsCustomerFilter,
  parseBody,
  queryIds,
  queryString,
  subjectSearchCondition,
} from '../cases/tenant.js';
import { subjects } from '../subjects/subjects.table.js';

/** Activities waiting for the customer's own action. */
export const OUTSTANDING_STATES = ['ca-awaiting-agent', 'ca-pending-activity-decision'];
/** Activities waiting for operations staff (ops outstanding activities, across customers). */
export const OPS_OUTSTANDING_STATES = ['ca-awaiting-ops', 'ca-error-initiating'];

/** Which list: every activity, the customer's outstanding ones, or ops' across customers. */
type ListKind = 'all' | 'outstanding' | 'ops';

const ORDERING: Record<string, AnyPgColumn> = {
  created_at: caseActivities.createdAt,
  updated_at: caseActivities.updatedAt,
  state: caseActivities.state,
};

function ordering(requested: string | undefined, fallback: string): SQL[] {
  const spec = requested || fallback;
  const out: SQL[] = [];
  for (const part of spec.split(',')) {
    const d = part.startsWith('-');
    const name = d ? part.slice(1) : part;
    const col = orderColumn<AnyPgColumn>(ORDERING, caseActivities.id, name);
    if (col) out.push(d ? desc(col) : asc(col));
  }
  out.push(spec.startsWith('-') ? desc(caseActivities.id) : asc(caseActivities.id));
  return out;
}

function conditions(request: FastifyRequest, actor: Actor, kind: ListKind): SQL[] {
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
      throw ValidationError.of(
        'state',
        `Select a valid choice. ${bad} is not one of the available choices.`,
      );
    }
    conds.push(inArray(caseActivities.state, states));
  }
  const type = queryString(q, 'activity_type');
  if (type) conds.push(inArray(activityTypes.code, type.split(',')));
  const term = queryString(q, 'search')?.trim();
  if (term) conds.push(subjectSearchCondition(term));
  if (kind !== 'all') {
    conds.push(
      inArray(caseActivities.state, kind === 'ops' ? OPS_OUTSTANDING_STATES : OUTSTANDING_STATES),
    );
    conds.push(notInArray(cases.state, ['complete', 'cancelled']));
    conds.push(isNull(cases.archivedAt));
  }
  return conds;
}

async function selectActivities(
  tx: Tx,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
) {
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
      total: sql<number>`count(*) over()`.mapWith(Number),
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const siblings = await siblingActivities(
    tx,
    rows.map((r) => r.row.caseId),
  );
  return {
    count: rows[0]?.total ?? 0,
    results: rows.map((r) => ({
      ...presentActivity(r, {
        id: r.row.caseId,
        state: r.caseState,
        subject: {
          id: r.subjectId,
          first_name: r.firstName,
          last_name: r.lastName,
          email: r.email,
        },
        case_activities: siblings.get(r.row.caseId) ?? [],
      }),
      customer: r.row.customerId,
      customer_name: r.customerName,
    })),
  };
}

const activityPatch = z.object({
  state: z.string().max(40).optional(),
  result_data: z.record(z.string(), z.unknown()).optional(),
  notes: z.string().trim().max(5000).optional(),
});

/**
 * /api/case-activities/ (every activity), /api/outstanding-activities/ (the customer's turn) and
 * /api/ops/outstanding-activities/ (operations' turn, every customer; `?customer=ID` for one).
 */
export async function activitiesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const view = { access: { permissions: ['cases.view_caseactivity' as const] } };

  for (const [path, kind, fallback] of [
    ['/api/case-activities/', 'all', '-created_at'],
    ['/api/outstanding-activities/', 'outstanding', 'updated_at'],
    ['/api/ops/outstanding-activities/', 'ops', 'updated_at'],
  ] as const) {
    const run = kind === 'ops' ? inOps : inTenant;
    const outstanding = kind !== 'all';
    r.get(
      path,
      { schema: { tags: ['cases'], querystring: listQuerySchema }, config: view },
      async (request) => {
        const { page, pageSize } = pageOf(request.query);
        const result = await run(
          request,
          ({ tx, actor }) =>
            selectActivities(
              tx,
              and(...conditions(request, actor, kind)),
              ordering(request.query.ordering, fallback),
              pageSize,
              (page - 1) * pageSize,
            ),
          true,
        );
        return pageResponse(request, path, page, pageSize, result.count, result.results);
      },
    );

    r.get(
      `${path}:id/`,
      { schema: { tags: ['cases'], params: idParams }, config: view },
      async (request) => {
        const id = parseId(request.params.id);
        const found = await run(
          request,
          ({ tx, actor }) =>
            selectActivities(
              tx,
              and(
                eq(caseActivities.id, id),
                ...(outstanding ? conditions(request, actor, kind) : []),
              ),
              [],
              1,
              0,
            ),
          true,
        );
        const one = found.results[0];
        if (!one) throw new NotFoundError();
        return one;
      },
    );
  }

  r.patch(
    '/api/case-activities/:id/',
    {
      schema: { tags: ['cases'], params: idParams, body: activityPatch },
      config: { access: { permissions: ['cases.change_caseactivity'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const data = parseBody(activityPatch, request.body);
      return inTenant(request, async ({ tx, actor }) => {
        await changeActivity(tx, actor, id, data, app.deps.clock.now());
        const out = await selectActivities(tx, eq(caseActivities.id, id), [], 1, 0);
        const one = out.results[0];
        if (!one) throw new NotFoundError();
        return one;
      });
    },
  );
}
