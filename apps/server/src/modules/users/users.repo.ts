import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { customers } from '../customers/customers.table.js';
import { productUserRoles, productUsers, roles, subjectUsers } from './users.table.js';

export type ProductUserRow = typeof productUsers.$inferSelect;
export type SubjectUserRow = typeof subjectUsers.$inferSelect;

export type LoginCandidate =
  | { type: 'ProductUser'; row: ProductUserRow }
  | { type: 'SubjectUser'; row: SubjectUserRow };

/** Finds the account a username (or a subject's email) names. Needs the ops (all) scope. */
export async function findLoginCandidate(tx: Tx, username: string): Promise<LoginCandidate | null> {
  const name = username.trim().toLowerCase();
  const [pu] = await tx
    .select()
    .from(productUsers)
    .where(sql`lower(${productUsers.username}) = ${name}`)
    .limit(1);
  if (pu) return { type: 'ProductUser', row: pu };
  const [su] = await tx
    .select()
    .from(subjectUsers)
    .where(sql`lower(${subjectUsers.email}) = ${name}`)
    .limit(1);
  return su ? { type: 'SubjectUser', row: su } : null;
}

/** Finds the account an email belongs to (password reset). Needs the ops (all) scope. */
export async function findByEmail(tx: Tx, email: string): Promise<LoginCandidate | null> {
  const e = email.trim().toLowerCase();
  const [pu] = await tx
    .select()
    .from(productUsers)
    .where(sql`lower(${productUsers.email}) = ${e} or lower(${productUsers.username}) = ${e}`)
    .limit(1);
  if (pu) return { type: 'ProductUser', row: pu };
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
