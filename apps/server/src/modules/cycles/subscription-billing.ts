import {
  formatPence,
  SUBSCRIPTION_BILLING_LABELS,
  type SubscriptionBillingOut,
  type SubscriptionBillingState,
} from '@kestrel/domain';
import { and, desc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import {
  failedSubscriptionCharges,
  retrySubscriptionCharge,
  subscriptionChargeAttempts,
} from '../payments/case-payment.js';
import { defaultMethod } from '../payments/payment-methods.js';
import { subscriptionCharges, subscriptions } from './cycles.table.js';
import { SUBSCRIPTION_CT } from './subscriptions.service.js';

/*
 * A subscription's billing as staff see it (issue 31): its last billing period, invoiced or
 * charged to the card (paid, processing or failed with the reason), and the retry of a failed
 * period's charge (a new attempt to the default card as it is now).
 */

type ChargeRow = typeof subscriptionCharges.$inferSelect;

const stateOf = (status: string | undefined): SubscriptionBillingState =>
  status === 'succeeded' ? 'paid' : status === 'processing' ? 'pending' : 'failed';

async function present(
  tx: Tx,
  customerId: number,
  rows: ChargeRow[],
): Promise<SubscriptionBillingOut[]> {
  const cards = rows.filter((r) => r.kind === 'card').map((r) => r.id);
  const attempts = await subscriptionChargeAttempts(tx, customerId, cards);
  return rows.map((r) => {
    const last = attempts.get(r.id);
    // a card period with no attempt yet is charged in the period's own transaction: pending
    const state: SubscriptionBillingState =
      r.kind === 'invoice' ? 'invoiced' : last ? stateOf(last.status) : 'pending';
    return {
      subscription: r.subscriptionId,
      charge: r.id,
      period: r.period.toISOString(),
      amount_pence: r.amountPence,
      amount_display: formatPence(r.amountPence),
      state,
      state_display: SUBSCRIPTION_BILLING_LABELS[state],
      reason: state === 'failed' ? (last?.failureMessage ?? 'The payment failed.') : null,
      attempts: last?.attempt ?? 0,
    };
  });
}

/**
 * The last billing period of each of `ids` (the actor's customer's; others are absent). Read
 * through their subscriptions, which the segment scope narrows (subscription_charges has no
 * subject, case or process of its own): a segment-limited user's periods are those of the
 * subscriptions they see; another segment's are absent, as another customer's.
 */
export async function lastBilling(
  ctx: ServiceContext,
  ids: readonly number[],
): Promise<SubscriptionBillingOut[]> {
  const customerId = ctx.actor.customerId;
  if (customerId === null || ids.length === 0) return [];
  const rows = await ctx.tx
    .selectDistinctOn([subscriptionCharges.subscriptionId], getTableColumns(subscriptionCharges))
    .from(subscriptionCharges)
    .innerJoin(
      subscriptions,
      and(
        eq(subscriptions.customerId, subscriptionCharges.customerId),
        eq(subscriptions.id, subscriptionCharges.subscriptionId),
      ),
    )
    .where(
      and(
        eq(subscriptionCharges.customerId, customerId),
        inArray(subscriptionCharges.subscriptionId, [...ids]),
      ),
    )
    .orderBy(subscriptionCharges.subscriptionId, desc(subscriptionCharges.period));
  return present(ctx.tx, customerId, rows);
}

/**
 * POST /api/subscription-charges/{id}/retry-payment/: its subscription's row locked (two retries
 * at once make one attempt), 404 for another customer's, 400 when its last attempt did not fail (or
 * it is invoiced) or no card is saved; audited on the subscription too.
 */
export async function retrySubscriptionPayment(
  ctx: ServiceContext,
  chargeId: number,
  auto?: { savedCard: number },
): Promise<SubscriptionBillingOut> {
  const customerId = ctx.actor.customerId;
  if (customerId === null) throw new NotFoundError();
  const [row] = await ctx.tx
    .select()
    .from(subscriptionCharges)
    .where(
      and(eq(subscriptionCharges.customerId, customerId), eq(subscriptionCharges.id, chargeId)),
    );
  if (!row) throw new NotFoundError();
  // the subscription's row locked (billing periods are history: not updatable): two retries at
  // once make one attempt, the second sees it processing
  const [sub] = await ctx.tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.customerId, customerId), eq(subscriptions.id, row.subscriptionId)))
    .for('update');
  if (!sub) throw new NotFoundError();
  const attempt = await retrySubscriptionCharge(ctx, {
    customerId,
    chargeId,
    otherCardOnly: auto !== undefined,
  });
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'requested',
    contentType: SUBSCRIPTION_CT,
    objectId: row.subscriptionId,
    objectRepr: `subscription ${sub.id}`,
    changes: {
      retry_payment: {
        charge: row.id,
        period: row.period.toISOString(),
        attempt: attempt.attempt,
        ...(auto ? { card_saved: auto.savedCard } : {}),
      },
    },
    customerId,
  });
  const [out] = await present(ctx.tx, customerId, [row]);
  if (!out) throw new NotFoundError();
  return out;
}

/**
 * A card saved (the job payments' addMethod enqueues): each of the customer's billing periods
 * whose last charge failed, with no card or another than the default now, is retried to the
 * default card by retrySubscriptionPayment (its subscription locked, audited), oldest first. A
 * period paid, processing, or tried with this card already is left alone, so the job run twice
 * charges a period once. Answers how many periods were retried.
 */
export async function retryFailedPeriods(ctx: ServiceContext, savedCard: number): Promise<number> {
  const customerId = ctx.actor.customerId;
  if (customerId === null) return 0;
  const card = await defaultMethod(ctx.tx, customerId);
  if (!card) return 0;
  let retried = 0;
  for (const chargeId of await failedSubscriptionCharges(ctx.tx, customerId, card.id)) {
    try {
      await retrySubscriptionPayment(ctx, chargeId, { savedCard });
      retried += 1;
    } catch (e) {
      // retried meanwhile (by staff, or a concurrent run), or its subscription gone
      if (e instanceof ValidationError || e instanceof NotFoundError) continue;
      throw e;
    }
  }
  return retried;
}
