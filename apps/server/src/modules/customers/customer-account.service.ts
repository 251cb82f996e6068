import {
  type AccountPricebookOut,
  BRAND_DETAILS,
  type CustomerAccountOut,
  type CustomerAccountUpdate,
  ENTITLEMENT_LABELS,
  ENTITLEMENTS,
  type Entitlement,
  formatPence,
  isoDate,
  PRICE_NOT_SET,
  priceLevelsOf,
  priceOf,
} from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { diffChanges, recordAudit } from '../../platform/audit.js';
import { NotFoundError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { activePrices } from '../pricebooks/pricebooks.service.js';
import { pricebooks } from '../pricebooks/pricebooks.table.js';
import { customerActivityTypes, customerEntitlements, customers } from './customers.table.js';

/** The customer's own record (content type of the audit entries). */
export const CUSTOMER_ACCOUNT_CT = 'customers.customer';

type CustomerRow = typeof customers.$inferSelect;

const isEntitlement = (e: string): e is Entitlement =>
  (ENTITLEMENTS as readonly string[]).includes(e);

/**
 * The pricebook in force today, read-only: every kind of check the customer may order, at each
 * level it is priced at, with its price in pounds (or 'No price set'). Null: none in force.
 */
async function pricebookInForce(
  tx: Tx,
  customerId: number,
  day: string,
): Promise<AccountPricebookOut | null> {
  const active = await activePrices(tx, customerId, day);
  if (!active) return null;
  const [book] = await tx
    .select()
    .from(pricebooks)
    .where(and(eq(pricebooks.customerId, customerId), eq(pricebooks.id, active.pricebookId)));
  if (!book) return null;
  const kinds = await tx
    .select({ code: activityTypes.code, name: activityTypes.name })
    .from(customerActivityTypes)
    .innerJoin(activityTypes, eq(activityTypes.id, customerActivityTypes.activityTypeId))
    .where(
      and(
        eq(customerActivityTypes.customerId, customerId),
        eq(customerActivityTypes.enabled, true),
      ),
    )
    .orderBy(asc(activityTypes.name));
  const prices = kinds.flatMap((k) =>
    priceLevelsOf(k.code).map((level) => {
      const amount = priceOf(active.prices, k.code, level);
      return {
        activity_type: k.code,
        name: k.name,
        level,
        amount_pence: amount,
        amount_display: amount === null ? PRICE_NOT_SET : formatPence(amount),
      };
    }),
  );
  return {
    id: book.id,
    name: book.name,
    valid_from: book.validFrom,
    valid_to: book.validTo,
    invoiced: book.invoiced,
    prices,
  };
}

async function present(ctx: ServiceContext, row: CustomerRow): Promise<CustomerAccountOut> {
  const ents = await ctx.tx
    .select({ entitlement: customerEntitlements.entitlement })
    .from(customerEntitlements)
    .where(eq(customerEntitlements.customerId, row.id))
    .orderBy(asc(customerEntitlements.entitlement));
  return {
    id: row.id,
    name: row.name,
    line_one: row.lineOne,
    line_two: row.lineTwo,
    town: row.town,
    postcode: row.postcode,
    contact_name: row.contactName,
    contact_email: row.contactEmail,
    contact_phone: row.contactPhone,
    brand: row.brand,
    brand_name: BRAND_DETAILS.find((b) => b.id === row.brand)?.name ?? row.brand,
    demo_mode: row.demoMode,
    created_at: row.createdAt.toISOString(),
    entitlements: ents
      .map((e) => e.entitlement)
      .filter(isEntitlement)
      .map((entitlement) => ({ entitlement, label: ENTITLEMENT_LABELS[entitlement] })),
    require_totp: row.requireTotp,
    pricebook: await pricebookInForce(ctx.tx, row.id, isoDate(ctx.clock.now())),
  };
}

async function ownCustomer(ctx: ServiceContext, lock = false): Promise<CustomerRow> {
  const id = ctx.actor.customerId;
  if (id === null) throw new NotFoundError();
  const q = ctx.tx.select().from(customers).where(eq(customers.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new NotFoundError();
  return row;
}

/** GET /api/customer-account/: the acting user's organisation. */
export async function getCustomerAccount(ctx: ServiceContext): Promise<CustomerAccountOut> {
  return present(ctx, await ownCustomer(ctx));
}

/**
 * PATCH /api/customer-account/: the details and the two-factor policy of the acting user's own
 * organisation (nothing else: brand, demo mode and entitlements are operations'), audited with
 * what changed. Runs in a transaction that may write the customers row (the system's, with the
 * acting user kept for the audit); the row is always the actor's own customer.
 */
export async function updateCustomerAccount(
  ctx: ServiceContext,
  data: CustomerAccountUpdate,
): Promise<CustomerAccountOut> {
  const before = await ownCustomer(ctx, true);
  const set: Partial<typeof customers.$inferInsert> = {
    ...(data.name !== undefined ? { name: data.name } : {}),
    ...(data.line_one !== undefined ? { lineOne: data.line_one } : {}),
    ...(data.line_two !== undefined ? { lineTwo: data.line_two } : {}),
    ...(data.town !== undefined ? { town: data.town } : {}),
    ...(data.postcode !== undefined ? { postcode: data.postcode } : {}),
    ...(data.contact_name !== undefined ? { contactName: data.contact_name } : {}),
    ...(data.contact_email !== undefined ? { contactEmail: data.contact_email } : {}),
    ...(data.contact_phone !== undefined ? { contactPhone: data.contact_phone } : {}),
    ...(data.require_totp !== undefined ? { requireTotp: data.require_totp } : {}),
  };
  const shown = await present(ctx, before);
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    now[key] = value;
    was[key] = shown[key as keyof CustomerAccountOut];
  }
  const changes = diffChanges(was, now);
  if (Object.keys(changes).length === 0) return shown;
  const [after] = await ctx.tx
    .update(customers)
    .set(set)
    .where(eq(customers.id, before.id))
    .returning();
  if (!after) throw new NotFoundError();
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: before.id,
    verb: 'updated',
    contentType: CUSTOMER_ACCOUNT_CT,
    objectId: before.id,
    objectRepr: after.name,
    changes,
  });
  return present(ctx, after);
}
