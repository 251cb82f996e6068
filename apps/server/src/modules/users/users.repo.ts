import { desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { isOpsUser } from '../../platform/context.js';
import { customers } from '../customers/customers.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { productUserRoles, productUsers, roles, subjectUsers } from './users.table.js';

export type ProductUserRow = typeof productUsers.$inferSelect;
export type SubjectUserRow = typeof subjectUsers.$inferSelect;

/** An account that may log in, with the customer its session acts for. */
export type LoginCandidate =
  | { type: 'ProductUser'; row: ProductUserRow; customerId: number | null }
  | { type: 'SubjectUser'; row: SubjectUserRow; customerId: number | null };

/** Finds the account a username (or a subject's email) names. Needs the ops (all) scope. */
export async function findLoginCandidate(tx: Tx, username: string): Promise<LoginCandidate | null> {
  const name = username.trim().toLowerCase();
  const [pu] = await tx
    .select()
    .from(productUsers)
    .where(sql`lower(${productUsers.username}) = ${name}`)
    .limit(1);
  if (pu) return { type: 'ProductUser', row: pu, customerId: pu.customerId };
  const [su] = await tx
    .select()
    .from(subjectUsers)
    .where(sql`lower(${subjectUsers.email}) = ${name}`)
    .limit(1);
  return su ? { type: 'SubjectUser', row: su, customerId: await subjectCustomer(tx, su.id) } : null;
}

/**
 * The customer a subject's session acts for: the one that most recently took the person on
 * (its newest unarchived record, else its newest record). Needs the ops (all) scope.
 */
export async function subjectCustomer(tx: Tx, userId: number): Promise<number | null> {
  const [s] = await tx
    .select({ customerId: subjects.customerId })
    .from(subjects)
    .where(eq(subjects.userId, userId))
    .orderBy(sql`${subjects.archivedAt} is null desc`, desc(subjects.createdAt), desc(subjects.id))
    .limit(1);
  return s?.customerId ?? null;
}

/** Finds the account an email belongs to (password reset). Needs the ops (all) scope. */
export async function findByEmail(tx: Tx, email: string): Promise<LoginCandidate | null> {
  const e = email.trim().toLowerCase();
  const [pu] = await tx
    .select()
    .from(productUsers)
    .where(sql`lower(${productUsers.email}) = ${e} or lower(${productUsers.username}) = ${e}`)
    .limit(1);
  if (pu) return { type: 'ProductUser', row: pu, customerId: pu.customerId };
  return findLoginCandidate(tx, e);
}

export async function getProductUser(tx: Tx, id: number): Promise<ProductUserRow | null> {
  const [row] = await tx.select().from(productUsers).where(eq(productUsers.id, id)).limit(1);
  return row ?? null;
}

export async function getSubjectUser(tx: Tx, id: number): Promise<SubjectUserRow | null> {
  const [row] = await tx.select().from(subjectUsers).where(eq(subjectUsers.id, id)).limit(1);
  return row ?? null;
}

/** Role names of a product user. */
export async function roleNamesOf(tx: Tx, userId: number): Promise<string[]> {
  const rows = await tx
    .select({ name: roles.name })
    .from(productUserRoles)
    .innerJoin(roles, eq(roles.id, productUserRoles.roleId))
    .where(eq(productUserRoles.userId, userId))
    .orderBy(roles.name);
  return rows.map((r) => r.name);
}

export async function getCustomer(tx: Tx, id: number) {
  const [row] = await tx.select().from(customers).where(eq(customers.id, id)).limit(1);
  return row ?? null;
}

/** True for ops staff (`isOpsUser`, as the session decides it). Needs the ops (all) scope. */
export async function isOpsAccount(tx: Tx, userId: number): Promise<boolean> {
  const rows = await tx
    .select({ customerId: productUsers.customerId, permissions: roles.permissions })
    .from(productUsers)
    .innerJoin(productUserRoles, eq(productUserRoles.userId, productUsers.id))
    .innerJoin(roles, eq(roles.id, productUserRoles.roleId))
    .where(eq(productUsers.id, userId));
  const [first] = rows;
  if (!first) return false; // no role, no permission
  return isOpsUser(
    'ProductUser',
    first.customerId,
    rows.flatMap((r) => r.permissions),
  );
}
