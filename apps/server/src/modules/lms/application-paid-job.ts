import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { serviceJob } from '../../jobs/service-job.js';
import type { JobRequest } from '../../platform/jobs.js';
import { applicationFeePaid } from './lms-applications.service.js';

export const APPLICATION_PAID_JOB = 'lms-application-paid';

const payload = z.object({
  customer_id: z.number().int().positive(),
  application_id: z.number().int().positive(),
  payment: z.string().min(1).max(40),
});

/** The job recording an application's fee paid through the payment portal (the webhook's). */
export function applicationPaidJob(
  customerId: number,
  applicationId: number,
  payment: string,
): JobRequest {
  return {
    name: APPLICATION_PAID_JOB,
    data: { customer_id: customerId, application_id: applicationId, payment },
  };
}

/**
 * Records the fee paid and opens the application's case, in the council's tenant (the payment
 * webhook runs as the system, which opens no case): once, however often it runs.
 */
export const applicationPaidJobKind = serviceJob<z.infer<typeof payload>, AppDeps>({
  name: APPLICATION_PAID_JOB,
  payload,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 120,
  customerOf: (d) => d.customer_id,
  handle: async (d, ctx, deps) => {
    await applicationFeePaid(
      ctx,
      { publicUrl: deps.config.publicUrl },
      d.application_id,
      d.payment,
    );
  },
});
