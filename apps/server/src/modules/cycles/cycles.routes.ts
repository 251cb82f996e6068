import {
  cycleCreate,
  cycleOut,
  cycleUpdate,
  noContent,
  pageOut,
  subscriptionBillingOut,
  subscriptionBulkCreate,
  subscriptionBulkOut,
  subscriptionCreate,
  subscriptionListFilters,
  subscriptionOut,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, type RouteAccess } from '../../platform/access.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { queryBool, queryIds } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import {
  createCycle,
  deleteCycle,
  findCycle,
  listCycles,
  presentCycle,
  updateCycle,
} from './cycles.service.js';
import { subscriptions } from './cycles.table.js';
import { lastBilling, retrySubscriptionPayment } from './subscription-billing.js';
import {
  actOnSubscription,
  findSubject,
  getSubscription,
  listSubscriptions,
  subscribeMany,
  subscribeSubject,
  subscriptionFilters,
} from './subscriptions.service.js';

const cycleParams = idParams.extend({ cycleId: z.string().max(20) });
const listQuery = listQuerySchema.extend(subscriptionListFilters);
const cyclesList = listQuerySchema;
/** Every cycle and subscription route needs the `cycles` entitlement (403 without it). */
const gate = (permission: NonNullable<RouteAccess['permissions']>[number]) => ({
  access: { permissions: [permission], entitlements: ['cycles' as const] },
});
const VIEW_CYCLE = gate('cycles.view_cycle');
const ADD_CYCLE = gate('cycles.add_cycle');
const CHANGE_CYCLE = gate('cycles.change_cycle');
const VIEW_SUB = gate('subscriptions.view_subscription');
const ADD_SUB = gate('subscriptions.add_subscription');
const CHANGE_SUB = gate('subscriptions.change_subscription');
/** A billing period's retry charges the customer's card: the payments permission. */
const RETRY_PAYMENT = gate('payments.add_payment');
const billingList = z.strictObject({ results: z.array(subscriptionBillingOut) });
/** At most this many subscriptions' billing per request (a page of a list). */
const BILLING_IDS_MAX = 100;

/**
 * Cycles (issue 31): /api/processes/{id}/cycles/ and /{cycleId}/; subscriptions:
 * /api/subjects/{id}/subscriptions/, /api/subscriptions/ (list, bulk, one, pause, resume, end).
 */
