import {
  formatPence,
  opsPaymentIntentOut,
  opsPaymentOut,
  paymentIntentCreate,
  paymentIntentOut,
  paymentIntentPublicId,
  paymentPortalOut,
} from '@kestrel/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { opsActorOf } from '../../platform/access.js';
import { keepRawBodies } from '../../platform/body-parsing.js';
import { NotFoundError } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource-router.js';
import { runAsSystem } from '../../platform/service-context.js';
import { signedWebhook } from '../../platform/webhooks.js';
import { STRIPE_SIGNATURE_HEADER } from '../../providers/payments/provider.js';
import {
  PaymentsSimulator,
  SIMULATOR_BASE,
  type SignedEvent,
  SimulatorRefusal,
} from '../../providers/payments/simulator.js';
import { paymentsOf } from './config.js';
import { customerPaymentsRoutes } from './customer-payments.routes.js';
import { opsPaymentsRoutes } from './ops-payments.js';
import { paymentIntents, payments } from './payments.table.js';
import {
  createTopUpIntent,
  INTENT_CONTENT_TYPE,
  intentOut,
  PAYMENT_CONTENT_TYPE,
  paymentOutOf,
  paymentPortal,
} from './service.js';
import { paymentEventSchema, receivePaymentEvent, WEBHOOK_PATH } from './webhook.js';

/** Delivers the simulator's events to this app's webhook, as the provider would (awaited). */
async function deliver(app: FastifyInstance, events: SignedEvent[]): Promise<void> {
  for (const e of events) {
    const res = await app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', [STRIPE_SIGNATURE_HEADER]: e.signature },
      payload: e.body,
    });
    if (res.statusCode >= 300) {
      app.log.warn({ event: e.event.id, status: res.statusCode }, 'payment webhook refused');
    }
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The simulator's own 3-D Secure challenge page (it stands in for the card issuer's). */
export function challengePage(amountPence: number): string {
  const amount = escapeHtml(formatPence(amountPence));
  return testChallengePage(`Payment of <strong>${amount}</strong>.`);
}

/**
 * The simulator's 3-D Secure page saying what is authenticated (`what`: HTML, escaped by the
 * caller): a payment's, or a card setup's (payment-methods.routes.ts).
 */
