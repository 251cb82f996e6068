import { z } from 'zod';
import { serviceJob } from '../../jobs/service-job.js';
import { SUBSCRIPTION_CARD_RETRY_JOB } from '../payments/payment-methods.js';
import { retryFailedPeriods } from './subscription-billing.js';

const payload = z.object({
  customer_id: z.number().int().positive(),
  payment_method_id: z.number().int().positive(),
});
export type SubscriptionCardRetryJob = z.infer<typeof payload>;

/**
 * A card saved (payments' addMethod enqueues it in the card's transaction): the customer's
 * failed subscription billing periods are retried to the default card, in the customer's tenant
 * as the system (retryFailedPeriods: each period charged at most once per card).
 */
export const subscriptionCardRetryJob = serviceJob<SubscriptionCardRetryJob>({
  name: SUBSCRIPTION_CARD_RETRY_JOB,
  payload,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 300,
  customerOf: (d) => d.customer_id,
  handle: async (d, ctx) => {
    await retryFailedPeriods(ctx, d.payment_method_id);
  },
});
