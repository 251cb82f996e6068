import { z } from 'zod';
import { serviceJob } from '../../jobs/service-job.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { TOP_UP_INTENT_JOB } from '../checks/activity.js';
import { createTopUpIntent } from './service.js';

const payload = z.object({
  case_activity_id: z.number().int().positive(),
  customer_id: z.number().int().positive(),
});

/**
 * Makes the payment intent of a top-up the check engine has just started awaiting, so that the
 * activity's 'Awaiting top-up payment' carries its payment link. Idempotent (one intent per
 * activity); a top-up settled or gone meanwhile needs none.
 */
export const topUpIntentJob = serviceJob<z.infer<typeof payload>>({
  name: TOP_UP_INTENT_JOB,
  payload,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 60,
  customerOf: (d) => d.customer_id,
  handle: async (d, ctx) => {
    try {
      await createTopUpIntent(ctx, d.case_activity_id);
    } catch (e) {
      if (e instanceof ConflictError || e instanceof NotFoundError) return;
      throw e;
    }
  },
});
