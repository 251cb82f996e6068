import type { UserOut } from '@kestrel/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { ValidationError } from '../../platform/errors.js';
import { productUserRoles, type productUsers, roles } from './users.table.js';

export type UserRow = typeof productUsers.$inferSelect;
export const USER_CT = 'users.productuser';

/** A staff member as /api/users/ returns it, without its roles (see `rolesOf`). */
export const presentUser = (u: UserRow): Omit<UserOut, 'roles'> => ({
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

/** Replaces a user's roles with `ids`, which must be roles of the tenant (RLS hides others). */
export async function setRoles(tx: Tx, customerId: number | null, userId: number, ids: number[]) {
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
