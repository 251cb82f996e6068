import {
  ADMINISTRATOR_PERMISSION,
  type BrandDetails,
  brandDetails,
  knownBrandForHost,
  USER_ADMIN_MESSAGES,
  type UserOut,
  type UserStatus,
  userStatusOf,
} from '@kestrel/domain';
import { and, eq, inArray, max, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import type { Actor } from '../../platform/context.js';
import type { EmailSite } from '../../platform/email-site.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { customers } from '../customers/customers.table.js';
import { segmentsOfUsers } from '../segments/segment-users.js';
import { productUserRoles, productUsers, roles } from './users.table.js';

export type UserRow = typeof productUsers.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export const USER_CT = 'users.productuser';
export const ROLE_CT = 'users.role';

/** What `usersExtra` adds to `presentUser`. */
type UserExtra = Pick<UserOut, 'roles' | 'status' | 'last_login_at' | 'segments'>;

/** A staff member as /api/users/ returns it, without what `usersExtra` adds. */
export const presentUser = (u: UserRow): Omit<UserOut, keyof UserExtra> => ({
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

/** A sign-in of a staff member as the audit trail keeps it (accounts and sso write them). */
const signIn = and(eq(auditActions.contentType, USER_CT), eq(auditActions.verb, 'logged_in'));

/** True (SQL) when the user has ever signed in: the trail's `logged_in` of that user. */
export const hasSignedIn = sql`exists (select 1 from ${auditActions} where ${signIn} and ${auditActions.customerId} = ${productUsers.customerId} and ${auditActions.objectId} = ${productUsers.id}::text)`;

/** The list's ?status= as SQL (invited: never claimed; see userStatusOf). */
export function statusCondition(status: UserStatus): SQL {
  const claimed = sql`(${productUsers.passwordHash} is not null or ${hasSignedIn})`;
  if (status === 'deactivated') return sql`not ${productUsers.isActive}`;
  if (status === 'active') return sql`${productUsers.isActive} and ${claimed}`;
  return sql`${productUsers.isActive} and not ${claimed}`;
}

/** The list's ?role= as SQL: users holding that role. */
export const roleCondition = (roleId: number | ReturnType<typeof sql.placeholder>): SQL =>
  sql`exists (select 1 from ${productUserRoles} where ${productUserRoles.userId} = ${productUsers.id} and ${productUserRoles.roleId} = ${roleId})`;

/** The last sign-in of each user (ISO), from the audit trail; absent when never. */
async function lastSignIns(tx: Tx, rows: UserRow[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const customerId = rows[0]?.customerId;
  if (rows.length === 0 || customerId === undefined || customerId === null) return out;
  const found = await tx
    .select({ id: auditActions.objectId, at: max(auditActions.createdAt) })
    .from(auditActions)
    .where(
      and(
        eq(auditActions.customerId, customerId),
        signIn,
        inArray(
          auditActions.objectId,
          rows.map((r) => String(r.id)),
        ),
      ),
    )
    .groupBy(auditActions.objectId);
  for (const f of found) if (f.at) out.set(Number(f.id), new Date(f.at).toISOString());
  return out;
}

/** The role ids of each user, in the order of `userIds` (one query). */
export async function rolesOf(tx: Tx, userIds: number[]): Promise<{ roles: number[] }[]> {
  const links = userIds.length
    ? await tx
        .select({ userId: productUserRoles.userId, roleId: productUserRoles.roleId })
        .from(productUserRoles)
        .where(inArray(productUserRoles.userId, userIds))
    : [];
  return userIds.map((id) => ({
    roles: links
      .filter((l) => l.userId === id)
      .map((l) => l.roleId)
      .sort((a, b) => a - b),
  }));
}

/** Roles, segments, status and last sign-in of a page of users (one query each), in order. */
export async function usersExtra(tx: Tx, rows: UserRow[]): Promise<UserExtra[]> {
  const ids = rows.map((r) => r.id);
  const roleLists = await rolesOf(tx, ids);
  const logins = await lastSignIns(tx, rows);
  const customerId = rows[0]?.customerId ?? null;
  const segs =
    customerId === null ? new Map<number, number[]>() : await segmentsOfUsers(tx, customerId, ids);
  return rows.map((u, i) => {
    const last = logins.get(u.id) ?? null;
    return {
      roles: roleLists[i]?.roles ?? [],
      status: userStatusOf({ isActive: u.isActive, claimed: u.passwordHash !== null || !!last }),
      last_login_at: last,
      segments: segs.get(u.id) ?? [],
    };
  });
}

/** One user as /api/users/{id}/ returns it. */
export async function userOutOf(tx: Tx, u: UserRow): Promise<UserOut> {
  const [extra] = await usersExtra(tx, [u]);
  if (!extra) throw new Error('no extra');
  return { ...presentUser(u), ...extra };
}

/** The tenant's user `id` (RLS hides other customers': 404), locked for the change. */
export async function findUser(tx: Tx, id: number): Promise<UserRow> {
  const [row] = await tx
    .select()
    .from(productUsers)
    .where(eq(productUsers.id, id))
    .limit(1)
    .for('update');
  if (!row) throw new NotFoundError();
  return row;
}

/** Who gives roles or permissions: the acting user's (or API key's) own permissions. */
export type Giver = Pick<Actor, 'permissions'>;

/**
 * Refuses (400 on `field`) the permissions of `wanted` that the giver does not hold, in the order
 * asked (decision 028: no one gives more than they hold).
 */
export function assertGrantable(giver: Giver, wanted: readonly string[], field: string): void {
  const held: ReadonlySet<string> = giver.permissions;
  const above = [...new Set(wanted)].filter((p) => !held.has(p));
  if (above.length > 0)
    throw ValidationError.of(field, USER_ADMIN_MESSAGES.grantPermissions(above));
}

/**
 * Replaces a user's roles with `ids`, which must be roles of the tenant (RLS hides others). A
 * role the user does not hold yet is given only when the giver holds all its permissions
 * (decision 028); keeping one the user holds gives nothing.
 */
export async function setRoles(
  tx: Tx,
  customerId: number | null,
  userId: number,
  ids: number[],
  giver: Giver,
) {
  const found = ids.length
    ? await tx
        .select({ id: roles.id, name: roles.name, permissions: roles.permissions })
        .from(roles)
        .where(inArray(roles.id, ids))
    : [];
  if (found.length !== new Set(ids).size) throw ValidationError.of('roles', 'Unknown role.');
  const [current] = await rolesOf(tx, [userId]);
  const held: ReadonlySet<string> = giver.permissions;
  const given = ids.filter((id) => !current?.roles.includes(id));
  const above = found
    .filter((r) => given.includes(r.id) && r.permissions.some((p) => !held.has(p)))
    .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
    .map((r) => r.name);
  if (above.length > 0) throw ValidationError.of('roles', USER_ADMIN_MESSAGES.grantRole(above));
  await tx.delete(productUserRoles).where(eq(productUserRoles.userId, userId));
  if (ids.length) {
    await tx
      .insert(productUserRoles)
      .values([...new Set(ids)].map((roleId) => ({ customerId, userId, roleId })));
  }
}

/** The active administrators of the tenant (users whose roles let them change users). */
async function activeAdministrators(tx: Tx, customerId: number): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ id: productUsers.id })
    .from(productUsers)
    .innerJoin(productUserRoles, eq(productUserRoles.userId, productUsers.id))
    .innerJoin(roles, eq(roles.id, productUserRoles.roleId))
    .where(
      and(
        eq(productUsers.customerId, customerId),
        eq(productUsers.isActive, true),
        sql`${ADMINISTRATOR_PERMISSION} = any(${roles.permissions})`,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * Run after a change to users or roles, in its transaction (a refusal rolls it back): the
 * organisation keeps an active administrator, and the acting user, when they were one of its
 * administrators, still is one (`wasAdmin`: the actor's state before the change).
 */
export async function assertAdministratorsKept(
  tx: Tx,
  customerId: number,
  actor: { id: number | null; type: string | null },
  wasAdmin: boolean,
): Promise<void> {
  const admins = await activeAdministrators(tx, customerId);
  if (wasAdmin && actor.id !== null && !admins.includes(actor.id)) {
    throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.selfDemote);
  }
  if (admins.length === 0) {
    throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.lastAdministrator);
  }
}

/** True when the actor is an active administrator of the tenant (before a change). */
export async function actorIsAdministrator(
  tx: Tx,
  customerId: number,
  actor: { id: number | null; type: string | null },
): Promise<boolean> {
  const id = actor.id;
  if (actor.type !== 'ProductUser' || id === null) return false;
  return (await activeAdministrators(tx, customerId)).includes(id);
}

/**
 * The site of a staff invitation: the customer's brand (customers.brand), linking to the host the
 * inviting person used when it is that brand's, else to PUBLIC_URL.
 */
export async function customerEmailSite(
  tx: Tx,
  customerId: number,
  actorAddress: string | undefined,
  publicUrl: string,
): Promise<EmailSite> {
  const [c] = await tx
    .select({ brand: customers.brand })
    .from(customers)
    .where(eq(customers.id, customerId));
  const brand = brandOf(c?.brand);
  const address = (actorAddress ?? publicUrl).replace(/\/$/, '');
  const hostBrand = knownBrandForHost(new URL(address).hostname);
  const base = hostBrand === null || hostBrand.id === brand.id ? address : publicUrl;
  return { brand, publicUrl: base.replace(/\/$/, '') };
}

function brandOf(id: string | undefined): BrandDetails {
  return brandDetails(id === 'harrier' ? 'harrier' : 'kestrel');
}

/** The tenant's role `id` (404 when not visible), locked for the change. */
export async function findRole(tx: Tx, id: number): Promise<RoleRow> {
  const [row] = await tx.select().from(roles).where(eq(roles.id, id)).limit(1).for('update');
  if (!row) throw new NotFoundError();
  return row;
}

/** How many users hold each role, in the order of `roleIds`. */
export async function roleUserCounts(tx: Tx, roleIds: number[]): Promise<number[]> {
  const rows = roleIds.length
    ? await tx
        .select({ roleId: productUserRoles.roleId, n: sql<number>`count(*)::int` })
        .from(productUserRoles)
        .where(inArray(productUserRoles.roleId, roleIds))
        .groupBy(productUserRoles.roleId)
    : [];
  return roleIds.map((id) => rows.find((r) => r.roleId === id)?.n ?? 0);
}
