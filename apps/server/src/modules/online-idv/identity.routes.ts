import {
  CASE_ACTIVITY_STATE_LABELS,
  type IdvCaseActivityOut,
  identityActionOut,
  idvCaseActivityOut,
  idvManualApprovalIn,
  isCaseActivityState,
  pageOut,
  readResultData,
  rtwManualCheckIn,
} from '@kestrel/domain';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import { opsActorOf, runForRequest } from '../../platform/access.js';
import { NotFoundError } from '../../platform/errors.js';
import { listPage, pageResponse, totalColumn } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInOps } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { approveOnlineIdv } from '../checks/online-idv/approve.js';
import { recordRtwManualCheck } from '../checks/rtw/manual-check.js';
import { subjects } from '../subjects/subjects.table.js';
import { onlineIdvOfCase } from './online-idv.service.js';

/*
 * The identity kinds' resources (contracts/identity-checks.ts): the online identity activities
 * (spec point 7's idv-case-activities), operations' manual approval of an identity, and the
 * manual right-to-work check.
 */

const listFilters = listQuerySchema.extend({
  case: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  state: z.string().max(40).optional(),
  verified: z.enum(['true', 'false']).optional(),
});

const caseJoin = and(
  eq(cases.customerId, caseActivities.customerId),
  eq(cases.id, caseActivities.caseId),
);
const subjectJoin = and(
  eq(subjects.customerId, cases.customerId),
  eq(subjects.id, cases.subjectId),
);

async function selectIdvActivities(
  tx: Tx,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<{ count: number; results: IdvCaseActivityOut[] }> {
  const count = tx
    .select({ n: sql`count(*)` })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(where);
  const rows = await tx
    .select({
      row: caseActivities,
      subject: {
        id: subjects.id,
        first_name: subjects.firstName,
        last_name: subjects.lastName,
        email: subjects.email,
      },
      total: totalColumn(count),
    })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(cases, caseJoin)
    .innerJoin(subjects, subjectJoin)
    .where(where)
    .orderBy(desc(caseActivities.createdAt), desc(caseActivities.id))
    .limit(limit)
    .offset(offset);
  const results: IdvCaseActivityOut[] = [];
  for (const r of rows) {
    const state = r.row.state;
    results.push({
      id: r.row.id,
      case: r.row.caseId,
      subject: { ...r.subject, email: r.subject.email ?? '' },
      state,
      state_display: isCaseActivityState(state) ? CASE_ACTIVITY_STATE_LABELS[state] : state,
      online_idv: await onlineIdvOfCase(tx, r.row.caseId),
      result_data: readResultData('online-idv', r.row.resultData),
      created_at: r.row.createdAt.toISOString(),
      updated_at: r.row.updatedAt.toISOString(),
    });
  }
  return { count: rows[0]?.total ?? 0, results };
}

/** The list's conditions: online identity activities, and the filters asked for. */
function conditions(q: z.infer<typeof listFilters>): SQL | undefined {
  return and(
    eq(activityTypes.code, 'online-idv'),
    ...(q.case ? [eq(caseActivities.caseId, q.case)] : []),
    ...(q.state ? [eq(caseActivities.state, q.state)] : []),
    ...(q.verified
      ? [
          sql`coalesce((${caseActivities.resultData} ->> 'verified')::boolean, false) = ${q.verified === 'true'}`,
        ]
      : []),
  );
}

export async function identityRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['identity checks'];
  const view = { access: { permissions: ['cases.view_caseactivity' as const] } };

  for (const [prefix, scope] of [
    ['/api/', 'tenant'],
    ['/api/ops/', 'ops'],
  ] as const) {
    const path = `${prefix}idv-case-activities/`;
    r.get(
      path,
      {
        schema: { tags, querystring: listFilters, response: { 200: pageOut(idvCaseActivityOut) } },
        config: view,
      },
      async (request) => {
        const { page, pageSize, offset } = listPage(request.query);
        const result = await runForRequest(
          request,
          scope,
          ({ tx }) => selectIdvActivities(tx, conditions(request.query), pageSize, offset),
          readOnly,
        );
        return pageResponse(request, path, page, pageSize, result.count, result.results);
      },
    );
    r.get(
      `${path}:id/`,
      { schema: { tags, params: idParams, response: { 200: idvCaseActivityOut } }, config: view },
      async (request) => {
        const id = parseId(request.params.id);
        const found = await runForRequest(
          request,
          scope,
          ({ tx }) => selectIdvActivities(tx, and(conditions({}), eq(caseActivities.id, id)), 1, 0),
          readOnly,
        );
        const one = found.results[0];
        if (!one) throw new NotFoundError();
        return one;
      },
    );

    // the manual right-to-work check: operations or the customer's staff
    r.post(
      `${prefix}case-activities/:id/rtw-check/`,
      {
        schema: {
          tags,
          params: idParams,
          body: rtwManualCheckIn,
          response: { 200: identityActionOut },
        },
        config: { access: { permissions: ['cases.change_caseactivity'] } },
      },
      async (request) => {
        const id = parseId(request.params.id);
        return runForRequest(request, scope, (ctx) => recordRtwManualCheck(ctx, id, request.body));
      },
    );
  }

  // operations approve an identity by hand, with a reason (audited)
  r.post(
    '/api/ops/case-activities/:id/idv-approve/',
    {
      schema: {
        tags,
        params: idParams,
        body: idvManualApprovalIn,
        response: { 200: identityActionOut },
      },
      config: { access: { audience: 'ops', permissions: ['cases.change_caseactivity'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInOps(request.server.deps, opsActorOf(request), (ctx) =>
        approveOnlineIdv(ctx, id, request.body),
      );
    },
  );
}
