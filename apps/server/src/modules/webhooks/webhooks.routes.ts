import {
  EXPIRED_PAYLOAD,
  noContent,
  pageOut,
  WEBHOOK_PAYLOAD_EXPIRED,
  webhookDeliveryOut,
  webhookEndpointCreate,
  webhookEndpointCreatedOut,
  webhookEndpointOut,
  webhookEndpointUpdate,
} from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { newEventId } from './webhook-events.js';
import { attemptDelivery, deliveryJob } from './webhook-jobs.js';
import {
  addDelivery,
  createEndpoint,
  deleteEndpoint,
  endpointDeliveries,
  findDelivery,
  findEndpoint,
  listEndpoints,
  presentDelivery,
  presentEndpoint,
  updateEndpoint,
} from './webhooks.service.js';

/** The customer-account screens' permission: the organisation's administrators. */
const ADMIN = { access: { permissions: ['customers.change_customer' as const] } };
const tags = ['webhooks'];
const whole = <T>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

/** /api/webhook-endpoints/ and /api/webhook-deliveries/{id}/resend/. */
export async function webhooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const opts = () => ({
    allowPrivate: deps.config.webhooksAllowPrivate === true,
    now: deps.clock.now(),
  });

  r.get(
    '/api/webhook-endpoints/',
    { schema: { tags, response: { 200: pageOut(webhookEndpointOut) } }, config: ADMIN },
    async (request) =>
      whole(await runInTenant(deps, actorOf(request), ({ tx }) => listEndpoints(tx), readOnly)),
  );

  r.post(
    '/api/webhook-endpoints/',
    {
      schema: { tags, body: webhookEndpointCreate, response: { 201: webhookEndpointCreatedOut } },
      config: ADMIN,
    },
    async (request, reply) => {
      const created = await runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        createEndpoint(tx, actor, deps.secrets, request.body, opts()),
      );
      return reply.code(201).send(created);
    },
  );

  r.get(
    '/api/webhook-endpoints/:id/',
    { schema: { tags, params: idParams, response: { 200: webhookEndpointOut } }, config: ADMIN },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(
        deps,
        actorOf(request),
        async ({ tx }) => presentEndpoint(await findEndpoint(tx, id)),
        readOnly,
      );
    },
  );

  r.patch(
    '/api/webhook-endpoints/:id/',
    {
      schema: {
        tags,
        params: idParams,
        body: webhookEndpointUpdate,
        response: { 200: webhookEndpointOut },
      },
      config: ADMIN,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        updateEndpoint(tx, actor, id, request.body, opts()),
      );
    },
  );

  r.delete(
    '/api/webhook-endpoints/:id/',
    { schema: { tags, params: idParams, response: { 204: noContent } }, config: ADMIN },
    async (request, reply) => {
      const id = parseId(request.params.id);
      await runInTenant(deps, actorOf(request), ({ tx, actor }) => deleteEndpoint(tx, actor, id));
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/webhook-endpoints/:id/deliveries/',
    {
      schema: { tags, params: idParams, response: { 200: pageOut(webhookDeliveryOut) } },
      config: ADMIN,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return whole(
        await runInTenant(deps, actorOf(request), ({ tx }) => endpointDeliveries(tx, id), readOnly),
      );
    },
  );

  // A test event sent now (one attempt, its outcome in the answer and the log).
  r.post(
    '/api/webhook-endpoints/:id/test/',
    {
      schema: { tags, params: idParams, response: { 200: webhookDeliveryOut } },
      config: ADMIN,
      preValidation: absentBodyAsEmpty,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const actor = actorOf(request);
      const made = await runInTenant(deps, actor, async ({ tx, clock }) => {
        const e = await findEndpoint(tx, id);
        const now = clock.now();
        const eventId = newEventId();
        return addDelivery(
          tx,
          e,
          {
            event: 'endpoint.test',
            eventId,
            payload: {
              id: eventId,
              type: 'endpoint.test',
              created: Math.floor(now.getTime() / 1000),
              data: { endpoint: { id: e.id, url: e.url } },
            },
          },
          now,
        );
      });
      const done = await attemptDelivery(deps, {
        customerId: made.customerId,
        deliveryId: made.id,
        manual: true,
      });
      if (!done) throw new NotFoundError();
      return presentDelivery(done);
    },
  );

  // The same event again, as a new delivery (same event id: a receiver de-duplicates on it).
  r.post(
    '/api/webhook-deliveries/:id/resend/',
    {
      schema: { tags, params: idParams, response: { 201: webhookDeliveryOut } },
      config: ADMIN,
      preValidation: absentBodyAsEmpty,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const made = await runInTenant(deps, actorOf(request), async ({ tx, clock, enqueue }) => {
        const d = await findDelivery(tx, id);
        const e = await findEndpoint(tx, d.endpointId);
        const payload =
          typeof d.payload === 'object' && d.payload !== null && !Array.isArray(d.payload)
            ? (d.payload as Record<string, unknown>)
            : {};
        // blanked by the retention run (retention/expiry.ts): the event is no longer held
        if (payload.redacted === EXPIRED_PAYLOAD.redacted) {
          throw ValidationError.of('non_field_errors', WEBHOOK_PAYLOAD_EXPIRED);
        }
        const again = await addDelivery(
          tx,
          e,
          { event: d.event, eventId: d.eventId, payload },
          clock.now(),
        );
        await enqueue(
          deliveryJob({ customerId: e.customerId, deliveryId: again.id, manual: true }),
        );
        return again;
      });
      return reply.code(201).send(presentDelivery(made));
    },
  );
}
