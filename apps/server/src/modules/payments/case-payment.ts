import {
  CASE_PAYMENT_REASONS,
  CASE_PAYMENT_STATE_LABELS,
  type CasePaymentOut,
  type CasePaymentState,
  cardBrandOf,
  cardLabel,
  formatPence,
  isoDate,
  PAYMENT_METHOD_MESSAGES,
} from '@kestrel/domain';
import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { quoteProcess } from '../pricebooks/pricebooks.service.js';
import { holdForPayment } from './case-hold.js';
import { paymentProviderName } from './config.js';
import { invoicedOn } from './payment-methods.js';
import { customerPaymentMethods } from './payment-methods.table.js';
import { productPayments } from './product-payments.table.js';

/*
 * A case's charge (issue 30). When a customer's case is created, its price from the pricebook in
 * force (quoteProcess) is charged to the customer's default card, off-session: the case's
 * transaction records the attempt (product_payments, `processing`) and enqueues the job that
 * asks the provider, with an idempotency key of the case and attempt (a job run twice, or
 * retried after a timeout, charges once). Until the charge succeeds the subject's invitation
 * waits: a declined charge (or no saved card) leaves the case 'Payment needed' with the reason,
 * and POST /api/cases/{id}/retry-payment/ makes the next attempt. A customer whose pricebook
 * says 'invoiced', or a case of no price, is not charged (no row; the invitation goes at once).
 */

/** The job that charges an attempt (case-charge.ts), enqueued here by name. */
export const CASE_CHARGE_JOB = 'payments-case-charge';

/**
 * The content type of product payments' audit records: ops-payments' PRODUCT_PAYMENT_CONTENT_TYPE
 * (not imported: ops-payments reaches the check engine, which reaches the cases, which read a
 * case's payment here).
 */
export const CASE_PAYMENT_CT = 'payments.productpayment';

type PaymentRow = typeof productPayments.$inferSelect;

export const chargeKey = (customerId: number, caseId: number, attempt: number) =>
  `kestrel-case-${customerId}-${caseId}-${attempt}`;

/** The provider's idempotency key of a subscription's billing period (subscription_charges' id). */
export const subscriptionChargeKey = (customerId: number, chargeId: number) =>
  `kestrel-subscription-${customerId}-${chargeId}`;

function chargeJob(r: Pick<PaymentRow, 'customerId' | 'id'>) {
  return {
    name: CASE_CHARGE_JOB,
    data: { customer_id: r.customerId, product_payment_id: r.id },
  };
}

async function defaultCard(tx: Tx, customerId: number) {
  const [r] = await tx
    .select()
    .from(customerPaymentMethods)
    .where(
      and(
        eq(customerPaymentMethods.customerId, customerId),
        eq(customerPaymentMethods.isDefault, true),
      ),
    )
    .limit(1);
  return r && r.removedAt === null ? r : null;
}

/**
 * Records a new attempt at a charge to the customer's card in the caller's transaction (a
 * case's, or a subscription's billing period: `caseId` null and its own key): `processing` with
 * the default card (its job enqueued), or `failed` at once when no card is saved. Audited.
 */
