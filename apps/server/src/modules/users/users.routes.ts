import {
  isBuiltInRole,
  noContent,
  roleCreate,
  roleOut,
  roleUpdate,
  USER_ADMIN_MESSAGES,
  userCreate,
  userListQuery,
  userOut,
  userUpdate,
} from '@kestrel/domain';
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import { actorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { registerResource } from '../../platform/resource-router.js';
import { runInTenant, type ServiceContext } from '../../platform/service-context.js';
import { setUserSegments } from '../segments/segment-users.js';
import { resendInvitation, revokeInvitation } from './commands/invitations.js';
import { checkInvitation, inviteUser } from './commands/invite-user.js';
import {
  actorIsAdministrator,
  assertAdministratorsKept,
  assertGrantable,
  findRole,
  findUser,
  presentUser,
  ROLE_CT,
  roleCondition,
  roleUserCounts,
  setRoles,
  statusCondition,
  USER_CT,
  type UserRow,
  userOutOf,
  usersExtra,
} from './users.service.js';
import { productUsers, roles } from './users.table.js';

function tenantOf(actor: Actor): number {
  if (actor.customerId === null) {
    throw ValidationError.of('non_field_errors', 'Start an ops session for a customer first.');
  }
  return actor.customerId;
}

/**
 * Deactivates or reactivates a user, with the administrator rules (not oneself, never the last
 * active administrator), audited; the caller ends or refreshes the sessions after commit.
 */
async function setActive(
  ctx: Pick<ServiceContext, 'tx' | 'actor'>,
  existing: UserRow,
  active: boolean,
): Promise<UserRow> {
  const { tx, actor } = ctx;
  const customerId = tenantOf(actor);
  if (!active && existing.id === actor.id && actor.type === 'ProductUser') {
    throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.selfDeactivate);
  }
  const wasAdmin = await actorIsAdministrator(tx, customerId, actor);
  const [u] = await tx
    .update(productUsers)
    .set({ isActive: active })
    .where(eq(productUsers.id, existing.id))
    .returning();
  if (!u) throw new Error('update returned nothing');
  await assertAdministratorsKept(tx, customerId, actor, wasAdmin);
  return u;
}

/** The role name is not a built-in one nor another role's of the customer. */
async function checkRoleName(tx: Tx, name: string, except: number | null): Promise<void> {
  if (isBuiltInRole({ customerId: 0, name })) {
    throw ValidationError.of('name', USER_ADMIN_MESSAGES.builtInRoleName);
  }
  const [same] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        sql`lower(${roles.name}) = lower(${name})`,
        except === null ? undefined : ne(roles.id, except),
      ),
    )
    .limit(1);
  if (same) throw ValidationError.of('name', USER_ADMIN_MESSAGES.roleNameTaken);
}

