import {
  BRAND_PAYMENT_KEYS,
  brandDetailsForHost,
  CARD_BRAND_LABELS,
  cardBrandOf,
  cardExpired,
  cardExpiryDisplay,
  cardLabel,
  isoDate,
  PAYMENT_METHOD_MESSAGES,
  type PaymentMethodOut,
  type PaymentSettingsOut,
  type PaymentSettingsUpdate,
  type SetupIntentOut,
} from '@kestrel/domain';
import { and, desc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { AppError, NotFoundError, ValidationError } from '../../platform/errors.js';
import {
  type ContextDeps,
  readOnly,
  runInTenant,
  type ServiceContext,
} from '../../platform/service-context.js';
import {
  PaymentsCardError,
  PaymentsProviderError,
  type ProviderPaymentMethod,
  type ProviderSetupIntent,
} from '../../providers/payments/provider.js';
import { SimulatorRefusal } from '../../providers/payments/simulator.js';
import { customers } from '../customers/customers.table.js';
import { pricebooks } from '../pricebooks/pricebooks.table.js';
import { type PaymentsDeps, paymentsOf } from './config.js';
import { customerPaymentMethods, customerPaymentSettings } from './payment-methods.table.js';

/*
 * A customer's saved cards and payment settings (issue 30). The provider is asked outside any
 * transaction (never holding a connection while it answers), within PAYMENTS_TIMEOUT_MS: its
 * customer (made once, idempotently, on the first card), a setup intent, then the saved card.
 * Every write is the customer's transaction, under a lock of its settings row, and audited.
 */

export const PAYMENT_METHOD_CT = 'payments.paymentmethod';

/**
 * The job that retries a customer's failed subscription billing periods and held cases' charges
 * once a card is saved (cycles' subscription-card-retry-job.ts), enqueued here by name when a
 * card is recorded or becomes the default (chosen, or after the default's removal).
 */
export const SUBSCRIPTION_CARD_RETRY_JOB = 'subscriptions-card-retry';
export const PAYMENT_SETTINGS_CT = 'payments.paymentsettings';

type MethodRow = typeof customerPaymentMethods.$inferSelect;
type SettingsRow = typeof customerPaymentSettings.$inferSelect;
type Deps = ContextDeps & PaymentsDeps;

/** The payments provider could not answer (an outage, a timeout): 503, try again. */
export class PaymentsUnavailableError extends AppError {
  constructor() {
    super(503, { detail: PAYMENT_METHOD_MESSAGES.providerUnavailable });
  }
}

/** Runs a provider call with the configured timeout; its outages become a 503. */
async function ask<T>(deps: PaymentsDeps, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { config } = paymentsOf(deps);
  try {
    return await call(AbortSignal.timeout(config.timeoutMs));
  } catch (e) {
    if (e instanceof PaymentsProviderError && e.retryable) throw new PaymentsUnavailableError();
    throw e;
  }
}

/** A provider's "no such object" (simulator or Stripe's 404). */
const isMissing = (e: unknown) =>
  (e instanceof SimulatorRefusal && e.status === 404) ||
  (e instanceof PaymentsProviderError && !(e instanceof PaymentsCardError) && e.status === 404);

export function methodOut(r: MethodRow, today: string): PaymentMethodOut {
  const brand = cardBrandOf(r.brand);
  return {
    id: r.id,
    brand,
    brand_display: CARD_BRAND_LABELS[brand],
    last4: r.last4,
    exp_month: r.expMonth,
    exp_year: r.expYear,
    expiry_display: cardExpiryDisplay(r.expMonth, r.expYear),
    expired: cardExpired(r.expMonth, r.expYear, today),
    is_default: r.isDefault,
    label: cardLabel(brand, r.last4),
    created_at: r.createdAt.toISOString(),
  };
}

const active = (customerId: number) =>
  and(eq(customerPaymentMethods.customerId, customerId), isNull(customerPaymentMethods.removedAt));

/** The customer's saved cards: the default first, then the newest. */
export async function listMethods(ctx: ServiceContext, customerId: number) {
  const rows = await ctx.tx
    .select()
    .from(customerPaymentMethods)
    .where(active(customerId))
    .orderBy(
      desc(customerPaymentMethods.isDefault),
      desc(customerPaymentMethods.createdAt),
      desc(customerPaymentMethods.id),
    );
  const today = isoDate(ctx.clock.now());
  return rows.map((r) => methodOut(r, today));
}

/** The customer's default card (not removed), if any. */
export async function defaultMethod(tx: Tx, customerId: number): Promise<MethodRow | null> {
  const [r] = await tx
    .select()
    .from(customerPaymentMethods)
    .where(and(active(customerId), eq(customerPaymentMethods.isDefault, true)))
    .limit(1);
  return r ?? null;
}

async function readSettings(tx: Tx, customerId: number): Promise<SettingsRow | null> {
  const [r] = await tx
    .select()
    .from(customerPaymentSettings)
    .where(eq(customerPaymentSettings.customerId, customerId))
    .limit(1);
  return r ?? null;
}

/** The customer's settings row, made if missing, locked for the transaction (one writer). */
async function lockSettings(ctx: ServiceContext, customerId: number): Promise<SettingsRow> {
  await ctx.tx
    .insert(customerPaymentSettings)
    .values({ customerId, createdAt: ctx.clock.now(), updatedAt: ctx.clock.now() })
    .onConflictDoNothing();
  const [r] = await ctx.tx
    .select()
    .from(customerPaymentSettings)
    .where(eq(customerPaymentSettings.customerId, customerId))
    .for('update');
  if (!r) throw new NotFoundError();
  return r;
}

/** True when the customer's pricebook in force on `day` says it is invoiced. */
export async function invoicedOn(tx: Tx, customerId: number, day: string): Promise<boolean> {
  const [r] = await tx
    .select({ invoiced: pricebooks.invoiced })
    .from(pricebooks)
    .where(
      and(
        eq(pricebooks.customerId, customerId),
        lte(pricebooks.validFrom, day),
        or(isNull(pricebooks.validTo), gte(pricebooks.validTo, day)),
      ),
    )
    .limit(1);
  return r?.invoiced ?? false;
}

export async function getSettings(
  ctx: ServiceContext,
  customerId: number,
): Promise<PaymentSettingsOut> {
  const s = await readSettings(ctx.tx, customerId);
  const d = await defaultMethod(ctx.tx, customerId);
  return {
    billing_email: s?.billingEmail ?? '',
    invoiced: await invoicedOn(ctx.tx, customerId, isoDate(ctx.clock.now())),
    default_payment_method: d?.id ?? null,
  };
}

export async function updateSettings(
  ctx: ServiceContext,
  customerId: number,
  body: PaymentSettingsUpdate,
): Promise<PaymentSettingsOut> {
  // a customer's own settings only (operations, of no customer, have none: 404)
  if (ctx.actor.customerId !== customerId) throw new NotFoundError();
  const s = await lockSettings(ctx, customerId);
  if (s.billingEmail !== body.billing_email) {
    await ctx.tx
      .update(customerPaymentSettings)
      .set({ billingEmail: body.billing_email, updatedAt: ctx.clock.now() })
      .where(eq(customerPaymentSettings.customerId, customerId));
    await recordAudit(ctx.tx, ctx.actor, {
      verb: 'updated',
      contentType: PAYMENT_SETTINGS_CT,
      objectId: s.id,
      objectRepr: 'Payment settings',
      changes: { billing_email: [s.billingEmail, body.billing_email] },
    });
  }
  return getSettings(ctx, customerId);
}

function tenantId(actor: Actor): number {
  if (actor.customerId === null) throw new NotFoundError();
  return actor.customerId;
}

/**
 * The customer's customer at the provider: read from its settings, else made (idempotently: one
 * per customer however often this runs) and stored, audited.
 */
async function providerCustomer(deps: Deps, actor: Actor): Promise<string> {
  const customerId = tenantId(actor);
  const { provider } = paymentsOf(deps);
  const known = await runInTenant(
    deps,
    actor,
    async (ctx) => {
      const [c] = await ctx.tx
        .select({ name: customers.name })
        .from(customers)
        .where(eq(customers.id, customerId));
      const s = await readSettings(ctx.tx, customerId);
      return { name: c?.name ?? '', settings: s };
    },
    readOnly,
  );
  const id = known.settings?.provider === provider.name ? known.settings.providerCustomerId : null;
  if (id) return id;
  const made = await ask(deps, (signal) =>
    provider.createCustomer(
      {
        name: known.name,
        email: known.settings?.billingEmail || null,
        metadata: { kestrel_customer: String(customerId) },
        idempotency_key: `kestrel-customer-${customerId}-${provider.name}`,
      },
      signal,
    ),
  );
  return runInTenant(deps, actor, async (ctx) => {
    const s = await lockSettings(ctx, customerId);
    if (s.provider === provider.name && s.providerCustomerId) return s.providerCustomerId;
    await ctx.tx
      .update(customerPaymentSettings)
      .set({ provider: provider.name, providerCustomerId: made.id, updatedAt: ctx.clock.now() })
      .where(eq(customerPaymentSettings.customerId, customerId));
    await recordAudit(ctx.tx, ctx.actor, {
      verb: 'updated',
      contentType: PAYMENT_SETTINGS_CT,
      objectId: s.id,
      objectRepr: 'Payment settings',
      changes: { provider_customer_id: [s.providerCustomerId, made.id] },
    });
    return made.id;
  });
}

/** POST /api/payment-methods/setup-intent/: a setup intent the browser confirms a card with. */
export async function startSetup(
  deps: Deps,
  actor: Actor,
  hostname: string,
): Promise<SetupIntentOut> {
  const customerId = tenantId(actor);
  const customer = await providerCustomer(deps, actor);
  const { provider } = paymentsOf(deps);
  const setup = await ask(deps, (signal) =>
    provider.createSetupIntent(
      { customer, metadata: { kestrel_customer: String(customerId) } },
      signal,
    ),
  );
  return setupOut(setup, provider.name, provider.browserApiBase, hostname);
}

function setupOut(
  s: ProviderSetupIntent,
  provider: SetupIntentOut['provider'],
  apiBase: string,
  hostname: string,
): SetupIntentOut {
  return {
    id: s.id,
    client_secret: s.client_secret,
    status: s.status,
    next_action_url: s.next_action?.redirect_to_url.url ?? null,
    provider,
    api_base: apiBase,
    publishable_key: BRAND_PAYMENT_KEYS[brandDetailsForHost(hostname).id],
  };
}

const setupError = (message: string) => ValidationError.of('setup_intent', message);

/**
 * POST /api/payment-methods/ {setup_intent}: records the card a succeeded setup intent of this
 * customer saved; the first card (or the first after the last was removed) becomes the default.
 * A setup intent recorded already, another customer's, unknown or unfinished is refused (400).
 */
export async function addMethod(
  deps: Deps,
  actor: Actor,
  setupIntentId: string,
): Promise<PaymentMethodOut> {
  const customerId = tenantId(actor);
  const { provider } = paymentsOf(deps);
  const known = await runInTenant(
    deps,
    actor,
    async (ctx) => {
      const [used] = await ctx.tx
        .select({ id: customerPaymentMethods.id })
        .from(customerPaymentMethods)
        .where(
          and(
            eq(customerPaymentMethods.customerId, customerId),
            eq(customerPaymentMethods.providerSetupIntentId, setupIntentId),
          ),
        );
      return { used: Boolean(used), settings: await readSettings(ctx.tx, customerId) };
    },
    readOnly,
  );
  if (known.used) throw setupError(PAYMENT_METHOD_MESSAGES.setupIntentUsed);
  const owner = known.settings?.providerCustomerId ?? null;
  let setup: ProviderSetupIntent;
  try {
    setup = await ask(deps, (signal) => provider.retrieveSetupIntent(setupIntentId, signal));
  } catch (e) {
    if (isMissing(e)) throw setupError(PAYMENT_METHOD_MESSAGES.setupIntentUnknown);
    throw e;
  }
  if (
    !owner ||
    setup.customer !== owner ||
    setup.metadata.kestrel_customer !== String(customerId)
  ) {
    throw setupError(PAYMENT_METHOD_MESSAGES.setupIntentUnknown);
  }
  if (setup.status !== 'succeeded' || !setup.payment_method) {
    throw setupError(
      setup.last_setup_error?.message ?? PAYMENT_METHOD_MESSAGES.setupIntentNotSucceeded,
    );
  }
  const pmId = setup.payment_method;
  let pm: ProviderPaymentMethod;
  try {
    pm = await ask(deps, (signal) => provider.retrievePaymentMethod(pmId, signal));
  } catch (e) {
    if (isMissing(e)) throw setupError(PAYMENT_METHOD_MESSAGES.setupIntentUnknown);
    throw e;
  }
  return runInTenant(deps, actor, async (ctx) => {
    await lockSettings(ctx, customerId);
    const current = await defaultMethod(ctx.tx, customerId);
    const [row] = await ctx.tx
      .insert(customerPaymentMethods)
      .values({
        customerId,
        provider: provider.name,
        providerPaymentMethodId: pm.id,
        providerSetupIntentId: setup.id,
        brand: cardBrandOf(pm.card.brand),
        last4: pm.card.last4.slice(-4),
        expMonth: pm.card.exp_month,
        expYear: pm.card.exp_year,
        isDefault: current === null,
        createdById: ctx.actor.type === 'ProductUser' ? ctx.actor.id : null,
        createdAt: ctx.clock.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw setupError(PAYMENT_METHOD_MESSAGES.setupIntentUsed);
    const out = methodOut(row, isoDate(ctx.clock.now()));
    await recordAudit(ctx.tx, ctx.actor, {
      verb: 'created',
      contentType: PAYMENT_METHOD_CT,
      objectId: row.id,
      objectRepr: out.label,
      changes: { brand: out.brand, last4: out.last4, is_default: out.is_default },
    });
    // the subscription billing periods and held cases whose charge failed are retried to the
    // default card (issue 31): a job, committed with the card
    await ctx.enqueue({
      name: SUBSCRIPTION_CARD_RETRY_JOB,
      data: { customer_id: customerId, payment_method_id: row.id },
    });
    return out;
  });
}

async function lockedMethod(ctx: ServiceContext, customerId: number, id: number) {
  await lockSettings(ctx, customerId);
  const [row] = await ctx.tx
    .select()
    .from(customerPaymentMethods)
    .where(and(active(customerId), eq(customerPaymentMethods.id, id)));
  if (!row) throw new NotFoundError();
  return row;
}

/** POST /api/payment-methods/{id}/set-default/: this card becomes the default. */
export async function setDefault(ctx: ServiceContext, id: number): Promise<PaymentMethodOut> {
  const customerId = tenantId(ctx.actor);
  const row = await lockedMethod(ctx, customerId, id);
  const today = isoDate(ctx.clock.now());
  if (row.isDefault) return methodOut(row, today);
  const before = await defaultMethod(ctx.tx, customerId);
  await ctx.tx
    .update(customerPaymentMethods)
    .set({ isDefault: false })
    .where(and(active(customerId), eq(customerPaymentMethods.isDefault, true)));
  const [updated] = await ctx.tx
    .update(customerPaymentMethods)
    .set({ isDefault: true })
    .where(
      and(eq(customerPaymentMethods.customerId, customerId), eq(customerPaymentMethods.id, id)),
    )
    .returning();
  if (!updated) throw new NotFoundError();
  const out = methodOut(updated, today);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: PAYMENT_METHOD_CT,
    objectId: id,
    objectRepr: out.label,
    changes: { is_default: [false, true], previous_default: before?.id ?? null },
  });
  // the failed subscription billing periods and held cases are retried to the new default
  // (issue 31)
  await ctx.enqueue({
    name: SUBSCRIPTION_CARD_RETRY_JOB,
    data: { customer_id: customerId, payment_method_id: id },
  });
  return out;
}

/** The payments provider refused to detach a card still attached (502): nothing changed. */
export class DetachRefusedError extends AppError {
  constructor() {
    super(502, { detail: PAYMENT_METHOD_MESSAGES.detachRefused });
  }
}

/**
 * Detaches a card at the provider (Stripe: POST /v1/payment_methods/{id}/detach). A card the
 * provider does not know, or no longer attached (a removal cut short after its detachment), is
 * detached already; an outage is a 503, any other refusal a 502.
 */
async function detachAtProvider(deps: Deps, providerMethodId: string): Promise<void> {
  const { provider } = paymentsOf(deps);
  try {
    await ask(deps, (signal) => provider.detachPaymentMethod(providerMethodId, signal));
    return;
  } catch (e) {
    if (e instanceof PaymentsUnavailableError) throw e;
    if (isMissing(e)) return;
    if (!(e instanceof PaymentsProviderError || e instanceof SimulatorRefusal)) throw e;
  }
  let pm: ProviderPaymentMethod;
  try {
    pm = await ask(deps, (signal) => provider.retrievePaymentMethod(providerMethodId, signal));
  } catch (e) {
    if (isMissing(e)) return;
    throw e;
  }
  if (pm.customer !== null) throw new DetachRefusedError();
}

/** The default card may go only when it is the last: otherwise another is made the default first. */
async function refuseRemovingDefault(tx: Tx, customerId: number, row: MethodRow): Promise<void> {
  if (!row.isDefault) return;
  const [other] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(customerPaymentMethods)
    .where(and(active(customerId), sql`${customerPaymentMethods.id} <> ${row.id}`));
  if ((other?.n ?? 0) > 0) {
    throw ValidationError.of('non_field_errors', PAYMENT_METHOD_MESSAGES.defaultInUse);
  }
}

/**
 * DELETE /api/payment-methods/{id}/: the card is detached at the provider, then removed (its row
 * kept for the payments made with it). The default goes only when it is the last card:
 * otherwise another is made the default first (PAYMENT_METHOD_MESSAGES.defaultInUse).
 *
 * Detach first, remove only once detached (rather than remove and detach later from a job):
 * the administrator waits for the answer anyway, as for saving a card, and so a provider that
 * fails never leaves the two sides disagreeing silently. An outage (503) or a refusal (502)
 * changes nothing on either side and says so; there is no moment when Kestrel shows a card
 * removed that the provider could still charge, nor a job that could give up unseen. A removal
 * cut short after the detachment (the server stopped) leaves the card listed but detached: a
 * charge to it is declined and shown on the case, and removing it again finishes (a card no
 * longer attached counts as detached). Once detached the card is removed whatever happened
 * meanwhile: were it the default while another card was saved concurrently, that card becomes
 * the default.
 */
export async function removeMethod(deps: Deps, actor: Actor, id: number): Promise<void> {
  const customerId = tenantId(actor);
  const { provider } = paymentsOf(deps);
  const row = await runInTenant(
    deps,
    actor,
    async (ctx) => {
      const [r] = await ctx.tx
        .select()
        .from(customerPaymentMethods)
        .where(and(active(customerId), eq(customerPaymentMethods.id, id)));
      if (!r) throw new NotFoundError();
      await refuseRemovingDefault(ctx.tx, customerId, r);
      return r;
    },
    readOnly,
  );
  // a card of another provider (the configuration changed since) cannot be asked of this one
  if (row.provider === provider.name) await detachAtProvider(deps, row.providerPaymentMethodId);
  await runInTenant(deps, actor, async (ctx) => {
    await lockSettings(ctx, customerId);
    const [current] = await ctx.tx
      .select()
      .from(customerPaymentMethods)
      .where(and(active(customerId), eq(customerPaymentMethods.id, id)));
    if (!current) return; // removed meanwhile by another request
    await ctx.tx
      .update(customerPaymentMethods)
      .set({ removedAt: ctx.clock.now(), isDefault: false })
      .where(
        and(eq(customerPaymentMethods.customerId, customerId), eq(customerPaymentMethods.id, id)),
      );
    let newDefault: number | null = null;
    if (current.isDefault) {
      const [next] = await ctx.tx
        .select({ id: customerPaymentMethods.id })
        .from(customerPaymentMethods)
        .where(active(customerId))
        .orderBy(desc(customerPaymentMethods.createdAt), desc(customerPaymentMethods.id))
        .limit(1);
      if (next) {
        await ctx.tx
          .update(customerPaymentMethods)
          .set({ isDefault: true })
          .where(
            and(
              eq(customerPaymentMethods.customerId, customerId),
              eq(customerPaymentMethods.id, next.id),
            ),
          );
        newDefault = next.id;
      }
    }
    await recordAudit(ctx.tx, ctx.actor, {
      verb: 'deleted',
      contentType: PAYMENT_METHOD_CT,
      objectId: id,
      objectRepr: cardLabel(cardBrandOf(row.brand), row.last4),
      changes: {
        was_default: current.isDefault,
        detached: row.provider === provider.name,
        ...(newDefault !== null ? { new_default: newDefault } : {}),
      },
    });
    // another card became the default: what failed is retried to it (issue 31); the last card
    // removed leaves none, and nothing is charged
    if (newDefault !== null) {
      await ctx.enqueue({
        name: SUBSCRIPTION_CARD_RETRY_JOB,
        data: { customer_id: customerId, payment_method_id: newDefault },
      });
    }
  });
}
