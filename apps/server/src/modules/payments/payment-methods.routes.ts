import {
  casePaymentOut,
  noContent,
  paymentMethodCreate,
  paymentMethodOut,
  paymentSettingsOut,
  paymentSettingsUpdate,
  setupIntentOut,
} from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/access.js';
import { keepRawBodies } from '../../platform/body-parsing.js';
import { NotFoundError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { SIMULATOR_BASE } from '../../providers/payments/simulator.js';
import { retryCasePayment } from './case-payment.js';
import {
  addMethod,
  getSettings,
  listMethods,
  removeMethod,
  setDefault,
  startSetup,
  updateSettings,
} from './payment-methods.js';
import { refusal, SIMULATOR_ROUTE, simulatorOf, testChallengePage } from './payments.routes.js';

const VIEW = { access: { permissions: ['payments.view_payment' as const] } };
const ADD = { access: { permissions: ['payments.add_payment' as const] } };
const CHANGE = { access: { permissions: ['payments.change_payment' as const] } };
const DELETE = { access: { permissions: ['payments.delete_payment' as const] } };
const TAGS = ['payments'];

/** The simulator's card setup challenge page (it stands in for the card issuer's). */
export const setupChallengePage = () => testChallengePage('Saving your card for future payments.');

/**
 * Saved cards and payment settings (issue 30): /api/payment-methods/ (setup intent, record,
 * list, set default, remove), /api/payment-settings/ (billing email), a case's payment retry
 * (/api/cases/{id}/retry-payment/), and the simulator's card setup routes (Stripe.js's
 * confirmCardSetup and retrieveSetupIntent, its 3-D Secure challenge page).
 */
export async function paymentMethodsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.post(
    '/api/payment-methods/setup-intent/',
    { schema: { tags: TAGS, response: { 201: setupIntentOut } }, config: ADD },
    async (request, reply) => {
      const out = await startSetup(deps, actorOf(request), request.hostname);
      return reply.code(201).send(out);
    },
  );

  r.get(
    '/api/payment-methods/',
    {
      schema: {
        tags: TAGS,
        response: { 200: z.strictObject({ results: z.array(paymentMethodOut) }) },
      },
      config: VIEW,
    },
    async (request) => {
      const actor = actorOf(request);
      const results = await runInTenant(
        deps,
        actor,
        (ctx) => listMethods(ctx, actor.customerId ?? 0),
        readOnly,
      );
      return { results };
    },
  );

  r.post(
    '/api/payment-methods/',
    {
      schema: { tags: TAGS, body: paymentMethodCreate, response: { 201: paymentMethodOut } },
      config: ADD,
    },
    async (request, reply) => {
      const out = await addMethod(deps, actorOf(request), request.body.setup_intent);
      return reply.code(201).send(out);
    },
  );

  r.post(
    '/api/payment-methods/:id/set-default/',
    {
      schema: { tags: TAGS, params: idParams, response: { 200: paymentMethodOut } },
      config: CHANGE,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), (ctx) => setDefault(ctx, id));
    },
  );

  r.delete(
    '/api/payment-methods/:id/',
    { schema: { tags: TAGS, params: idParams, response: { 204: noContent } }, config: DELETE },
    async (request, reply) => {
      const id = parseId(request.params.id);
      await removeMethod(deps, actorOf(request), id);
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/payment-settings/',
    { schema: { tags: TAGS, response: { 200: paymentSettingsOut } }, config: VIEW },
    async (request) => {
      const actor = actorOf(request);
      return runInTenant(deps, actor, (ctx) => getSettings(ctx, actor.customerId ?? 0), readOnly);
    },
  );

  r.put(
    '/api/payment-settings/',
    {
      schema: { tags: TAGS, body: paymentSettingsUpdate, response: { 200: paymentSettingsOut } },
      config: CHANGE,
    },
    async (request) => {
      const actor = actorOf(request);
      return runInTenant(deps, actor, (ctx) =>
        updateSettings(ctx, actor.customerId ?? 0, request.body),
      );
    },
  );

  r.post(
    '/api/cases/:id/retry-payment/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: casePaymentOut } },
      config: ADD,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), (ctx) => retryCasePayment(ctx, id));
    },
  );

  // The simulator's card setup (Stripe.js's confirmCardSetup and retrieveSetupIntent) and its
  // 3-D Secure challenge page, which returns to the payment settings with Stripe's query.
  await app.register(async (scope) => {
    keepRawBodies(scope, ['application/json', 'application/x-www-form-urlencoded']);

    scope.get<{ Params: { id: string }; Querystring: { client_secret?: unknown; key?: unknown } }>(
      `${SIMULATOR_BASE}/v1/setup_intents/:id`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        const sim = simulatorOf(request.server);
        const { client_secret, key } = request.query;
        try {
          const setup = sim.retrieveSetupForBrowser(request.params.id, {
            client_secret: typeof client_secret === 'string' ? client_secret : '',
            key: typeof key === 'string' ? key : '',
          });
          return reply.code(200).header('cache-control', 'no-store').send(setup);
        } catch (e) {
          return refusal(reply, e);
        }
      },
    );

    scope.post<{ Params: { id: string } }>(
      `${SIMULATOR_BASE}/v1/setup_intents/:id/confirm`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        const sim = simulatorOf(request.server);
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        try {
          const setup = sim.confirmSetup(request.params.id, {
            client_secret: form.get('client_secret') ?? '',
            key: form.get('key') ?? '',
            card_number: form.get('payment_method_data[card][number]') ?? '',
            exp_month: form.get('payment_method_data[card][exp_month]') ?? '',
            exp_year: form.get('payment_method_data[card][exp_year]') ?? '',
            return_url: form.get('return_url') ?? '',
          });
          const { client_secret: _secret, metadata: _metadata, ...visible } = setup;
          return reply.code(200).send(visible);
        } catch (e) {
          return refusal(reply, e);
        }
      },
    );

    scope.get<{ Params: { id: string } }>(
      `${SIMULATOR_BASE}/setup-3ds/:id/`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        if (!simulatorOf(request.server).pendingSetupChallenge(request.params.id)) {
          throw new NotFoundError();
        }
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(setupChallengePage());
      },
    );

    scope.post<{ Params: { id: string } }>(
      `${SIMULATOR_BASE}/setup-3ds/:id/`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        const sim = simulatorOf(request.server);
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        try {
          const done = sim.completeSetupChallenge(request.params.id, form.get('result') === 'pass');
          return reply.code(303).header('location', done.returnUrl).send();
        } catch (e) {
          return refusal(reply, e);
        }
      },
    );
  });
}