/** /api/users/ (the customer's staff) and /api/roles/ (its roles: custom ones editable). */
export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const mail = { publicUrl: deps.config.publicUrl };

  registerResource(app, {
    path: '/api/users/',
    table: productUsers,
    id: productUsers.id,
    contentType: USER_CT,
    // Create is the invitation command (below).
    operations: ['list', 'retrieve', 'update', 'partial_update', 'delete'],
    access: {
      read: { permissions: ['users.view_productuser'] },
      create: { permissions: ['users.add_productuser'] },
      write: { permissions: ['users.change_productuser'] },
      delete: { permissions: ['users.delete_productuser'] },
    },
    present: presentUser,
    output: userOut,
    augment: ({ tx }, rows) => usersExtra(tx, rows),
    repr: (u) => u.username,
    filters: { is_active: productUsers.isActive },
    // ?status=invited|active|deactivated, ?role={id}
    queryParams: userListQuery.shape,
    where: ({ query }, b) => {
      const parsed = userListQuery.safeParse({ status: query.status, role: query.role });
      if (!parsed.success) {
        throw new ValidationError(
          z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
        );
      }
      const { status, role } = parsed.data;
      const parts: SQL[] = [];
      if (status) {
        b.mark(`status:${status}`);
        parts.push(statusCondition(status));
      }
      if (role !== undefined) parts.push(roleCondition(b.bind('role', role)));
      return parts.length ? and(...parts) : undefined;
    },
    search: [
      productUsers.username,
      productUsers.email,
      productUsers.firstName,
      productUsers.lastName,
      productUsers.jobTitle,
    ],
    ordering: {
      username: productUsers.username,
      last_name: productUsers.lastName,
      created_at: productUsers.createdAt,
    },
    defaultOrdering: 'username',
    update: {
      body: userUpdate,
      run: async (ctx, existing, d) => {
        const { tx, actor } = ctx;
        const customerId = tenantOf(actor);
        if (existing.id === actor.id && d.is_active === false) {
          throw ValidationError.of('is_active', USER_ADMIN_MESSAGES.selfDeactivate);
        }
        const wasAdmin = await actorIsAdministrator(tx, customerId, actor);
        const set = {
          ...(d.first_name !== undefined ? { firstName: d.first_name } : {}),
          ...(d.last_name !== undefined ? { lastName: d.last_name } : {}),
          ...(d.job_title !== undefined ? { jobTitle: d.job_title } : {}),
          ...(d.is_active !== undefined ? { isActive: d.is_active } : {}),
        };
        // A change of roles alone (or an empty PATCH) leaves the row as it is.
        const [u] =
          Object.keys(set).length > 0
            ? await tx
                .update(productUsers)
                .set(set)
                .where(eq(productUsers.id, existing.id))
                .returning()
            : [existing];
        if (!u) throw new Error('update returned nothing');
        if (d.roles) await setRoles(tx, customerId, u.id, d.roles, actor);
        if (d.segments) await setUserSegments(tx, customerId, u.id, d.segments);
        await assertAdministratorsKept(tx, customerId, actor, wasAdmin);
        ctx.afterCommit(async () => {
          if (d.is_active === false) await deps.sessions.destroyAllForUser('ProductUser', u.id);
          else await deps.sessions.forgetUser('ProductUser', u.id);
        });
        return u;
      },
    },
    remove: {
      run: async (ctx, existing) => {
        const customerId = tenantOf(ctx.actor);
        if (existing.id === ctx.actor.id)
          throw ValidationError.of('non_field_errors', 'You cannot delete yourself.');
        const wasAdmin = await actorIsAdministrator(ctx.tx, customerId, ctx.actor);
        await ctx.tx.delete(productUsers).where(eq(productUsers.id, existing.id));
        await assertAdministratorsKept(ctx.tx, customerId, ctx.actor, wasAdmin);
        ctx.afterCommit(() => deps.sessions.destroyAllForUser('ProductUser', existing.id));
      },
    },
  });

  r.post(
    '/api/users/',
    {
      schema: { tags: ['users'], body: userCreate, response: { 201: userOut } },
      config: { access: { permissions: ['users.add_productuser'] } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await checkInvitation(deps, actor, request.body);
      const out = await runInTenant(deps, actor, (ctx) => inviteUser(ctx, mail, request.body));
      reply.code(201);
      return out;
    },
  );

  for (const active of [false, true]) {
    r.post(
      `/api/users/:id/${active ? 'reactivate' : 'deactivate'}/`,
      {
        schema: { tags: ['users'], params: idParams, response: { 200: userOut } },
        config: { access: { permissions: ['users.change_productuser'] } },
      },
      async (request) => {
        const actor = actorOf(request);
        const out = await runInTenant(deps, actor, async (ctx) => {
          const existing = await findUser(ctx.tx, parseId(request.params.id));
          if (existing.isActive === active) {
            throw ValidationError.of(
              'non_field_errors',
              active ? USER_ADMIN_MESSAGES.alreadyActive : USER_ADMIN_MESSAGES.alreadyDeactivated,
            );
          }
          const u = await setActive(ctx, existing, active);
          await recordAudit(ctx.tx, actor, {
            verb: 'updated',
            contentType: USER_CT,
            objectId: u.id,
            objectRepr: u.username,
            changes: { is_active: [existing.isActive, u.isActive] },
          });
          return userOutOf(ctx.tx, u);
        });
        // Every session of a deactivated user ends at once: its next check-session is a 403.
        if (active) await deps.sessions.forgetUser('ProductUser', out.id);
        else await deps.sessions.destroyAllForUser('ProductUser', out.id);
        return out;
      },
    );
  }

  r.post(
    '/api/users/:id/resend-invitation/',
    {
      schema: { tags: ['users'], params: idParams, response: { 200: userOut } },
      config: { access: { permissions: ['users.add_productuser'] } },
    },
    async (request) => resendInvitation(deps, mail, actorOf(request), parseId(request.params.id)),
  );

  r.post(
    '/api/users/:id/revoke-invitation/',
    {
      schema: { tags: ['users'], params: idParams, response: { 204: noContent } },
      config: { access: { permissions: ['users.delete_productuser'] } },
    },
    async (request, reply) => {
      await revokeInvitation(deps, actorOf(request), parseId(request.params.id));
      reply.code(204).send();
    },
  );

  registerResource(app, {
    path: '/api/roles/',
    table: roles,
    id: roles.id,
    contentType: ROLE_CT,
    access: {
      read: { permissions: ['roles.view_role'] },
      create: { permissions: ['roles.add_role'] },
      write: { permissions: ['roles.change_role'] },
      delete: { permissions: ['roles.delete_role'] },
    },
    present: (r) => ({
      id: r.id,
      name: r.name,
      permissions: r.permissions,
      built_in: isBuiltInRole(r),
    }),
    augment: async ({ tx }, rows) =>
      (
        await roleUserCounts(
          tx,
          rows.map((r) => r.id),
        )
      ).map((user_count) => ({ user_count })),
    output: roleOut,
    repr: (r) => r.name,
    search: [roles.name],
    ordering: { name: roles.name },
    defaultOrdering: 'name',
    create: {
      body: roleCreate,
      run: async ({ tx, actor }, d) => {
        const customerId = tenantOf(actor);
        await checkRoleName(tx, d.name, null);
        assertGrantable(actor, d.permissions, 'permissions');
        const [row] = await tx
          .insert(roles)
          .values({ customerId, name: d.name, permissions: d.permissions })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        return row;
      },
    },
    update: {
      body: roleUpdate,
      run: async (ctx, existing, d) => {
        const { tx, actor } = ctx;
        const customerId = tenantOf(actor);
        await findRole(tx, existing.id);
        if (isBuiltInRole(existing)) {
          throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.builtInRole);
        }
        if (d.name !== undefined) await checkRoleName(tx, d.name, existing.id);
        // an empty change changes nothing (an UPDATE with no column would fail)
        if (d.name === undefined && d.permissions === undefined) return existing;
        // what the role gains must be the actor's own; what it keeps or loses gives nothing
        if (d.permissions !== undefined) {
          const had = existing.permissions;
          assertGrantable(
            actor,
            d.permissions.filter((p) => !had.includes(p)),
            'permissions',
          );
        }
        const wasAdmin = await actorIsAdministrator(tx, customerId, actor);
        const [row] = await tx
          .update(roles)
          .set({
            ...(d.name !== undefined ? { name: d.name } : {}),
            ...(d.permissions !== undefined ? { permissions: d.permissions } : {}),
          })
          .where(eq(roles.id, existing.id))
          .returning();
        if (!row) throw new Error('update returned nothing');
        await assertAdministratorsKept(tx, customerId, actor, wasAdmin);
        // The holders' cached permissions follow at their next request.
        ctx.afterCommit(() => deps.sessions.forgetAll());
        return row;
      },
    },
    remove: {
      run: async ({ tx }, existing) => {
        if (isBuiltInRole(existing)) {
          throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.builtInRole);
        }
        await findRole(tx, existing.id);
        const [held] = await roleUserCounts(tx, [existing.id]);
        if (held) throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.roleInUse(held));
        await tx.delete(roles).where(eq(roles.id, existing.id));
      },
    },
  });
}
