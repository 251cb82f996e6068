import {
  type CustomerCreate,
  type CustomerOut,
  type OpsCustomerUserInvite,
  type OpsCustomerUserOut,
  ROLE_TEMPLATES,
} from '@kestrel/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { emailJob } from '../../jobs/send-email.js';
import { recordAudit } from '../../platform/audit.js';
import { brandedEmail } from '../../platform/email-template.js';
import { API_MESSAGES, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { issueAccountToken } from '../accounts/accounts.service.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseCounts } from '../cases/cases.table.js';
import {
  customerActivityTypes,
  customerEntitlements,
  customers,
} from '../customers/customers.table.js';
import { type InvitationDeps, SET_PASSWORD_TTL_MS } from '../users/commands/invite-user.js';
import { findLoginCandidate } from '../users/users.repo.js';
import { customerEmailSite, usersExtra } from '../users/users.service.js';
import { productUserRoles, productUsers, roles } from '../users/users.table.js';

export const CUSTOMER_CT = 'customers.customer';
type CustomerRow = typeof customers.$inferSelect;
type UserRow = typeof productUsers.$inferSelect;
type Extra = Pick<
  CustomerOut,
  'entitlements' | 'activity_types' | 'case_count' | 'cases_by_state' | 'user_count'
>;

export const presentCustomer = (c: CustomerRow) => ({
  id: c.id,
  name: c.name,
  demo_mode: c.demoMode,
  is_active: c.isActive,
  created_at: c.createdAt.toISOString(),
  brand: c.brand === 'harrier' ? ('harrier' as const) : ('kestrel' as const),
  contact_name: c.contactName,
  contact_email: c.contactEmail,
  contact_phone: c.contactPhone,
});

/**
 * What a page of customers carries besides its columns: entitlements, activity types, case counts
 * by state (the kept counts of case_counts) and the number of users. One query each for the
 * whole page (by customer id, on each table's customer index), never one per row.
 */
export async function customerExtras(tx: Tx, ids: number[]): Promise<Extra[]> {
  if (ids.length === 0) return [];
  const [ents, types, counts, users] = await Promise.all([
    tx
      .select({ customerId: customerEntitlements.customerId, e: customerEntitlements.entitlement })
      .from(customerEntitlements)
      .where(inArray(customerEntitlements.customerId, ids)),
    tx
      .select({
        customerId: customerActivityTypes.customerId,
        id: customerActivityTypes.activityTypeId,
      })
      .from(customerActivityTypes)
      .where(
        and(
          inArray(customerActivityTypes.customerId, ids),
          eq(customerActivityTypes.enabled, true),
        ),
      ),
    tx
      .select({ customerId: caseCounts.customerId, state: caseCounts.state, n: caseCounts.n })
      .from(caseCounts)
      .where(and(inArray(caseCounts.customerId, ids), eq(caseCounts.archived, false))),
    tx
      .select({ customerId: productUsers.customerId, n: sql<number>`count(*)::int` })
      .from(productUsers)
      .where(inArray(productUsers.customerId, ids))
      .groupBy(productUsers.customerId),
  ]);
  return ids.map((id) => {
    const byState: Record<string, number> = {};
    for (const c of counts) if (c.customerId === id && c.n > 0) byState[c.state] = c.n;
    return {
      entitlements: ents
        .filter((e) => e.customerId === id)
        .map((e) => e.e as Extra['entitlements'][number])
        .sort(),
      activity_types: types
        .filter((t) => t.customerId === id)
        .map((t) => t.id)
        .sort((a, b) => a - b),
      case_count: Object.values(byState).reduce((a, b) => a + b, 0),
      cases_by_state: byState,
      user_count: users.find((u) => u.customerId === id)?.n ?? 0,
    };
  });
}

export async function customerOutOf(tx: Tx, row: CustomerRow): Promise<CustomerOut> {
  const [extra] = await customerExtras(tx, [row.id]);
  if (!extra) throw new Error('no extras');
  return { ...presentCustomer(row), ...extra };
}

/**
 * A new customer in one transaction (the system's, as sign-up: ops hold no write on logins,
 * roles or tokens): the customer, its entitlements and activity types, its admin role, and its
 * first administrator invited (user, set-password token, audit, email through the outbox, sent
 * after commit). A refused part (an email already a login, an unknown activity type) leaves
 * nothing.
 */
export async function createCustomer(
  ctx: ServiceContext,
  deps: InvitationDeps,
  data: CustomerCreate,
): Promise<CustomerOut> {
  const { tx } = ctx;
  const allTypes = await tx.select({ id: activityTypes.id }).from(activityTypes);
  const typeIds = data.activity_types
    ? [...new Set(data.activity_types)]
    : allTypes.map((t) => t.id);
  const unknown = typeIds.find((id) => !allTypes.some((t) => t.id === id));
  if (unknown !== undefined) throw ValidationError.doesNotExist('activity_types', unknown);
  if (data.admin && (await findLoginCandidate(tx, data.admin.email))) {
    throw ValidationError.of('admin.email', API_MESSAGES.userEmailTaken);
  }
  const [row] = await tx
    .insert(customers)
    .values({
      name: data.name,
      brand: data.brand,
      contactName: data.contact_name,
      contactEmail: data.contact_email,
      contactPhone: data.contact_phone,
      demoMode: data.demo_mode,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  const entitlements = [...new Set(data.entitlements)];
  if (entitlements.length > 0) {
    await tx
      .insert(customerEntitlements)
      .values(entitlements.map((entitlement) => ({ customerId: row.id, entitlement })));
  }
  if (typeIds.length > 0) {
    await tx
      .insert(customerActivityTypes)
      .values(typeIds.map((activityTypeId) => ({ customerId: row.id, activityTypeId })));
  }
  const [role] = await tx
    .insert(roles)
    .values({ customerId: row.id, name: 'admin', permissions: [...ROLE_TEMPLATES.admin] })
    .returning();
  if (!role) throw new Error('insert returned nothing');
  const out = await customerOutOf(tx, row);
  await recordAudit(tx, ctx.actor, {
    verb: 'created',
    contentType: CUSTOMER_CT,
    objectId: row.id,
    objectRepr: row.name,
    changes: out,
    customerId: row.id,
  });
  if (data.admin) await inviteStaff(ctx, deps, row.id, data.admin, [role.id]);
  return { ...out, user_count: data.admin ? 1 : 0 };
}

/**
 * A customer's staff member with `roleIds`, invited as /api/users/ does (inviteUser): a
 * single-use set-password link for seven days, the audit row, and the same email enqueued in
 * the transaction. Here in the system's transaction, which inserts logins but deletes no role
 * links (inviteUser replaces them, so it runs in a tenant's).
 */
async function inviteStaff(
  ctx: ServiceContext,
  deps: InvitationDeps,
  customerId: number,
  person: { first_name: string; last_name: string; email: string },
  roleIds: number[],
): Promise<UserRow> {
  const { tx, actor } = ctx;
  const email = person.email.toLowerCase();
  const [u] = await tx
    .insert(productUsers)
    .values({
      customerId,
      username: email,
      email,
      firstName: person.first_name,
      lastName: person.last_name,
    })
    .returning();
  if (!u) throw new Error('insert returned nothing');
  if (roleIds.length > 0) {
    await tx
      .insert(productUserRoles)
      .values(roleIds.map((roleId) => ({ customerId, userId: u.id, roleId })));
  }
  const token = await issueAccountToken(tx, ctx.clock.now(), {
    purpose: 'reset',
    type: 'ProductUser',
    id: u.id,
    customerId,
    ttlMs: SET_PASSWORD_TTL_MS,
  });
  await recordAudit(tx, actor, {
    verb: 'invited',
    contentType: 'users.productuser',
    objectId: u.id,
    objectRepr: u.username,
    changes: { email, first_name: u.firstName, last_name: u.lastName, roles: roleIds },
    customerId,
  });
  // the customer's brand (and its host when operations used it), as /api/users/ invites do
  const site = await customerEmailSite(tx, customerId, actor.brandAddress, deps.publicUrl);
  const link = `${site.publicUrl}/auth/set-password?token=${encodeURIComponent(token)}`;
  await ctx.enqueue(
    emailJob(
      brandedEmail(site, {
        to: email,
        subject: `Your ${site.brand.name} account`,
        greeting: `Hello ${person.first_name},`,
        paragraphs: [`An account has been created for you in ${site.brand.name}.`],
        action: { label: 'Choose your password', url: link },
        after: ['The link works once, for seven days.'],
      }),
    ),
  );
  return u;
}

/** The customer row, or 404. */
/**
 * Sets the activity types a customer may order (the ops customer edit): each listed type on (a
 * type it never had is added), every other one off (kept, with its note, for its past cases).
 * An unknown id refuses the whole change; each type switched is audited.
 */
export async function setCustomerActivityTypes(
  ctx: ServiceContext,
  customer: CustomerRow,
  ids: readonly number[],
): Promise<void> {
  const { tx } = ctx;
  const wanted = new Set(ids);
  const all = await tx
    .select({ id: activityTypes.id, name: activityTypes.name })
    .from(activityTypes);
  const unknown = [...wanted].find((id) => !all.some((t) => t.id === id));
  if (unknown !== undefined) throw ValidationError.doesNotExist('activity_types', unknown);
  const rows = await tx
    .select({ id: customerActivityTypes.activityTypeId, enabled: customerActivityTypes.enabled })
    .from(customerActivityTypes)
    .where(eq(customerActivityTypes.customerId, customer.id));
  for (const type of all) {
    const row = rows.find((r) => r.id === type.id);
    const on = wanted.has(type.id);
    const was = row?.enabled ?? false;
    if (was === on) continue;
    if (row) {
      await tx
        .update(customerActivityTypes)
        .set({ enabled: on })
        .where(
          and(
            eq(customerActivityTypes.customerId, customer.id),
            eq(customerActivityTypes.activityTypeId, type.id),
          ),
        );
    } else {
      await tx
        .insert(customerActivityTypes)
        .values({ customerId: customer.id, activityTypeId: type.id });
    }
    await recordAudit(tx, ctx.actor, {
      verb: 'updated',
      contentType: CUSTOMER_CT,
      objectId: customer.id,
      objectRepr: `${customer.name}: ${type.name}`,
      changes: { [`activity_type.${type.id}`]: [was, on] },
      customerId: customer.id,
    });
  }
}

export async function customerRow(tx: Tx, id: number): Promise<CustomerRow> {
  const [row] = await tx.select().from(customers).where(eq(customers.id, id)).limit(1);
  if (!row) throw new NotFoundError();
  return row;
}

async function presentUsers(tx: Tx, rows: UserRow[]): Promise<OpsCustomerUserOut[]> {
  // roles (as ids), status and last sign-in as the customer's own list reads them; role names
  const extra = await usersExtra(tx, rows);
  const roleIds = [...new Set(extra.flatMap((e) => e.roles))];
  const names = new Map(
    roleIds.length
      ? (
          await tx
            .select({ id: roles.id, name: roles.name })
            .from(roles)
            .where(inArray(roles.id, roleIds))
        ).map((r) => [r.id, r.name])
      : [],
  );
  return rows.flatMap((u, i) => {
    const e = extra[i];
    if (!e) return [];
    return [
      {
        id: u.id,
        username: u.username,
        email: u.email,
        first_name: u.firstName,
        last_name: u.lastName,
        job_title: u.jobTitle,
        is_active: u.isActive,
        status: e.status,
        last_login_at: e.last_login_at,
        created_at: u.createdAt.toISOString(),
        roles: e.roles.flatMap((id) => names.get(id) ?? []).sort(),
      },
    ];
  });
}

/** A customer's staff, by name (404 for an unknown customer). */
export async function customerUsers(tx: Tx, customerId: number): Promise<OpsCustomerUserOut[]> {
  await customerRow(tx, customerId);
  const rows = await tx
    .select()
    .from(productUsers)
    .where(eq(productUsers.customerId, customerId))
    .orderBy(asc(productUsers.lastName), asc(productUsers.firstName), asc(productUsers.id))
    .limit(500);
  return presentUsers(tx, rows);
}

/** Invites a staff member to `customerId` (the system's transaction, like the first admin). */
export async function inviteCustomerUser(
  ctx: ServiceContext,
  deps: InvitationDeps,
  customerId: number,
  input: OpsCustomerUserInvite,
): Promise<OpsCustomerUserOut> {
  const { tx } = ctx;
  await customerRow(tx, customerId);
  if (await findLoginCandidate(tx, input.email)) {
    throw ValidationError.of('email', API_MESSAGES.userEmailTaken);
  }
  const admin = input.administrator
    ? await tx
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.customerId, customerId), eq(roles.name, 'admin')))
        .limit(1)
    : [];
  const row = await inviteStaff(
    ctx,
    deps,
    customerId,
    input,
    admin.map((r) => r.id),
  );
  const [out] = await presentUsers(tx, [row]);
  if (!out) throw new Error('no user');
  return out;
}

/**
 * Deactivates (or reactivates) a customer's user, audited; the caller ends a deactivated user's
 * sessions after commit. 404 for a user of another customer.
 */
export async function setCustomerUserActive(
  ctx: ServiceContext,
  customerId: number,
  userId: number,
  isActive: boolean,
): Promise<OpsCustomerUserOut> {
  const { tx } = ctx;
  const [found] = await tx
    .select()
    .from(productUsers)
    .where(and(eq(productUsers.id, userId), eq(productUsers.customerId, customerId)))
    .limit(1);
  if (!found) throw new NotFoundError();
  const [row] =
    found.isActive === isActive
      ? [found]
      : await tx
          .update(productUsers)
          .set({ isActive })
          .where(eq(productUsers.id, userId))
          .returning();
  if (!row) throw new Error('update returned nothing');
  if (found.isActive !== isActive) {
    await recordAudit(tx, ctx.actor, {
      verb: 'updated',
      contentType: 'users.productuser',
      objectId: userId,
      objectRepr: row.username,
      changes: { is_active: [found.isActive, isActive] },
      customerId,
    });
  }
  const [out] = await presentUsers(tx, [row]);
  if (!out) throw new Error('no user');
  return out;
}
