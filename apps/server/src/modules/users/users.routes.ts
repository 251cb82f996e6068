import { roleOut, userCreate, userOut, userUpdate } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { ValidationError } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource-router.js';
import { runInTenant } from '../../platform/service-context.js';
import { checkInvitation, inviteUser } from './commands/invite-user.js';
import { presentUser, rolesOf, setRoles, USER_CT } from './users.service.js';
import { productUsers, roles } from './users.table.js';

/** /api/users/ (the customer's staff) and /api/roles/. */
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
    augment: ({ tx }, rows) =>
      rolesOf(
        tx,
        rows.map((r) => r.id),
      ),
    repr: (u) => u.username,
    filters: { is_active: productUsers.isActive },
    search: [productUsers.username, productUsers.firstName, productUsers.lastName],
    ordering: {
      username: productUsers.username,
      last_name: productUsers.lastName,
      created_at: productUsers.createdAt,
    },
    defaultOrdering: 'username',
    update: {
      body: userUpdate,
      run: async (ctx, existing, d) => {
        if (existing.id === ctx.actor.id && d.is_active === false) {
          throw ValidationError.of('is_active', 'You cannot deactivate yourself.');
        }
        const set = {
          ...(d.first_name !== undefined ? { firstName: d.first_name } : {}),
          ...(d.last_name !== undefined ? { lastName: d.last_name } : {}),
          ...(d.job_title !== undefined ? { jobTitle: d.job_title } : {}),
          ...(d.is_active !== undefined ? { isActive: d.is_active } : {}),
        };
        // A change of roles alone (or an empty PATCH) leaves the row as it is.
        const [u] =
          Object.keys(set).length > 0
            ? await ctx.tx
                .update(productUsers)
                .set(set)
                .where(eq(productUsers.id, existing.id))
                .returning()
            : [existing];
        if (!u) throw new Error('update returned nothing');
        if (d.roles) await setRoles(ctx.tx, existing.customerId, u.id, d.roles);
        ctx.afterCommit(async () => {
          if (d.is_active === false) await deps.sessions.destroyAllForUser('ProductUser', u.id);
          else await deps.sessions.forgetUser('ProductUser', u.id);
        });
        return u;
      },
    },
    remove: {
      run: async (ctx, existing) => {
        if (existing.id === ctx.actor.id)
          throw ValidationError.of('non_field_errors', 'You cannot delete yourself.');
        await ctx.tx.delete(productUsers).where(eq(productUsers.id, existing.id));
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

  registerResource(app, {
    path: '/api/roles/',
    table: roles,
    id: roles.id,
    contentType: 'users.role',
    operations: ['list', 'retrieve'],
    access: { read: { permissions: ['roles.view_role'] } },
    present: (r) => ({ id: r.id, name: r.name, permissions: r.permissions }),
    output: roleOut,
    search: [roles.name],
    ordering: { name: roles.name },
    defaultOrdering: 'name',
  });
}
