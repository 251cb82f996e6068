import { PAYMENT_INTENT_STATUSES } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../../platform/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import {
  PRODUCT_PAYMENT_EVENTS,
  type ProductPaymentEvent,
  SETTLING_EVENTS,
  type SettlingEvent,
} from '../../providers/payments/provider.js';
import { settleTopUp } from '../checks/top-up.js';
import { discoverModules } from '../discover.js';
import { releaseCase } from './case-charge.js';
import { CASE_PAYMENT_CT } from './case-payment.js';
import { paymentIntents, payments } from './payments.table.js';
import { productPayments } from './product-payments.table.js';
import { INTENT_CONTENT_TYPE, PAYMENT_CONTENT_TYPE } from './service.js';

/** Where the provider posts its signed webhooks: outside /api/ (no session, no CSRF token). */
export const WEBHOOK_PATH = '/webhooks/payments/';

/** A webhook event, the fields Kestrel reads (Stripe's Event with a PaymentIntent). */
export const paymentEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  created: z.number().int(),
  data: z.object({
    object: z.object({
      id: z.string().min(1).max(100),
      amount: z.number().int().nonnegative(),
      currency: z.string().max(3),
      status: z.enum(PAYMENT_INTENT_STATUSES),
      /** What Kestrel put on the intent: a case's charge names its product payment and customer. */
      metadata: z.record(z.string().max(100), z.string().max(500)).optional(),
      last_payment_error: z
        .object({ code: z.string().max(100).optional(), message: z.string().max(500).optional() })
        .nullable()
        .optional(),
    }),
  }),
});
export type PaymentEventIn = z.infer<typeof paymentEventSchema>;

const isSettling = (t: string): t is SettlingEvent =>
  (SETTLING_EVENTS as readonly string[]).includes(t);

export type WebhookOutcome = 'settled' | 'stored' | 'duplicate' | 'ignored';

const isProductEvent = (t: string): t is ProductPaymentEvent =>
  (PRODUCT_PAYMENT_EVENTS as readonly string[]).includes(t);

/** What settling a case's charge needs of the app (its invitation's links). */
type WebhookDeps = { config: { publicUrl: string } };

/**
 * One verified event, in one transaction. A case's charge (a product payment: its intent's
 * metadata, or its provider id) is settled by receiveProductEvent. A portal payment's: the
 * payment stored (its event id unique: a replay changes nothing), the intent updated, and the
 * top-up settled through the check engine (settleTopUp, paid or declined) in the same
 * transaction; anything refused rolls it all back.
 */
export async function receivePaymentEvent(
  ctx: ServiceContext,
  event: PaymentEventIn,
  deps: WebhookDeps,
): Promise<WebhookOutcome> {
  if (isProductEvent(event.type)) {
    const product = await receiveProductEvent(ctx, event, event.type, deps);
    if (product) return product;
  }
  if (!isSettling(event.type)) return 'ignored';
  const pi = event.data.object;
  const [intent] = await ctx.tx
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.providerIntentId, pi.id))
    .for('update');
  if (!intent) throw new NotFoundError('No such payment intent.');
  if (pi.amount !== intent.amountPence || pi.currency !== intent.currency) {
    throw ValidationError.of(
      'data.object.amount',
      'The amount or currency does not match the payment intent.',
    );
  }
  const succeeded = event.type === 'payment_intent.succeeded';
  if (succeeded !== (pi.status === 'succeeded')) {
    throw ValidationError.of('data.object.status', 'The status does not match the event.');
  }
  const error = succeeded ? null : (pi.last_payment_error ?? null);
  const [stored] = await ctx.tx
    .insert(payments)
    .values({
      customerId: intent.customerId,
      paymentIntentId: intent.id,
      caseId: intent.caseId,
      caseActivityId: intent.caseActivityId,
      amountPence: pi.amount,
      status: succeeded ? 'succeeded' : 'failed',
      failureCode: error?.code ?? (succeeded ? null : 'payment_failed'),
      failureMessage: error?.message ?? null,
      providerEventId: event.id,
    })
    .onConflictDoNothing({ target: payments.providerEventId })
    .returning();
  if (!stored) return 'duplicate';
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: PAYMENT_CONTENT_TYPE,
    objectId: stored.id,
    objectRepr: `${intent.publicId} ${stored.status}`,
    changes: { amount_pence: stored.amountPence, status: stored.status, event: event.id },
    customerId: intent.customerId,
  });
  const outcome = succeeded ? 'paid' : 'declined';
  if (intent.outcome !== 'awaiting') {
    if (intent.outcome === outcome) return 'stored';
    throw new ConflictError('The payment intent is already settled.');
  }
  const lastError = error?.message ?? (succeeded ? null : 'The payment failed.');
  await ctx.tx
    .update(paymentIntents)
    .set({ status: pi.status, outcome, lastError, updatedAt: ctx.clock.now() })
    .where(and(eq(paymentIntents.customerId, intent.customerId), eq(paymentIntents.id, intent.id)));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: INTENT_CONTENT_TYPE,
    objectId: intent.id,
    objectRepr: intent.publicId,
    changes: { status: [intent.status, pi.status], outcome: [intent.outcome, outcome] },
    customerId: intent.customerId,
  });
  if (intent.caseActivityId !== null) {
    await settleTopUp(ctx, intent.caseActivityId, outcome, intent.publicId);
  } else {
    // another module's purpose (a registration, a licence application): settled by it, here
    const purpose = (await discoverModules())
      .map((m) => m.paymentPurposes?.[intent.purpose])
      .find((p) => p !== undefined);
    if (!purpose) throw new Error(`no module settles payments for ${intent.purpose}`);
    await purpose.settle(ctx, intent, outcome, deps);
  }
  return 'settled';
}

