import {
  ESCALATION_STATUSES,
  escalationPageOut,
  expectedDatesOut,
  isOverdue,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/access.js';
import { NotFoundError } from '../../platform/errors.js';
import { parseId } from '../../platform/resource-query.js';
import { readOnly, runInOps, runInTenant } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { checkEscalations } from './check-escalations.table.js';
import { expectedOf, listEscalations } from './escalation.service.js';

const idParams = z.object({ id: z.string().max(20) });
const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
  status: z.enum(ESCALATION_STATUSES).default('open'),
  customer: z.coerce.number().int().min(1).optional(),
});

/**
 * Expected completion dates and escalations (issue 33): GET /api/cases/{id}/expected-dates/ (each
 * open check's expected date, overdue and escalated or not; staff of the case's customer), GET
 * /api/ops/escalations/ (operations: the escalations across customers, open by default;
 * `status=open|resolved|all`, `customer=<id>`, paginated).
 */
export async function escalationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/cases/:id/expected-dates/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: expectedDatesOut } },
      config: { access: { permissions: ['cases.view_case'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(
        deps,
        actorOf(request),
        async ({ tx, clock }) => {
          const [c] = await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, id));
          if (!c) throw new NotFoundError();
          const today = clock.now().toISOString().slice(0, 10);
          const rows = await tx
            .select({
              id: caseActivities.id,
              state: caseActivities.state,
              createdAt: caseActivities.createdAt,
              resultData: caseActivities.resultData,
              code: activityTypes.code,
            })
            .from(caseActivities)
            .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
            .where(eq(caseActivities.caseId, id))
            .orderBy(caseActivities.position);
          const escalated = await tx
            .select({ a: checkEscalations.caseActivityId, on: checkEscalations.expectedOn })
            .from(checkEscalations)
            .where(and(eq(checkEscalations.caseId, id)));
          return rows.flatMap((a) => {
            const e = expectedOf(a);
            if (!e) return [];
            return [
              {
                activity_id: a.id,
                expected_on: e.date,
                basis: e.basis,
                overdue: isOverdue(e.date, today),
                escalated: escalated.some((x) => x.a === a.id && x.on === e.date),
              },
            ];
          });
        },
        readOnly,
      );
    },
  );

  r.get(
    '/api/ops/escalations/',
    {
      schema: { tags: ['ops'], querystring: pageQuery, response: { 200: escalationPageOut } },
      config: { access: { permissions: ['customers.ops_access'] } },
    },
    async (request) => {
      const { page, page_size, status, customer } = request.query;
      return runInOps(
        deps,
        actorOf(request),
        ({ tx, clock }) =>
          listEscalations(
            tx,
            { status, ...(customer === undefined ? {} : { customer }) },
            clock.now().toISOString().slice(0, 10),
            page_size,
            (page - 1) * page_size,
          ),
        readOnly,
      );
    },
  );
}