async function recordAttempt(
  ctx: ServiceContext,
  c: {
    customerId: number;
    caseId: number | null;
    amountPence: number;
    description: string;
    key?: string;
  },
  attempt: number,
  savedCard?: number,
): Promise<PaymentRow> {
  const card = await defaultCard(ctx.tx, c.customerId);
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(productPayments)
    .values({
      customerId: c.customerId,
      caseId: c.caseId,
      description: c.description.slice(0, 200),
      amountPence: c.amountPence,
      provider: paymentProviderName(),
      status: card ? 'processing' : 'failed',
      attempt,
      paymentMethodId: card?.id ?? null,
      idempotencyKey: c.key ?? chargeKey(c.customerId, c.caseId ?? 0, attempt),
      failureCode: card ? null : 'no_payment_method',
      failureMessage: card ? null : CASE_PAYMENT_REASONS.noPaymentMethod,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('product payment not stored');
  if (card) await ctx.enqueue(chargeJob(row));
  await recordAudit(ctx.tx, ctx.actor, {
    verb: attempt === 1 ? 'created' : 'requested',
    contentType: CASE_PAYMENT_CT,
    objectId: row.id,
    objectRepr: `PP-${row.id}`,
    changes: {
      case: c.caseId,
      amount_pence: c.amountPence,
      attempt,
      status: row.status,
      card: card ? cardLabel(cardBrandOf(card.brand), card.last4) : null,
      // the automatic retry of a card saved (issue 31): the card whose record queued it
      ...(savedCard !== undefined ? { card_saved: savedCard } : {}),
    },
    customerId: c.customerId,
  });
  return row;
}

/**
 * The hook of case creation (openCase, in its transaction): charges the new case when the
 * customer pays per case and the case has a price. True when the case is held for payment (its
 * invitation waits for the charge), false when it goes on at once.
 */
export async function holdCaseForPayment(
  ctx: ServiceContext,
  c: { customerId: number; caseId: number; processId: number; processName: string },
): Promise<boolean> {
  if (await invoicedOn(ctx.tx, c.customerId, isoDate(ctx.clock.now()))) return false;
  const quote = await quoteProcess(ctx, c.customerId, c.processId);
  if (quote.total_pence <= 0) return false;
  await recordAttempt(
    ctx,
    {
      customerId: c.customerId,
      caseId: c.caseId,
      amountPence: quote.total_pence,
      description: `${c.processName} (case ${c.caseId})`,
    },
    1,
  );
  // shown 'Awaiting payment' (not 'Awaiting subject') until the charge succeeds
  await holdForPayment(ctx.tx, ctx.actor, c.customerId, c.caseId, ctx.clock.now());
  return true;
}

/**
 * A subscription's billing period owed by card (cycles' billPeriod, in its transaction): one
 * product payment of no case, charged to the default card by the same job as a case's, with the
 * period's own idempotency key (the period is recorded once, so it is charged once). A missing
 * card records it failed, as a case's would be.
 */
export async function chargeSubscriptionPeriod(
  ctx: ServiceContext,
  c: { customerId: number; chargeId: number; amountPence: number; description: string },
): Promise<void> {
  await recordAttempt(
    ctx,
    {
      customerId: c.customerId,
      caseId: null,
      amountPence: c.amountPence,
      description: c.description,
      key: subscriptionChargeKey(c.customerId, c.chargeId),
    },
    1,
  );
}

/**
 * The key of attempt `attempt` at a subscription's billing period: the first is the period's own
 * key, each retry `-{attempt}` after it (a retry is a new charge; each attempt is charged once).
 */
export const subscriptionChargeAttemptKey = (
  customerId: number,
  chargeId: number,
  attempt: number,
) =>
  attempt === 1
    ? subscriptionChargeKey(customerId, chargeId)
    : `${subscriptionChargeKey(customerId, chargeId)}-${attempt}`;

/** The 400 of a retry when the period's last attempt did not fail. */
export const SUBSCRIPTION_NOTHING_TO_RETRY = 'This billing period has no payment to retry.';

/**
 * The latest attempt at each of the billing periods `chargeIds` charged by card (a map by
 * subscription_charges' id; a period not charged yet is absent). A period's attempts are the rows
 * whose subscription_charge_id PostgreSQL reads from their key (product-payments.table.ts), read
 * through product_payments_subscription_charge_idx: the periods asked for only, however many
 * attempts each has had.
 */
export async function subscriptionChargeAttempts(
  tx: Tx,
  customerId: number,
  chargeIds: readonly number[],
): Promise<Map<number, PaymentRow>> {
  const out = new Map<number, PaymentRow>();
  if (chargeIds.length === 0) return out;
  const rows = await tx
    .selectDistinctOn([productPayments.subscriptionChargeId])
    .from(productPayments)
    .where(
      and(
        eq(productPayments.customerId, customerId),
        isNotNull(productPayments.subscriptionChargeId),
        inArray(productPayments.subscriptionChargeId, [...new Set(chargeIds)]),
      ),
    )
    .orderBy(productPayments.subscriptionChargeId, desc(productPayments.attempt));
  for (const r of rows) {
    if (r.subscriptionChargeId !== null) out.set(r.subscriptionChargeId, r);
  }
  return out;
}

/**
 * The next attempt at a subscription's billing period whose last attempt failed (the caller
 * holds the period's row locked: two retries at once make one attempt), to the default card as
 * it is now: 400 when the last attempt did not fail (paid, or still processing) or no card is
 * saved. Audited as an attempt. Answers the new attempt.
 */
export async function retrySubscriptionCharge(
  ctx: ServiceContext,
  c: { customerId: number; chargeId: number; otherCardOnly?: boolean },
): Promise<PaymentRow> {
  const last = (await subscriptionChargeAttempts(ctx.tx, c.customerId, [c.chargeId])).get(
    c.chargeId,
  );
  if (last?.status !== 'failed') {
    throw ValidationError.of('non_field_errors', SUBSCRIPTION_NOTHING_TO_RETRY);
  }
  const card = await defaultCard(ctx.tx, c.customerId);
  if (!card) {
    throw ValidationError.of('non_field_errors', CASE_PAYMENT_REASONS.noPaymentMethod);
  }
  // the automatic retry (a card saved) tries a period once per default card: not again with the
  // card its last attempt failed with (a job run twice, or a card saved that is not the default)
  if (c.otherCardOnly && last.paymentMethodId === card.id) {
    throw ValidationError.of('non_field_errors', SUBSCRIPTION_NOTHING_TO_RETRY);
  }
  return recordAttempt(
    ctx,
    {
      customerId: c.customerId,
      caseId: null,
      amountPence: last.amountPence,
      description: last.description,
      key: subscriptionChargeAttemptKey(c.customerId, c.chargeId, last.attempt + 1),
    },
    last.attempt + 1,
  );
}

/**
 * The customer's billing periods charged by card whose last attempt failed with another card
 * than `cardId` (or with none): what saving `cardId` as the default retries, oldest first. One
 * read of the customer's periods' attempts through product_payments_subscription_charge_idx
 * (a card is saved rarely), the latest of each.
 */
export async function failedSubscriptionCharges(
  tx: Tx,
  customerId: number,
  cardId: number,
): Promise<number[]> {
  const latest = await tx
    .selectDistinctOn([productPayments.subscriptionChargeId], {
      chargeId: productPayments.subscriptionChargeId,
      status: productPayments.status,
      paymentMethodId: productPayments.paymentMethodId,
    })
    .from(productPayments)
    .where(
      and(
        eq(productPayments.customerId, customerId),
        isNotNull(productPayments.subscriptionChargeId),
      ),
    )
    .orderBy(productPayments.subscriptionChargeId, desc(productPayments.attempt));
  const out: number[] = [];
  for (const r of latest) {
    if (r.chargeId !== null && r.status === 'failed' && r.paymentMethodId !== cardId) {
      out.push(r.chargeId);
    }
  }
  return out.sort((a, b) => a - b);
}

async function latestAttempt(tx: Tx, customerId: number, caseId: number) {
  const [r] = await tx
    .select()
    .from(productPayments)
    .where(and(eq(productPayments.customerId, customerId), eq(productPayments.caseId, caseId)))
    .orderBy(desc(productPayments.attempt))
    .limit(1);
  return r ?? null;
}

const stateOf = (status: string): CasePaymentState =>
  status === 'succeeded' ? 'paid' : status === 'processing' ? 'pending' : 'payment_needed';

/** The case detail's `payment`: its latest attempt, null when the case is not charged. */
export async function casePaymentOf(
  tx: Tx,
  customerId: number,
  caseId: number,
): Promise<CasePaymentOut | null> {
  const r = await latestAttempt(tx, customerId, caseId);
  if (!r) return null;
  let card: string | null = null;
  if (r.paymentMethodId !== null) {
    const [m] = await tx
      .select({ brand: customerPaymentMethods.brand, last4: customerPaymentMethods.last4 })
      .from(customerPaymentMethods)
      .where(
        and(
          eq(customerPaymentMethods.customerId, customerId),
          eq(customerPaymentMethods.id, r.paymentMethodId),
        ),
      );
    card = m ? cardLabel(cardBrandOf(m.brand), m.last4) : null;
  }
  const state = stateOf(r.status);
  return {
    state,
    state_display: CASE_PAYMENT_STATE_LABELS[state],
    amount_pence: r.amountPence,
    amount_display: formatPence(r.amountPence),
    reason: state === 'payment_needed' ? (r.failureMessage ?? 'The payment failed.') : null,
    product_payment: r.id,
    attempts: r.attempt,
    card,
  };
}

/**
 * POST /api/cases/{id}/retry-payment/: the next attempt at a case held for payment, to the
 * default card as it is now (400 when none is saved, or nothing awaits payment: the last attempt
 * did not fail, or the case is finished). Audited.
 */
export async function retryCasePayment(
  ctx: ServiceContext,
  caseId: number,
): Promise<CasePaymentOut> {
  const customerId = ctx.actor.customerId;
  if (customerId === null) throw new NotFoundError();
  const [c] = await ctx.tx
    .select({ id: cases.id, state: cases.state })
    .from(cases)
    .where(and(eq(cases.customerId, customerId), eq(cases.id, caseId)))
    .for('update');
  if (!c) throw new NotFoundError();
  const last = await latestAttempt(ctx.tx, customerId, caseId);
  // a finished case (cancelled while held) is not charged
  if (last?.status !== 'failed' || c.state === 'cancelled' || c.state === 'complete') {
    throw ValidationError.of('non_field_errors', PAYMENT_METHOD_MESSAGES.nothingToRetry);
  }
  if (!(await defaultCard(ctx.tx, customerId))) {
    throw ValidationError.of('non_field_errors', CASE_PAYMENT_REASONS.noPaymentMethod);
  }
  await recordAttempt(
    ctx,
    {
      customerId,
      caseId,
      amountPence: last.amountPence,
      description: last.description,
    },
    last.attempt + 1,
  );
  const out = await casePaymentOf(ctx.tx, customerId, caseId);
  if (!out) throw new NotFoundError();
  return out;
}

/**
 * The customer's cases held for payment (issue 31: 'awaiting-payment', not archived) whose last
 * attempt failed with another card than `cardId` (or with none): what saving `cardId` as the
 * default retries, oldest first. Read through cases_open_state_idx (the customer's held cases
 * only), then each one's latest attempt through product_payments_case_attempt_idx.
 */
export async function heldCaseCharges(
  tx: Tx,
  customerId: number,
  cardId: number,
): Promise<number[]> {
  const held = await tx
    .select({ id: cases.id })
    .from(cases)
    .where(
      and(
        eq(cases.customerId, customerId),
        eq(cases.state, 'awaiting-payment'),
        isNull(cases.archivedAt),
      ),
    )
    .orderBy(asc(cases.id));
  if (held.length === 0) return [];
  const latest = await tx
    .selectDistinctOn([productPayments.caseId], {
      caseId: productPayments.caseId,
      status: productPayments.status,
      paymentMethodId: productPayments.paymentMethodId,
    })
    .from(productPayments)
    .where(
      and(
        eq(productPayments.customerId, customerId),
        inArray(
          productPayments.caseId,
          held.map((h) => h.id),
        ),
      ),
    )
    .orderBy(productPayments.caseId, desc(productPayments.attempt));
  const out: number[] = [];
  for (const r of latest) {
    if (r.caseId !== null && r.status === 'failed' && r.paymentMethodId !== cardId) {
      out.push(r.caseId);
    }
  }
  return out.sort((a, b) => a - b);
}

/**
 * The automatic retry of one case held for payment once a card is saved (or made the default):
 * the case's row locked (concurrent runs, or staff's retry, make one attempt: the next sees it
 * processing), then its next attempt to the default card, audited naming the card saved. Nothing
 * when the case is no longer held, its last attempt did not fail, or it failed with the default
 * card already (each case is tried once per default card). True when an attempt was made.
 */
export async function retryHeldCase(
  ctx: ServiceContext,
  customerId: number,
  caseId: number,
  savedCard: number,
): Promise<boolean> {
  const [c] = await ctx.tx
    .select({ state: cases.state })
    .from(cases)
    .where(and(eq(cases.customerId, customerId), eq(cases.id, caseId)))
    .for('update');
  if (c?.state !== 'awaiting-payment') return false;
  const last = await latestAttempt(ctx.tx, customerId, caseId);
  const card = await defaultCard(ctx.tx, customerId);
  if (last?.status !== 'failed' || !card || last.paymentMethodId === card.id) return false;
  await recordAttempt(
    ctx,
    { customerId, caseId, amountPence: last.amountPence, description: last.description },
    last.attempt + 1,
    savedCard,
  );
  return true;
}

/**
 * A card saved or made the default (the card-retry job, issue 31): each of the customer's cases
 * held for payment whose charge failed with no card or another is charged again to the default
 * card (retryHeldCase), oldest first. Answers how many cases were charged again.
 */
export async function retryHeldCases(ctx: ServiceContext, savedCard: number): Promise<number> {
  const customerId = ctx.actor.customerId;
  if (customerId === null) return 0;
  const card = await defaultCard(ctx.tx, customerId);
  if (!card) return 0;
  let retried = 0;
  for (const caseId of await heldCaseCharges(ctx.tx, customerId, card.id)) {
    if (await retryHeldCase(ctx, customerId, caseId, savedCard)) retried += 1;
  }
  return retried;
}
