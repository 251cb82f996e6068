import {
  customerCreate,
  customerOut,
  customerUpdate,
  opsSessionCreate,
  opsSessionOut,
} from '@kestrel/domain';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requireUser } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource-router.js';
import { runInOps } from '../../platform/service-context.js';
import { startSession } from '../../platform/session-cookie.js';
import { customerEntitlements, customers } from '../customers/customers.table.js';

type CustomerRow = typeof customers.$inferSelect;
const presentCustomer = (c: CustomerRow) => ({
  id: c.id,
  name: c.name,
  demo_mode: c.demoMode,
  is_active: c.isActive,
  created_at: c.createdAt.toISOString(),
});

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
    operations: ['list', 'retrieve', 'create', 'update', 'partial_update'],
    access: {
      read: { permissions: ['customers.view_all_customers'] },
      write: { permissions: ['customers.change_customer'] },
      create: { permissions: ['customers.add_customer'] },
    },
    present: presentCustomer,
    output: customerOut,
    augment: async ({ tx }, rows) => {
      const ids = rows.map((r) => r.id);
      const ents = ids.length
        ? await tx
            .select()
            .from(customerEntitlements)
            .where(inArray(customerEntitlements.customerId, ids))
        : [];
      return rows.map((r) => ({
        entitlements: ents
          .filter((e) => e.customerId === r.id)
          .map((e) => e.entitlement)
          .sort(),
      }));
    },
    repr: (c) => c.name,
    filters: { demo_mode: customers.demoMode, is_active: customers.isActive },
    search: [customers.name],
    ordering: { name: customers.name, created_at: customers.createdAt },
    defaultOrdering: 'name',
    create: {
      body: customerCreate,
      run: async ({ tx }, data) => {
        const [row] = await tx
          .insert(customers)
          .values({ name: data.name, demoMode: data.demo_mode })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        if (data.entitlements.length > 0) {
          await tx
            .insert(customerEntitlements)
            .values(data.entitlements.map((entitlement) => ({ customerId: row.id, entitlement })));
        }
        return row;
      },
    },
    update: {
      body: customerUpdate,
      run: async (ctx, existing, d) => {
        const set = {
          ...(d.name !== undefined ? { name: d.name } : {}),
          ...(d.demo_mode !== undefined ? { demoMode: d.demo_mode } : {}),
          ...(d.is_active !== undefined ? { isActive: d.is_active } : {}),
        };
        // Nothing to set (an empty PATCH, or entitlements only): the row as it is.
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
          await ctx.tx
            .delete(customerEntitlements)
            .where(eq(customerEntitlements.customerId, existing.id));
          const list = [...new Set(d.entitlements)];
          if (list.length > 0) {
            await ctx.tx
              .insert(customerEntitlements)
              .values(list.map((e) => ({ customerId: existing.id, entitlement: e })));
          }
        }
        // Sessions cache the customer's entitlements and demo mode.
        ctx.afterCommit(() => app.deps.sessions.forgetAll());
        return row;
      },
    },
  });

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
