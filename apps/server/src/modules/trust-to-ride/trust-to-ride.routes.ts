import {
  trustToRideAttendanceIn,
  trustToRideBookingIn,
  trustToRideBookingOut,
  trustToRideSessionDetailOut,
  trustToRideSessionIn,
  trustToRideSessionOut,
  trustToRideSessionUpdate,
} from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsActorOf } from '../../platform/access.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema, pageSchema } from '../../platform/pagination.js';
import { opsCustomerFilter, parseBody } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInOps } from '../../platform/service-context.js';
import { bookPlace, recordAttendance, unbookedActivities } from './bookings.service.js';
import { createSession, listSessions, sessionDetail, updateSession } from './sessions.service.js';

const view = { access: { permissions: ['trust_to_ride.view_trusttoride' as const] } };
const change = {
  access: {
    permissions: [
      'trust_to_ride.view_trusttoride' as const,
      'trust_to_ride.change_trusttoride' as const,
    ],
  },
};
const PATH = '/api/ops/trust-to-ride/sessions/';

const sessionsQuery = listQuerySchema.extend({
  when: z.enum(['upcoming', 'past']).optional(),
});

const unbookedOut = z.strictObject({
  results: z.array(
    z.strictObject({
      id: z.number(),
      case: z.number(),
      customer: z.number(),
      subject: z.strictObject({ id: z.number(), name: z.string(), email: z.string() }),
    }),
  ),
});

/**
 * Operations' trust-to-ride (/ops/trust-2-ride, spec point 2): sessions listed (upcoming or
 * past, one customer or all), added and edited; a session's attendance register; a place booked
 * for a subject's activity; attendance recorded. Cross-tenant (runInOps: ops staff only).
 */
export async function trustToRideOpsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    PATH,
    {
      schema: {
        tags: ['trust-to-ride'],
        querystring: sessionsQuery,
        response: { 200: pageSchema(trustToRideSessionOut) },
      },
      config: view,
    },
    async (request) => {
      const { page, pageSize, offset } = listPage(request.query);
      const customer = opsCustomerFilter(request.query);
      const when = request.query.when ?? 'upcoming';
      const out = await runInOps(
        deps,
        opsActorOf(request),
        ({ tx }) => listSessions(tx, { customer, when, pageSize, offset }, deps.clock.now()),
        readOnly,
      );
      return pageResponse(request, PATH, page, pageSize, out.count, out.results);
    },
  );

  r.post(
    PATH,
    {
      schema: {
        tags: ['trust-to-ride'],
        body: trustToRideSessionIn,
        response: { 201: trustToRideSessionDetailOut },
      },
      config: change,
    },
    async (request, reply) => {
      const input = parseBody(trustToRideSessionIn, request.body);
      const out = await runInOps(deps, opsActorOf(request), (ctx) => createSession(ctx, input));
      reply.code(201);
      return out;
    },
  );

  r.get(
    `${PATH}:id/`,
    {
      schema: {
        tags: ['trust-to-ride'],
        params: idParams,
        response: { 200: trustToRideSessionDetailOut },
      },
      config: view,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInOps(deps, opsActorOf(request), ({ tx }) => sessionDetail(tx, id), readOnly);
    },
  );

  r.put(
    `${PATH}:id/`,
    {
      schema: {
        tags: ['trust-to-ride'],
        params: idParams,
        body: trustToRideSessionUpdate,
        response: { 200: trustToRideSessionDetailOut },
      },
      config: change,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const input = parseBody(trustToRideSessionUpdate, request.body);
      return runInOps(deps, opsActorOf(request), (ctx) => updateSession(ctx, id, input));
    },
  );

  r.post(
    '/api/ops/trust-to-ride/bookings/',
    {
      schema: {
        tags: ['trust-to-ride'],
        body: trustToRideBookingIn,
        response: { 201: trustToRideBookingOut },
      },
      config: change,
    },
    async (request, reply) => {
      const input = parseBody(trustToRideBookingIn, request.body);
      const out = await runInOps(deps, opsActorOf(request), (ctx) => bookPlace(ctx, input));
      reply.code(201);
      return out;
    },
  );

  r.post(
    '/api/ops/trust-to-ride/bookings/:id/attendance/',
    {
      schema: {
        tags: ['trust-to-ride'],
        params: idParams,
        body: trustToRideAttendanceIn,
        response: { 200: trustToRideBookingOut },
      },
      config: change,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const input = parseBody(trustToRideAttendanceIn, request.body);
      return runInOps(deps, opsActorOf(request), (ctx) =>
        recordAttendance(ctx, id, input.attendance),
      );
    },
  );

  r.get(
    '/api/ops/trust-to-ride/unbooked-activities/',
    {
      schema: {
        tags: ['trust-to-ride'],
        querystring: z.looseObject({}),
        response: { 200: unbookedOut },
      },
      config: view,
    },
    async (request) => {
      const customer = opsCustomerFilter(request.query);
      const results = await runInOps(
        deps,
        opsActorOf(request),
        ({ tx }) => unbookedActivities(tx, customer),
        readOnly,
      );
      return { results };
    },
  );
}
