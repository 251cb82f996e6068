import {
  activityProgressIn,
  activityRetryIn,
  activityRetryOut,
  adultFirstRequestOut,
  processingDataOut,
  processingDataPatch,
  servicedStageOut,
  subjectActivityResultOut,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, opsActorOf, runForRequest } from '../../platform/access.js';
import { parseBody } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import {
  type ContextDeps,
  readOnly,
  runAsSystem,
  runInOps,
  runInTenant,
} from '../../platform/service-context.js';
import { recordsViews } from '../access-log/access-log.service.js';
import { retryActivity } from '../checks/engine.js';
import { subjectCaseActor } from '../portal/subject-scope.js';
import { caseActivities } from './activities.table.js';
import {
  patchProcessingData,
  progressActivity,
  requestAdultFirst,
  servicedStage,
  subjectActivityResult,
} from './activity-ops.service.js';

/** The case of an activity, looked up in the system context (0 when there is none). */
async function activityCaseId(deps: ContextDeps, id: number): Promise<number> {
  return runAsSystem(deps, async ({ tx }) => {
    const [row] = await tx
      .select({ caseId: caseActivities.caseId })
      .from(caseActivities)
      .where(eq(caseActivities.id, id));
    return row?.caseId ?? 0;
  });
}

/**
 * Operations' work on an activity (spec point 7) and the adult-first request (point 6):
 * - PATCH /api/ops/case-activities/{id}/processing-data/ merges keys into its processing data;
 * - GET /api/ops/case-activities/{id}/serviced-stage/ and POST .../progress/ {stage, data};
 * - POST /api/case-activities/{id}/request-adult-first/ (and the ops variant);
 * - GET /api/s/case-activities/{id}/result/: the subject's restricted view of a result;
 * - POST /api/ops/case-activities/{id}/retry/ {reason}: a check whose start failed, started again.
 */
export async function activityOpsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const change = { access: { permissions: ['cases.change_caseactivity' as const] } };

  r.patch(
    '/api/ops/case-activities/:id/processing-data/',
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        body: processingDataPatch,
        response: { 200: processingDataOut },
      },
      config: change,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const patch = parseBody(processingDataPatch, request.body);
      const data = await runInOps(deps, opsActorOf(request), ({ tx, actor }) =>
        patchProcessingData(tx, actor, id, patch, deps.clock.now()),
      );
      return { id, processing_data: data };
    },
  );

  r.get(
    '/api/ops/case-activities/:id/serviced-stage/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: servicedStageOut } },
      config: { access: { permissions: ['cases.view_caseactivity'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInOps(deps, opsActorOf(request), ({ tx }) => servicedStage(tx, id), readOnly);
    },
  );

  r.post(
    '/api/ops/case-activities/:id/progress/',
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        body: activityProgressIn,
        response: { 200: servicedStageOut },
      },
      config: change,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const input = parseBody(activityProgressIn, request.body);
      return runInOps(deps, opsActorOf(request), ({ tx, actor }) =>
        progressActivity(tx, actor, id, input, deps.clock.now()),
      );
    },
  );

  for (const [path, scope] of [
    ['/api/case-activities/:id/request-adult-first/', 'tenant'],
    ['/api/ops/case-activities/:id/request-adult-first/', 'ops'],
  ] as const) {
    r.post(
      path,
      {
        schema: {
          tags: ['cases'],
          params: idParams,
          response: { 201: adultFirstRequestOut },
        },
        config: { access: { permissions: ['cases.add_case'] } },
      },
      async (request, reply) => {
        const id = parseId(request.params.id);
        const out = await runForRequest(request, scope, ({ tx, actor }) =>
          requestAdultFirst(tx, actor, id, deps.clock.now()),
        );
        reply.code(201);
        return out;
      },
    );
  }

  r.get(
    '/api/s/case-activities/:id/result/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: subjectActivityResultOut } },
      onSend: recordsViews('activity'),
    },
    async (request) => {
      const id = parseId(request.params.id);
      // a person held by two customers: act for the customer of the activity's case when the
      // case is the subject's own (RLS still decides; anything else answers 404)
      const own = actorOf(request);
      const actor =
        own.type === 'SubjectUser'
          ? await subjectCaseActor(deps, own, await activityCaseId(deps, id))
          : own;
      return runInTenant(deps, actor, ({ tx }) => subjectActivityResult(tx, id), readOnly);
    },
  );
  r.post(
    '/api/ops/case-activities/:id/retry/',
    {
      config: { access: { audience: 'ops', permissions: ['cases.change_caseactivity'] } },
      schema: { params: idParams, body: activityRetryIn, response: { 200: activityRetryOut } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const reason = request.body?.reason ?? '';
      return runInOps(request.server.deps, opsActorOf(request), (ctx) =>
        retryActivity(ctx, id, reason),
      );
    },
  );
}
