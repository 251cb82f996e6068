import { pricebookCreate, pricebookOut, pricebookUpdate, quoteOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, opsActorOf } from '../../platform/access.js';
import { PermissionDeniedError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInOps, runInTenant } from '../../platform/service-context.js';
import {
  createPricebook,
  getPricebook,
  listPricebooks,
  quoteProcess,
  updatePricebook,
} from './pricebooks.service.js';

const OPS = 'customers.ops_access' as const;
const VIEW = { access: { permissions: [OPS, 'pricebooks.view_pricebook' as const] } };
const ADD = { access: { permissions: [OPS, 'pricebooks.add_pricebook' as const] } };
const CHANGE = { access: { permissions: [OPS, 'pricebooks.change_pricebook' as const] } };
const pbParams = idParams.extend({ pbId: z.string().max(20) });

/**
 * Pricebooks (issue 29): /api/ops/customers/{id}/pricebooks/ for operations (list, create,
 * retrieve, update, prices included), and the quote a customer's staff see before creating a
 * case: GET /api/pricebooks/quote/?process=<id>.
 */
export async function pricebooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/ops/customers/:id/pricebooks/';

  r.get(
    base,
    {
      schema: {
        tags: ['ops'],
        params: idParams,
        response: { 200: z.strictObject({ results: z.array(pricebookOut) }) },
      },
      config: VIEW,
    },
    async (request) => ({
      results: await runInOps(
        app.deps,
        opsActorOf(request),
        (ctx) => listPricebooks(ctx, parseId(request.params.id)),
        readOnly,
      ),
    }),
  );

  r.post(
    base,
    {
      schema: {
        tags: ['ops'],
        params: idParams,
        body: pricebookCreate,
        response: { 201: pricebookOut },
      },
      config: ADD,
    },
    async (request, reply) => {
      const out = await runInOps(app.deps, opsActorOf(request), (ctx) =>
        createPricebook(ctx, parseId(request.params.id), request.body),
      );
      return reply.code(201).send(out);
    },
  );

  r.get(
    `${base}:pbId/`,
    {
      schema: { tags: ['ops'], params: pbParams, response: { 200: pricebookOut } },
      config: VIEW,
    },
    async (request) =>
      runInOps(
        app.deps,
        opsActorOf(request),
        (ctx) => getPricebook(ctx, parseId(request.params.id), parseId(request.params.pbId)),
        readOnly,
      ),
  );

  for (const method of ['put', 'patch'] as const) {
    r[method](
      `${base}:pbId/`,
      {
        schema: {
          tags: ['ops'],
          params: pbParams,
          body: pricebookUpdate,
          response: { 200: pricebookOut },
        },
        config: CHANGE,
      },
      async (request) =>
        runInOps(app.deps, opsActorOf(request), (ctx) =>
          updatePricebook(
            ctx,
            parseId(request.params.id),
            parseId(request.params.pbId),
            request.body,
          ),
        ),
    );
  }

  r.get(
    '/api/pricebooks/quote/',
    {
      schema: {
        tags: ['pricebooks'],
        querystring: z.object({ process: z.string().max(20) }),
        response: { 200: quoteOut },
      },
      config: { access: { audience: 'product', permissions: ['cases.add_case'] } },
    },
    async (request) => {
      const actor = actorOf(request);
      const customerId = actor.customerId;
      if (customerId === null) throw new PermissionDeniedError();
      return runInTenant(
        app.deps,
        actor,
        (ctx) => quoteProcess(ctx, customerId, parseId(request.query.process)),
        readOnly,
      );
    },
  );
}
