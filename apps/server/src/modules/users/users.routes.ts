import { userCreate, userOut, userUpdate } from '@kestrel/domain';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/connection.js';
import { emailJob } from '../../jobs/send-email.js';
import { emailSite } from '../../platform/email-site.js';
import { brandedEmail } from '../../platform/email-template.js';
import { API_MESSAGES, ValidationError } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource-router.js';
import { runAsSystem } from '../../platform/service-context.js';
import { issueAccountToken } from '../accounts/accounts.service.js';
import { findLoginCandidate } from './users.repo.js';
import { productUserRoles, productUsers, roles } from './users.table.js';

type UserRow = typeof productUsers.$inferSelect;
const SET_PASSWORD_TTL_MS = 7 * 24 * 60 * 60_000;

const presentUser = (u: UserRow) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  job_title: u.jobTitle,
  is_active: u.isActive,
  totp_enabled: u.totpEnabled,
  created_at: u.createdAt.toISOString(),
});

/** Replaces a user's roles with `ids`, which must be roles of the tenant (RLS hides others). */
async function setRoles(tx: Tx, customerId: number | null, userId: number, ids: number[]) {
  const found = ids.length
    ? await tx.select({ id: roles.id }).from(roles).where(inArray(roles.id, ids))
    : [];
  if (found.length !== new Set(ids).size) throw ValidationError.of('roles', 'Unknown role.');
  await tx.delete(productUserRoles).where(eq(productUserRoles.userId, userId));
  if (ids.length) {
    await tx
      .insert(productUserRoles)
      .values([...new Set(ids)].map((roleId) => ({ customerId, userId, roleId })));
  }
}

/** /api/users/ (the customer's staff) and /api/roles/. */
export async function usersRoutes(app: FastifyInstance) {
  const deps = app.deps;

  registerResource(app, {
    path: '/api/users/',
    table: productUsers,
    id: productUsers.id,
    contentType: 'users.productuser',
    access: {
      read: { permissions: ['users.view_productuser'] },
      create: { permissions: ['users.add_productuser'] },
      write: { permissions: ['users.change_productuser'] },
      delete: { permissions: ['users.delete_productuser'] },
    },
    present: presentUser,
    output: userOut,
    augment: async ({ tx }, rows) => {
      const ids = rows.map((r) => r.id);
      const links = ids.length
        ? await tx
            .select({ userId: productUserRoles.userId, roleId: productUserRoles.roleId })
            .from(productUserRoles)
            .where(inArray(productUserRoles.userId, ids))
        : [];
      return rows.map((r) => ({
        roles: links
          .filter((l) => l.userId === r.id)
          .map((l) => l.roleId)
          .sort((a, b) => a - b),
      }));
    },
    repr: (u) => u.username,
    filters: { is_active: productUsers.isActive },
    search: [productUsers.username, productUsers.firstName, productUsers.lastName],
    ordering: {
      username: productUsers.username,
      last_name: productUsers.lastName,
      created_at: productUsers.createdAt,
    },
    defaultOrdering: 'username',
    create: {
      body: userCreate,
      prepare: async (actor, d) => {
        if (actor.customerId === null) {
          throw ValidationError.of(
            'non_field_errors',
            'Start an ops session for a customer first.',
          );
        }
        if (await runAsSystem(deps, ({ tx }) => findLoginCandidate(tx, d.email))) {
          throw ValidationError.of('email', API_MESSAGES.userEmailTaken);
        }
      },
      run: async (ctx, d) => {
        const email = d.email.toLowerCase();
        const [u] = await ctx.tx
          .insert(productUsers)
          .values({
            customerId: ctx.actor.customerId,
            username: email,
            email,
            firstName: d.first_name,
            lastName: d.last_name,
            jobTitle: d.job_title,
          })
          .returning();
        if (!u) throw new Error('insert returned nothing');
        await setRoles(ctx.tx, ctx.actor.customerId, u.id, d.roles);
        const token = await issueAccountToken(ctx.tx, deps.clock.now(), {
          purpose: 'reset',
          type: 'ProductUser',
          id: u.id,
          customerId: u.customerId,
          ttlMs: SET_PASSWORD_TTL_MS,
        });
        const site = emailSite(ctx.actor.brandAddress, deps.config.publicUrl);
        const link = `${site.publicUrl}/auth/set-password?token=${encodeURIComponent(token)}`;
        await ctx.enqueue(
          emailJob(
            brandedEmail(site, {
              to: email,
              subject: `Your ${site.brand.name} account`,
              greeting: `Hello ${d.first_name},`,
              paragraphs: [`An account has been created for you in ${site.brand.name}.`],
              action: { label: 'Choose your password', url: link },
              after: ['The link works once, for seven days.'],
            }),
          ),
        );
        return u;
      },
    },
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

  registerResource(app, {
    path: '/api/roles/',
    table: roles,
    id: roles.id,
    contentType: 'users.role',
    operations: ['list', 'retrieve'],
    access: { read: { permissions: ['roles.view_role'] } },
    present: (r) => ({ id: r.id, name: r.name, permissions: r.permissions }),
    search: [roles.name],
    ordering: { name: roles.name },
    defaultOrdering: 'name',
  });
}
