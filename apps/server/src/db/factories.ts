import { type Entitlement, type Permission, ROLE_TEMPLATES, type RoleName } from '@kestrel/domain';
import { inArray, sql } from 'drizzle-orm';
import { activityTypes } from '../modules/bootstrap/bootstrap.table.js';
import { customerEntitlements, customers } from '../modules/customers/customers.table.js';
import {
  productUserRoles,
  productUsers,
  roles,
  subjectUsers,
} from '../modules/users/users.table.js';
import { hashPassword } from '../platform/passwords.js';
import type { Tx } from './connection.js';

// Factories build rows with sensible defaults and create missing parents. They take a
// transaction: tests and the demo seed run them as the owner (db.ownerTransaction).

let seq = 0;
const next = () => {
  seq += 1;
  return `${Date.now().toString(36)}${seq}`;
};

const hashes = new Map<string, Promise<string>>();
/** argon2id once per distinct password per process (factories run often in tests). */
function cachedHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
}

export interface CustomerInput {
  name?: string;
  demoMode?: boolean;
  entitlements?: Entitlement[];
  /** Activity type codes the customer may order; default every type. */
  activityTypes?: string[] | 'all';
}

export async function createCustomer(tx: Tx, input: CustomerInput = {}) {
  const [c] = await tx
    .insert(customers)
    .values({ name: input.name ?? `Customer ${next()}`, demoMode: input.demoMode ?? false })
    .returning();
  if (!c) throw new Error('customer insert returned nothing');
  if (input.entitlements?.length) {
    await tx
      .insert(customerEntitlements)
      .values(input.entitlements.map((entitlement) => ({ customerId: c.id, entitlement })));
  }
  const types = input.activityTypes ?? 'all';
  await tx.execute(sql`
    insert into customer_activity_types (customer_id, activity_type_id)
    select ${c.id}, id from activity_types
    where ${types === 'all' ? sql`true` : inArray(activityTypes.code, types)}`);
  return c;
}

export interface RoleInput {
  customerId: number | null;
  name?: string;
  /** Permission strings, or a built-in template name. */
  permissions?: readonly Permission[] | RoleName;
}

export async function createRole(tx: Tx, input: RoleInput) {
  const perms = input.permissions ?? 'viewer';
  const list = typeof perms === 'string' ? ROLE_TEMPLATES[perms] : perms;
  const [r] = await tx
    .insert(roles)
    .values({
      customerId: input.customerId,
      name: input.name ?? (typeof perms === 'string' ? perms : `role ${next()}`),
      permissions: [...list],
    })
    .returning();
  if (!r) throw new Error('role insert returned nothing');
  return r;
}

export interface ProductUserInput {
  /** null = ops staff; undefined = a new customer. */
  customerId?: number | null;
  username?: string;
  email?: string;
  password?: string | null;
  firstName?: string;
  lastName?: string;
  jobTitle?: string;
  /** Role ids, or template names (a role of that template is created for the customer). */
  roles?: (number | RoleName)[];
  totpSecret?: string | null;
  termsAgreedAt?: Date | null;
  isActive?: boolean;
}

export async function createProductUser(tx: Tx, input: ProductUserInput = {}) {
  const customerId =
    input.customerId === undefined ? (await createCustomer(tx)).id : input.customerId;
  const username = (input.username ?? `user-${next()}@example.test`).toLowerCase();
  const [u] = await tx
    .insert(productUsers)
    .values({
      customerId,
      username,
      email: input.email ?? username,
      firstName: input.firstName ?? 'Test',
      lastName: input.lastName ?? 'User',
      jobTitle: input.jobTitle ?? '',
      passwordHash:
        input.password === null
          ? null
          : await cachedHash(input.password ?? 'kestrel-test-password'),
      totpSecret: input.totpSecret ?? null,
      totpEnabled: Boolean(input.totpSecret),
      termsAgreedAt: input.termsAgreedAt === undefined ? new Date() : input.termsAgreedAt,
      isActive: input.isActive ?? true,
    })
    .returning();
  if (!u) throw new Error('user insert returned nothing');
  for (const role of input.roles ?? [customerId === null ? 'ops' : 'admin']) {
    const roleId =
      typeof role === 'number'
        ? role
        : (await createRole(tx, { customerId, permissions: role })).id;
    await tx.insert(productUserRoles).values({ customerId, userId: u.id, roleId });
  }
  return u;
}

export interface SubjectUserInput {
  customerId?: number;
  email?: string;
  /** null = not claimed yet (no password). */
  password?: string | null;
  firstName?: string;
  lastName?: string;
  middlename?: string;
  dob?: string | null;
  phoneNumber?: string;
  termsAgreedAt?: Date | null;
}

export async function createSubjectUser(tx: Tx, input: SubjectUserInput = {}) {
  const customerId = input.customerId ?? (await createCustomer(tx)).id;
  const email = (input.email ?? `subject-${next()}@example.test`).toLowerCase();
  const [s] = await tx
    .insert(subjectUsers)
    .values({
      customerId,
      email,
      firstName: input.firstName ?? 'Sam',
      lastName: input.lastName ?? 'Subject',
      middlename: input.middlename ?? '',
      dob: input.dob === undefined ? '1990-04-12' : input.dob,
      phoneNumber: input.phoneNumber ?? '+447700900123',
      termsAgreedAt: input.termsAgreedAt === undefined ? new Date() : input.termsAgreedAt,
      passwordHash:
        input.password === null
          ? null
          : await cachedHash(input.password ?? 'kestrel-test-password'),
    })
    .returning();
  if (!s) throw new Error('subject insert returned nothing');
  return s;
}
