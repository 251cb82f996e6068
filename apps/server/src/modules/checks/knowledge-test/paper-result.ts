import {
  canTransitionActivity,
  isCaseActivityState,
  knowledgeTestResultSchema,
  readResultData,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsActorOf } from '../../../platform/access.js';
import { NotFoundError, ValidationError } from '../../../platform/errors.js';
import { parseBody } from '../../../platform/query-params.js';
import { idParams, parseId } from '../../../platform/resource-query.js';
import { runInOps, type ServiceContext } from '../../../platform/service-context.js';
import { changeActivity } from '../../activities/activities.service.js';
import { caseActivities } from '../../activities/activities.table.js';
import { activityTypes } from '../../bootstrap/bootstrap.table.js';

export const NOT_A_KNOWLEDGE_TEST = 'This activity is not a knowledge test.';
export const TEST_CLOSED = 'This activity is closed.';

export const paperResultOut = z.strictObject({
  id: z.number(),
  state: z.string(),
  result_data: z.record(z.string(), z.unknown()),
});

/**
 * Operations record a knowledge test taken on paper (the pass/fail radio of spec point 2): the
 * activity is complete with that overall result, by whom and when, whatever the platform was
 * doing (a later callback is kept on its log, not applied). Audited by changeActivity.
 */
export async function recordPaperResult(
  ctx: ServiceContext,
  id: number,
  result: 'pass' | 'fail',
): Promise<z.infer<typeof paperResultOut>> {
  const [a] = await ctx.tx
    .select({ row: caseActivities, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(eq(caseActivities.id, id));
  if (!a) throw new NotFoundError();
  if (a.code !== 'knowledge-test')
    throw ValidationError.of('non_field_errors', NOT_A_KNOWLEDGE_TEST);
  const from = a.row.state;
  if (!isCaseActivityState(from) || from === 'ca-complete' || from === 'ca-cancelled') {
    throw ValidationError.of('non_field_errors', TEST_CLOSED);
  }
  const now = ctx.clock.now();
  // a start that failed is with operations first (it cannot complete straight from an error)
  if (!canTransitionActivity(from, 'ca-complete')) {
    await changeActivity(ctx.tx, ctx.actor, id, { state: 'ca-awaiting-ops' }, now);
  }
  const before = readResultData('knowledge-test', a.row.resultData);
  const { activity } = await changeActivity(
    ctx.tx,
    ctx.actor,
    id,
    {
      state: 'ca-complete',
      result_data: {
        ...before,
        passed: result === 'pass',
        method: 'paper',
        completed_at: now.toISOString(),
        recorded_by: ctx.actor.name,
        test_url: null,
      },
    },
    now,
  );
  return { id: activity.id, state: activity.state, result_data: activity.resultData };
}

/** POST /api/ops/case-activities/{id}/knowledge-test-result/ {result: pass | fail}. */
export async function knowledgeTestRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/ops/case-activities/:id/knowledge-test-result/',
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        body: knowledgeTestResultSchema,
        response: { 200: paperResultOut },
      },
      config: { access: { permissions: ['cases.change_caseactivity'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const input = parseBody(knowledgeTestResultSchema, request.body);
      return runInOps(app.deps, opsActorOf(request), (ctx) =>
        recordPaperResult(ctx, id, input.result),
      );
    },
  );
}
