import {
  type ActivityConfig,
  type CaseActivityState,
  type CaseState,
  deriveCaseState,
  type Entitlement,
  type Permission,
  ROLE_TEMPLATES,
  type RoleName,
} from '@kestrel/domain';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { caseActivities } from '../modules/activities/activities.table.js';
import { activityTypes } from '../modules/bootstrap/bootstrap.table.js';
import { cases } from '../modules/cases/cases.table.js';
import { customerEntitlements, customers } from '../modules/customers/customers.table.js';
import { flags } from '../modules/flags/flags.table.js';
import { processes, processRequirements } from '../modules/processes/processes.table.js';
import { subjects } from '../modules/subjects/subjects.table.js';
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
  /** When the person was added (the login and the customer's record); default now. */
  createdAt?: Date;
}

/**
 * A person held by a customer: the person's login (subject_users, found by email or created) and
 * the customer's record of them (subjects). Returns the record, with `userId` the login's id.
 */
export async function createSubjectUser(tx: Tx, input: SubjectUserInput = {}) {
  const customerId = input.customerId ?? (await createCustomer(tx)).id;
  const email = (input.email ?? `subject-${next()}@example.test`).toLowerCase();
  const details = {
    firstName: input.firstName ?? 'Sam',
    lastName: input.lastName ?? 'Subject',
    middlename: input.middlename ?? '',
    dob: input.dob === undefined ? '1990-04-12' : input.dob,
    phoneNumber: input.phoneNumber ?? '+447911123456',
  };
  const [created] = await tx
    .insert(subjectUsers)
    .values({
      email,
      ...details,
      termsAgreedAt: input.termsAgreedAt === undefined ? new Date() : input.termsAgreedAt,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      passwordHash:
        input.password === null
          ? null
          : await cachedHash(input.password ?? 'kestrel-test-password'),
    })
    .onConflictDoNothing()
    .returning();
  const login =
    created ??
    (await tx.select().from(subjectUsers).where(sql`lower(${subjectUsers.email}) = ${email}`))[0];
  if (!login) throw new Error('subject login insert returned nothing');
  const [s] = await tx
    .insert(subjects)
    .values({
      customerId,
      userId: login.id,
      email,
      ...details,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning();
  if (!s) throw new Error('subject insert returned nothing');
  // `login.passwordHash` says whether the login is claimed; whether the person used it with this
  // customer (`has_account`) is read from the customer's audit trail, which a fixture leaves empty.
  return { ...s, login };
}

// ------------------------------------------------------------------ customer workspace

export interface ProcessInput {
  customerId: number;
  name?: string;
  description?: string;
  isActive?: boolean;
  sendInvitation?: boolean;
  /** Activity type codes (with optional config), in order. */
  requirements?: (string | { code: string; config?: ActivityConfig })[];
}

export async function createProcess(tx: Tx, input: ProcessInput) {
  const [p] = await tx
    .insert(processes)
    .values({
      customerId: input.customerId,
      name: input.name ?? `Process ${next()}`,
      description: input.description ?? '',
      isActive: input.isActive ?? true,
      sendInvitation: input.sendInvitation ?? true,
    })
    .returning();
  if (!p) throw new Error('process insert returned nothing');
  const reqs = (input.requirements ?? ['basic-details', 'address-history', 'dbs-basic']).map((r) =>
    typeof r === 'string' ? { code: r, config: {} } : { code: r.code, config: r.config ?? {} },
  );
  if (reqs.length > 0) {
    const types = await tx
      .select({ id: activityTypes.id, code: activityTypes.code })
      .from(activityTypes)
      .where(
        inArray(
          activityTypes.code,
          reqs.map((r) => r.code),
        ),
      );
    const idOf = new Map(types.map((t) => [t.code, t.id]));
    await tx.insert(processRequirements).values(
      reqs.map((r, position) => {
        const activityTypeId = idOf.get(r.code);
        if (activityTypeId === undefined) throw new Error(`unknown activity type ${r.code}`);
        return {
          customerId: input.customerId,
          processId: p.id,
          activityTypeId,
          position,
          config: r.config,
        };
      }),
    );
  }
  return p;
}

export interface CaseInput {
  customerId: number;
  processId?: number;
  subjectId?: number;
  /** Activity states in requirement order (the last one repeats); default all ca-awaiting-subject. */
  activityStates?: CaseActivityState[];
  /** The case state; default derived from the activity states. */
  state?: CaseState;
  decision?: 'satisfactory' | 'unsatisfactory' | null;
  createdAt?: Date;
  completedAt?: Date | null;
  archivedAt?: Date | null;
}

/** A case with one activity per requirement of its process (parents created when missing). */
export async function createCase(tx: Tx, input: CaseInput) {
  const processId =
    input.processId ?? (await createProcess(tx, { customerId: input.customerId })).id;
  const subjectId =
    input.subjectId ??
    (await createSubjectUser(tx, { customerId: input.customerId, password: null })).id;
  const reqs = await tx
    .select()
    .from(processRequirements)
    .where(eq(processRequirements.processId, processId))
    .orderBy(asc(processRequirements.position));
  const wanted = input.activityStates ?? ['ca-awaiting-subject'];
  const states = reqs.map(
    (_, i) => wanted[Math.min(i, wanted.length - 1)] ?? 'ca-awaiting-subject',
  );
  const state = input.state ?? deriveCaseState(states);
  const createdAt = input.createdAt ?? new Date();
  const completedAt =
    input.completedAt !== undefined ? input.completedAt : state === 'complete' ? createdAt : null;
  const [c] = await tx
    .insert(cases)
    .values({
      customerId: input.customerId,
      processId,
      subjectId,
      state,
      decision: input.decision ?? (state === 'complete' ? 'satisfactory' : null),
      createdAt,
      updatedAt: completedAt ?? createdAt,
      completedAt,
      archivedAt: input.archivedAt ?? null,
    })
    .returning();
  if (!c) throw new Error('case insert returned nothing');
  if (reqs.length > 0) {
    await tx.insert(caseActivities).values(
      reqs.map((r, i) => ({
        customerId: input.customerId,
        caseId: c.id,
        activityTypeId: r.activityTypeId,
        state: states[i] ?? 'ca-pending',
        position: i,
        config: r.config,
        createdAt,
        updatedAt: createdAt,
        completedAt: states[i] === 'ca-complete' ? (completedAt ?? createdAt) : null,
      })),
    );
  }
  return c;
}

export interface FlagInput {
  customerId: number;
  caseId?: number | null;
  subjectId?: number | null;
  kind?: 'manual' | 'rule';
  message?: string;
  active?: boolean;
}

export async function createFlag(tx: Tx, input: FlagInput) {
  const [f] = await tx
    .insert(flags)
    .values({
      customerId: input.customerId,
      caseId: input.caseId ?? null,
      subjectId: input.subjectId ?? null,
      kind: input.kind ?? 'rule',
      message: input.message ?? 'Needs attention',
      active: input.active ?? true,
      createdByName: input.kind === 'manual' ? 'Test User' : 'system',
      resolvedAt: input.active === false ? new Date() : null,
      resolvedByName: input.active === false ? 'system' : null,
    })
    .returning();
  if (!f) throw new Error('flag insert returned nothing');
  return f;
}