/** The product payment (a case's charge) an event is about, locked; null when it is none. */
async function productPaymentOf(ctx: ServiceContext, pi: PaymentEventIn['data']['object']) {
  const meta = pi.metadata ?? {};
  const id = Number(meta.kestrel_product_payment);
  const customer = Number(meta.customer);
  if (meta.kestrel_product_payment !== undefined) {
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(customer)) return null;
    const [r] = await ctx.tx
      .select()
      .from(productPayments)
      .where(and(eq(productPayments.customerId, customer), eq(productPayments.id, id)))
      .for('update');
    return r ?? null;
  }
  const [r] = await ctx.tx
    .select()
    .from(productPayments)
    .where(eq(productPayments.providerPaymentId, pi.id))
    .limit(1)
    .for('update');
  return r ?? null;
}

const PRODUCT_TARGET: Record<ProductPaymentEvent, 'succeeded' | 'failed' | 'processing'> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.processing': 'processing',
};

/**
 * An event of a case's off-session charge (issue 30), idempotent without storing events: an
 * attempt moves only from `processing` to its result, once. `succeeded` is final at the provider,
 * and a failed attempt is final for Kestrel (a retry is a new attempt with a new intent), so
 * - the same event again finds the attempt in its state already: nothing changes ('duplicate');
 * - an older event (a `processing` after the result, or a result contradicting the one recorded)
 *   never overwrites the newer state ('ignored');
 * - `processing` while processing records the provider's intent when it is not known yet
 *   ('stored');
 * - the result, while processing, is recorded and audited with the event's id ('settled'); a
 *   success releases the case held for it (releaseCase: its state, its subject's invitation), as
 *   a charge answered at once does.
 * Null when the event is not a product payment's (a portal payment's, handled by the caller).
 */
async function receiveProductEvent(
  ctx: ServiceContext,
  event: PaymentEventIn,
  type: ProductPaymentEvent,
  deps: WebhookDeps,
): Promise<WebhookOutcome | null> {
  const pi = event.data.object;
  const row = await productPaymentOf(ctx, pi);
  if (!row) return null;
  if (row.providerPaymentId !== null && row.providerPaymentId !== pi.id) {
    throw ValidationError.of('data.object.id', 'The payment intent does not match the payment.');
  }
  if (pi.amount !== row.amountPence || pi.currency !== row.currency) {
    throw ValidationError.of(
      'data.object.amount',
      'The amount or currency does not match the payment.',
    );
  }
  const target = PRODUCT_TARGET[type];
  const statusFits =
    target === 'succeeded'
      ? pi.status === 'succeeded'
      : target === 'processing'
        ? pi.status === 'processing'
        : pi.status !== 'succeeded' && pi.status !== 'processing';
  if (!statusFits) {
    throw ValidationError.of('data.object.status', 'The status does not match the event.');
  }
  const actor = { ...ctx.actor, customerId: row.customerId };
  const theRow = and(
    eq(productPayments.customerId, row.customerId),
    eq(productPayments.id, row.id),
  );
  if (row.status !== 'processing') return row.status === target ? 'duplicate' : 'ignored';
  if (target === 'processing') {
    if (row.providerPaymentId === null) {
      await ctx.tx
        .update(productPayments)
        .set({ providerPaymentId: pi.id, updatedAt: ctx.clock.now() })
        .where(theRow);
      await recordAudit(ctx.tx, actor, {
        verb: 'updated',
        contentType: CASE_PAYMENT_CT,
        objectId: row.id,
        objectRepr: `PP-${row.id}`,
        changes: { provider_payment_id: pi.id, status: 'processing', event: event.id },
        customerId: row.customerId,
      });
    }
    return 'stored';
  }
  const error = target === 'failed' ? (pi.last_payment_error ?? null) : null;
  const failure =
    target === 'failed'
      ? {
          code: error?.code ?? 'payment_failed',
          message: error?.message ?? 'The payment failed.',
        }
      : null;
  await ctx.tx
    .update(productPayments)
    .set({
      status: target,
      providerPaymentId: pi.id,
      failureCode: failure?.code ?? null,
      failureMessage: failure?.message ?? null,
      updatedAt: ctx.clock.now(),
    })
    .where(theRow);
  await recordAudit(ctx.tx, actor, {
    verb: 'updated',
    contentType: CASE_PAYMENT_CT,
    objectId: row.id,
    objectRepr: `PP-${row.id}`,
    changes: {
      status: ['processing', target],
      provider_payment_id: pi.id,
      event: event.id,
      ...(failure ? { failure_code: failure.code, failure_message: failure.message } : {}),
    },
    customerId: row.customerId,
  });
  if (target === 'succeeded' && row.caseId !== null) {
    await releaseCase({ ...ctx, actor }, deps, row.customerId, row.caseId);
  }
  return 'settled';
}