export async function cyclesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tenant = <T>(
    request: FastifyRequest,
    fn: Parameters<typeof runInTenant<T>>[2],
    read = false,
  ) => runInTenant(deps, actorOf(request), fn, read ? readOnly : {});

  r.get(
    '/api/processes/:id/cycles/',
    {
      schema: {
        tags: ['cycles'],
        params: idParams,
        querystring: cyclesList,
        response: { 200: pageOut(cycleOut) },
      },
      config: VIEW_CYCLE,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const page = listPage(request.query);
      const out = await tenant(request, (ctx) => listCycles(ctx, id, page), true);
      const path = `/api/processes/${id}/cycles/`;
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );

  r.get(
    '/api/cycles/',
    {
      schema: {
        tags: ['cycles'],
        querystring: cyclesList.extend({
          is_active: z.string().max(10).optional().describe('true: only active cycles'),
        }),
        response: { 200: pageOut(cycleOut) },
      },
      config: VIEW_CYCLE,
    },
    async (request) => {
      const page = listPage(request.query);
      const active = queryBool(request.query, 'is_active') === true;
      const out = await tenant(request, (ctx) => listCycles(ctx, null, page, active), true);
      return pageResponse(
        request,
        '/api/cycles/',
        page.page,
        page.pageSize,
        out.count,
        out.results,
      );
    },
  );

  r.post(
    '/api/processes/:id/cycles/',
    {
      schema: {
        tags: ['cycles'],
        params: idParams,
        body: cycleCreate,
        response: { 201: cycleOut },
      },
      preValidation: absentBodyAsEmpty,
      config: ADD_CYCLE,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await tenant(request, (ctx) => createCycle(ctx, id, request.body));
      return reply.code(201).send(out);
    },
  );

  r.get(
    '/api/processes/:id/cycles/:cycleId/',
    {
      schema: { tags: ['cycles'], params: cycleParams, response: { 200: cycleOut } },
      config: VIEW_CYCLE,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const cycleId = parseId(request.params.cycleId);
      return tenant(
        request,
        async (ctx) => presentCycle(ctx, await findCycle(ctx.tx, id, cycleId)),
        true,
      );
    },
  );

  for (const method of ['put', 'patch'] as const) {
    r[method](
      '/api/processes/:id/cycles/:cycleId/',
      {
        schema: {
          tags: ['cycles'],
          params: cycleParams,
          body: method === 'put' ? cycleUpdate : cycleUpdate.partial(),
          response: { 200: cycleOut },
        },
        preValidation: absentBodyAsEmpty,
        config: CHANGE_CYCLE,
      },
      async (request) => {
        const id = parseId(request.params.id);
        const cycleId = parseId(request.params.cycleId);
        return tenant(request, (ctx) => updateCycle(ctx, id, cycleId, request.body));
      },
    );
  }

  r.delete(
    '/api/processes/:id/cycles/:cycleId/',
    {
      schema: { tags: ['cycles'], params: cycleParams, response: { 204: noContent } },
      config: CHANGE_CYCLE,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const cycleId = parseId(request.params.cycleId);
      await tenant(request, (ctx) => deleteCycle(ctx, id, cycleId));
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/subjects/:id/subscriptions/',
    {
      schema: {
        tags: ['subscriptions'],
        params: idParams,
        querystring: listQuery,
        response: { 200: pageOut(subscriptionOut) },
      },
      config: VIEW_SUB,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const page = listPage(request.query);
      const conds = [...subscriptionFilters(request.query), eq(subscriptions.subjectId, id)];
      const out = await tenant(
        request,
        async (ctx) => {
          await findSubject(ctx.tx, id); // another customer's subject: 404, not an empty list
          return listSubscriptions(ctx, conds, page);
        },
        true,
      );
      const path = `/api/subjects/${id}/subscriptions/`;
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );

  r.post(
    '/api/subjects/:id/subscriptions/',
    {
      schema: {
        tags: ['subscriptions'],
        params: idParams,
        body: subscriptionCreate,
        response: { 201: subscriptionOut },
      },
      preValidation: absentBodyAsEmpty,
      config: ADD_SUB,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await tenant(request, (ctx) => subscribeSubject(ctx, id, request.body));
      return reply.code(201).send(out);
    },
  );

  r.get(
    '/api/subscriptions/',
    {
      schema: {
        tags: ['subscriptions'],
        querystring: listQuery,
        response: { 200: pageOut(subscriptionOut) },
      },
      config: VIEW_SUB,
    },
    async (request) => {
      const page = listPage(request.query);
      const conds = subscriptionFilters(request.query);
      const out = await tenant(request, (ctx) => listSubscriptions(ctx, conds, page), true);
      return pageResponse(
        request,
        '/api/subscriptions/',
        page.page,
        page.pageSize,
        out.count,
        out.results,
      );
    },
  );

  r.post(
    '/api/subscriptions/bulk/',
    {
      schema: {
        tags: ['subscriptions'],
        body: subscriptionBulkCreate,
        response: { 201: subscriptionBulkOut },
      },
      preValidation: absentBodyAsEmpty,
      config: ADD_SUB,
    },
    async (request, reply) => {
      const out = await tenant(request, (ctx) => subscribeMany(ctx, request.body));
      return reply.code(201).send(out);
    },
  );

  r.get(
    '/api/subscriptions/billing/',
    {
      schema: { tags: ['subscriptions'], response: { 200: billingList } },
      config: VIEW_SUB,
    },
    async (request) => {
      const ids = (queryIds(request.query, 'subscription') ?? []).slice(0, BILLING_IDS_MAX);
      const results = await tenant(request, (ctx) => lastBilling(ctx, ids), true);
      return { results };
    },
  );

  r.post(
    '/api/subscription-charges/:id/retry-payment/',
    {
      schema: {
        tags: ['subscriptions'],
        params: idParams,
        response: { 200: subscriptionBillingOut },
      },
      config: RETRY_PAYMENT,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(request, (ctx) => retrySubscriptionPayment(ctx, id));
    },
  );

  r.get(
    '/api/subscriptions/:id/',
    {
      schema: { tags: ['subscriptions'], params: idParams, response: { 200: subscriptionOut } },
      config: VIEW_SUB,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(request, (ctx) => getSubscription(ctx, id), true);
    },
  );

  for (const action of ['pause', 'resume', 'end'] as const) {
    r.post(
      `/api/subscriptions/:id/${action}/`,
      {
        schema: { tags: ['subscriptions'], params: idParams, response: { 200: subscriptionOut } },
        config: CHANGE_SUB,
      },
      async (request) => {
        const id = parseId(request.params.id);
        return tenant(request, (ctx) => actOnSubscription(ctx, id, action));
      },
    );
  }
}