export function testChallengePage(what: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure test challenge</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f1f3f5;color:#212529}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px}
h1{font-size:1.5rem;margin-top:0}
button{display:block;width:100%;min-height:48px;margin-top:1rem;font-size:1rem;border-radius:6px;border:2px solid #1c4f8a;cursor:pointer}
.pass{background:#1c4f8a;color:#fff}
.fail{background:#fff;color:#1c4f8a}
</style>
</head>
<body>
<main>
<h1>3-D Secure test challenge</h1>
<p>This page stands in for your bank's security check. It is part of the payments simulator: no real card is charged.</p>
<p>${what}</p>
<form method="post"><input type="hidden" name="result" value="pass"><button class="pass" type="submit">Complete authentication</button></form>
<form method="post"><input type="hidden" name="result" value="fail"><button class="fail" type="submit">Fail authentication</button></form>
</main>
</body>
</html>`;
}

/** The app's payments simulator (404 when another provider is configured). */
export function simulatorOf(app: FastifyInstance): PaymentsSimulator {
  const p = paymentsOf(app.deps).provider;
  if (!(p instanceof PaymentsSimulator)) throw new NotFoundError();
  return p;
}

/** A simulator refusal answered in Stripe's error shape; anything else rethrown. */
export function refusal(reply: FastifyReply, e: unknown) {
  if (e instanceof SimulatorRefusal) return reply.code(e.status).send(e.toJSON());
  throw e;
}

/** The simulator's routes stand in for the provider's: not part of Kestrel's API document. */
export const SIMULATOR_ROUTE = { schema: { hide: true } };

const webhookAnswer = z.strictObject({
  received: z.literal(true),
  status: z.enum(['settled', 'stored', 'duplicate', 'ignored']),
});

export async function paymentsRoutes(app: FastifyInstance): Promise<void> {
  // The provider's signed events (the platform's webhook mechanism): its own secret (Stripe's
  // without PAYMENTS_WEBHOOK_SECRET refuses them all), its header, the event's schema; each
  // stored under its event id and settled in the same transaction.
  await signedWebhook(app, {
    path: WEBHOOK_PATH,
    refusal: 'Invalid webhook signature.',
    routeSchema: { body: z.string(), response: { 200: webhookAnswer } },
    signing: (request) => {
      const { config } = paymentsOf(request.server.deps);
      return {
        secret: config.webhookSecretMissing ? null : config.webhookSecret,
        header: STRIPE_SIGNATURE_HEADER,
        schema: paymentEventSchema,
      };
    },
    receive: async (request, event) => {
      const status = await runAsSystem(
        request.server.deps,
        (ctx) => receivePaymentEvent(ctx, event, request.server.deps),
        {
          ...opsActorOf(request),
          type: null,
          id: null,
          name: 'payments webhook',
          isOps: false,
        },
      );
      return { received: true as const, status };
    },
  });

  // Raw bodies: the simulator reads forms.
  await app.register(async (scope) => {
    keepRawBodies(scope, ['application/json', 'application/x-www-form-urlencoded']);

    // The simulator's browser API (Stripe.js's retrieve and confirm) and its 3-D Secure challenge.
    scope.get<{ Params: { id: string }; Querystring: { client_secret?: unknown; key?: unknown } }>(
      `${SIMULATOR_BASE}/v1/payment_intents/:id`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        const sim = simulatorOf(request.server);
        const { client_secret, key } = request.query;
        try {
          const intent = sim.retrieveForBrowser(request.params.id, {
            client_secret: typeof client_secret === 'string' ? client_secret : '',
            key: typeof key === 'string' ? key : '',
          });
          return reply.code(200).header('cache-control', 'no-store').send(intent);
        } catch (e) {
          return refusal(reply, e);
        }
      },
    );

    scope.post<{ Params: { id: string } }>(
      `${SIMULATOR_BASE}/v1/payment_intents/:id/confirm`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        const sim = simulatorOf(request.server);
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        try {
          const result = sim.confirm(request.params.id, {
            client_secret: form.get('client_secret') ?? '',
            key: form.get('key') ?? '',
            card_number: form.get('payment_method_data[card][number]') ?? '',
            return_url: form.get('return_url') ?? '',
          });
          await deliver(request.server, result.events);
          return reply.code(200).send(result.intent);
        } catch (e) {
          return refusal(reply, e);
        }
      },
    );

    // A processing charge (the simulator's processing card) settled, as the provider would do
    // later: its events delivered to the webhook in order. Operations play the provider here
    // (/api/ops/: an ops session seeing product payments, its CSRF token); `result` succeeded
    // (the default) or failed.
    scope.post<{ Params: { id: string } }>(
      '/api/ops/simulator/payments/:id/finish/',
      {
        ...SIMULATOR_ROUTE,
        config: { access: { permissions: ['payments.view_all_product_payments'] } },
      },
      async (request, reply) => {
        const sim = simulatorOf(request.server);
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        try {
          const result = sim.finishProcessing(request.params.id, form.get('result') !== 'failed');
          await deliver(request.server, result.events);
          return reply.code(200).send(result.intent);
        } catch (e) {
          return refusal(reply, e);
        }
      },
    );

    scope.get<{ Params: { id: string } }>(
      `${SIMULATOR_BASE}/3ds/:id/`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        const pending = simulatorOf(request.server).pendingChallenge(request.params.id);
        if (!pending) throw new NotFoundError();
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(challengePage(pending.amount));
      },
    );

    scope.post<{ Params: { id: string } }>(
      `${SIMULATOR_BASE}/3ds/:id/`,
      SIMULATOR_ROUTE,
      async (request, reply) => {
        const sim = simulatorOf(request.server);
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        try {
          const done = sim.completeChallenge(request.params.id, form.get('result') === 'pass');
          await deliver(request.server, done.events);
          return reply.code(303).header('location', done.returnUrl).send();
        } catch (e) {
          return refusal(reply, e);
        }
      },
    );
  });

  app.get<{ Params: { id: string } }>(
    '/api/public/payment-portal/:id/',
    {
      config: { access: { audience: 'public' } },
      schema: { response: { 200: paymentPortalOut } },
    },
    async (request) => {
      const id = paymentIntentPublicId.safeParse(request.params.id);
      if (!id.success) throw new NotFoundError();
      return paymentPortal(request.server.deps, id.data, request.hostname);
    },
  );

  registerResource(app, {
    path: '/api/payment-intents/',
    table: paymentIntents,
    id: paymentIntents.id,
    contentType: INTENT_CONTENT_TYPE,
    operations: ['list', 'retrieve', 'create'],
    access: {
      read: { permissions: ['payments.view_payment'] },
      create: { permissions: ['payments.add_payment'] },
    },
    present: intentOut,
    output: paymentIntentOut,
    repr: (r) => r.publicId,
    filters: {
      case: paymentIntents.caseId,
      case_activity: paymentIntents.caseActivityId,
      outcome: paymentIntents.outcome,
      status: paymentIntents.status,
    },
    ordering: { created_at: paymentIntents.createdAt, id: paymentIntents.id },
    create: {
      body: paymentIntentCreate,
      run: async (ctx, data) =>
        (await createTopUpIntent(ctx, data.case_activity, { audit: false })).row,
    },
  });

  // The customer's payments: product and portal payments in one list (customer-payments.routes.ts).
  await customerPaymentsRoutes(app);

  // Operations' portal and product payments with refunds (ops-payments.ts).
  await opsPaymentsRoutes(app);

  // Operations see every customer's (portal payments: payments.view_all_portal_payments).
  const opsRead = { read: { permissions: ['payments.view_all_portal_payments' as const] } };
  registerResource(app, {
    path: '/api/ops/payment-intents/',
    table: paymentIntents,
    id: paymentIntents.id,
    contentType: INTENT_CONTENT_TYPE,
    context: 'ops',
    operations: ['list', 'retrieve'],
    access: opsRead,
    present: (r) => ({ ...intentOut(r), customer: r.customerId }),
    output: opsPaymentIntentOut,
    repr: (r) => r.publicId,
    filters: {
      customer: paymentIntents.customerId,
      case_activity: paymentIntents.caseActivityId,
      outcome: paymentIntents.outcome,
    },
    ordering: { created_at: paymentIntents.createdAt, id: paymentIntents.id },
  });
  registerResource(app, {
    path: '/api/ops/payments/',
    table: payments,
    id: payments.id,
    contentType: PAYMENT_CONTENT_TYPE,
    context: 'ops',
    operations: ['list', 'retrieve'],
    access: opsRead,
    present: (p) => ({ ...paymentOutOf(p), customer: p.customerId }),
    output: opsPaymentOut,
    filters: {
      customer: payments.customerId,
      case_activity: payments.caseActivityId,
      status: payments.status,
    },
    ordering: { created_at: payments.createdAt, id: payments.id },
  });
}
