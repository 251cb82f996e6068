import { z } from 'zod';
import { serviceJob } from '../../jobs/service-job.js';
import { retryHeldCases } from '../payments/case-payment.js';
import { SUBSCRIPTION_CARD_RETRY_JOB } from '../payments/payment-methods.js';
import { retryFailedPeriods } from './subscription-billing.js';

const payload = z.object({
  customer_id: z.number().int().positive(),
  payment_method_id: z.number().int().positive(),
});
export type SubscriptionCardRetryJob = z.infer<typeof payload>;

/**
 * A card saved, made the default, or made the default by a removal (payments' addMethod,
 * setDefault and removeMethod enqueue it in the card's transaction): the customer's failed
 * subscription billing periods, then its cases held for payment whose charge failed, are retried
 * to the default card, in the customer's tenant as the system (retryFailedPeriods and
 * retryHeldCases: each period and case charged at most once per default card, each locked).
 */
export const subscriptionCardRetryJob = serviceJob<SubscriptionCardRetryJob>({
  name: SUBSCRIPTION_CARD_RETRY_JOB,
  payload,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 300,
  customerOf: (d) => d.customer_id,
  handle: async (d, ctx) => {
    await retryFailedPeriods(ctx, d.payment_method_id);
    await retryHeldCases(ctx, d.payment_method_id);
  },
});
