import {
  customerCreate,
  customerOut,
  customerUpdate,
  opsCustomerUserInvite,
  opsCustomerUserOut,
  opsSessionCreate,
  opsSessionOut,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, opsActorOf, requireUser } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { registerResource } from '../../platform/resource-router.js';
import { readOnly, runAsSystem, runInOps } from '../../platform/service-context.js';
import { startSession } from '../../platform/session-cookie.js';
import { customerEntitlements, customers } from '../customers/customers.table.js';
import {
  CUSTOMER_CT,
  createCustomer,
  customerExtras,
  customerUsers,
  inviteCustomerUser,
  presentCustomer,
  setCustomerActivityTypes,
  setCustomerUserActive,
} from './ops-customers.service.js';

const userParams = idParams.extend({ userId: z.string().max(20) });
const READ = { access: { permissions: ['customers.view_all_customers' as const] } };
const CHANGE = { access: { permissions: ['customers.change_customer' as const] } };

const sessionResponse = opsSessionOut;

/** /api/ops/: customers across tenants and the ops session (acting for one customer). */
export async function opsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  registerResource(app, {
    path: '/api/ops/customers/',
    table: customers,
    id: customers.id,
    contentType: 'customers.customer',
    context: 'ops',
    // create: POST below (the customer with its first administrator, in the system's transaction)
    operations: ['list', 'retrieve', 'update', 'partial_update'],
    access: {
      read: { permissions: ['customers.view_all_customers'] },
      write: { permissions: ['customers.change_customer'] },
      create: { permissions: ['customers.add_customer'] },
    },
    present: presentCustomer,
    output: customerOut,
    augment: ({ tx }, rows) =>
      customerExtras(
        tx,
        rows.map((r) => r.id),
      ),
    repr: (c) => c.name,
    filters: { demo_mode: customers.demoMode, is_active: customers.isActive },
    search: [customers.name],
    ordering: { name: customers.name, created_at: customers.createdAt },
    defaultOrdering: 'name',
    update: {
      body: customerUpdate,
      run: async (ctx, existing, d) => {
        const set = {
          ...(d.name !== undefined ? { name: d.name } : {}),
          ...(d.demo_mode !== undefined ? { demoMode: d.demo_mode } : {}),
          ...(d.is_active !== undefined ? { isActive: d.is_active } : {}),
          ...(d.brand !== undefined ? { brand: d.brand } : {}),
          ...(d.contact_name !== undefined ? { contactName: d.contact_name } : {}),
          ...(d.contact_email !== undefined ? { contactEmail: d.contact_email } : {}),
          ...(d.contact_phone !== undefined ? { contactPhone: d.contact_phone } : {}),
        };
        // Nothing to set (an empty PATCH, or entitlements or activity types only): the row as it is.
        const [row] =
          Object.keys(set).length > 0
            ? await ctx.tx
                .update(customers)
                .set(set)
                .where(eq(customers.id, existing.id))
                .returning()
            : [existing];
        if (!row) throw new Error('update returned nothing');
        if (d.entitlements) {
          const before = (
            await ctx.tx
              .delete(customerEntitlements)
              .where(eq(customerEntitlements.customerId, existing.id))
              .returning({ e: customerEntitlements.entitlement })
          ).map((x) => x.e);
          const list = [...new Set(d.entitlements)];
          if (list.length > 0) {
            await ctx.tx
              .insert(customerEntitlements)
              .values(list.map((e) => ({ customerId: existing.id, entitlement: e })));
          }
          // One audit row per entitlement switched on or off.
          const switched = [
            ...list.filter((e) => !before.includes(e)).map((e) => [e, true] as const),
            ...before.filter((e) => !list.some((x) => x === e)).map((e) => [e, false] as const),
          ];
          for (const [e, on] of switched) {
            await recordAudit(ctx.tx, ctx.actor, {
              verb: 'updated',
              contentType: CUSTOMER_CT,
              objectId: existing.id,
              objectRepr: `${existing.name}: ${e}`,
              changes: { [`entitlement.${e}`]: [!on, on] },
              customerId: existing.id,
            });
          }
        }
        if (d.activity_types) await setCustomerActivityTypes(ctx, existing, d.activity_types);
        // Sessions cache the customer's entitlements and demo mode.
        ctx.afterCommit(() => app.deps.sessions.forgetAll());
        return row;
      },
    },
  });

  const mail = { publicUrl: app.deps.config.publicUrl };

  r.post(
    '/api/ops/customers/',
    {
      schema: { tags: ['ops'], body: customerCreate, response: { 201: customerOut } },
      config: { access: { permissions: ['customers.add_customer'] } },
    },
    async (request, reply) => {
      const out = await runAsSystem(
        app.deps,
        (ctx) => createCustomer(ctx, mail, request.body),
        opsActorOf(request),
      );
      return reply.code(201).send(out);
    },
  );

  r.get(
    '/api/ops/customers/:id/users/',
    {
      schema: {
        tags: ['ops'],
        params: idParams,
        response: { 200: z.strictObject({ results: z.array(opsCustomerUserOut) }) },
      },
      config: READ,
    },
    async (request) => ({
      results: await runInOps(
        app.deps,
        opsActorOf(request),
        ({ tx }) => customerUsers(tx, parseId(request.params.id)),
        readOnly,
      ),
    }),
  );

  r.post(
    '/api/ops/customers/:id/users/',
    {
      schema: {
        tags: ['ops'],
        params: idParams,
        body: opsCustomerUserInvite,
        response: { 201: opsCustomerUserOut },
      },
      config: CHANGE,
    },
    async (request, reply) => {
      const out = await runAsSystem(
        app.deps,
        (ctx) => inviteCustomerUser(ctx, mail, parseId(request.params.id), request.body),
        opsActorOf(request),
      );
      return reply.code(201).send(out);
    },
  );

  // Deactivate (or reactivate) one: a deactivated user's sessions end at once.
  r.patch(
    '/api/ops/customers/:id/users/:userId/',
    {
      schema: {
        tags: ['ops'],
        params: userParams,
        body: z.object({ is_active: z.boolean() }),
        response: { 200: opsCustomerUserOut },
      },
      config: CHANGE,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const userId = parseId(request.params.userId);
      const out = await runAsSystem(
        app.deps,
        (ctx) => setCustomerUserActive(ctx, id, userId, request.body.is_active),
        opsActorOf(request),
      );
      if (!out.is_active) await app.deps.sessions.destroyAllForUser('ProductUser', userId);
      return out;
    },
  );

  const switchCustomer = async (
    request: Parameters<typeof actorOf>[0],
    reply: Parameters<typeof startSession>[1],
    customerId: number | null,
  ) => {
    const user = requireUser(request);
    const previous = request.session?.customerId ?? null;
    if (customerId !== null) {
      const found = await runInOps(request.server.deps, actorOf(request), ({ tx }) =>
        tx
          .select({ id: customers.id })
          .from(customers)
          .where(eq(customers.id, customerId))
          .limit(1),
      );
      if (found.length === 0) throw new NotFoundError();
    }
    // The new session and the audit of the switch in one transaction (the cross-tenant one).
    const csrf = await startSession(request, reply, {
      user: { type: user.type, id: user.id },
      customerId,
      keepAuthTime: true,
      also: (tx) =>
        recordAudit(
          tx,
          { ...actorOf(request), customerId: customerId ?? previous },
          {
            verb: customerId === null ? 'ops_session_ended' : 'ops_session_started',
            contentType: 'customers.customer',
            objectId: customerId ?? previous,
          },
        ),
    });
    return { csrf_token: csrf, session_customer: customerId };
  };

  r.post(
    '/api/ops/session/',
    {
      schema: {
        tags: ['ops'],
        body: opsSessionCreate,
        response: { 200: sessionResponse },
      },
      config: { access: { permissions: ['customers.ops_access'] } },
    },
    (request, reply) => switchCustomer(request, reply, request.body.customer),
  );

  r.delete(
    '/api/ops/session/',
    {
      schema: { tags: ['ops'], response: { 200: sessionResponse } },
      config: { access: { permissions: ['customers.ops_access'] } },
    },
    (request, reply) => switchCustomer(request, reply, null),
  );
}
