import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { serviceJob } from '../../jobs/service-job.js';
import type { JobRequest } from '../../platform/jobs.js';
import { openPaidRegistrationCase } from './registrations.service.js';

export const REGISTRATION_CASE_JOB = 'registration-case';

const payload = z.object({
  customer_id: z.number().int().positive(),
  registration_id: z.number().int().positive(),
});

/** The job that opens a paid registration's case (enqueued where the payment is settled). */
export function registrationCaseJob(customerId: number, registrationId: number): JobRequest {
  return {
    name: REGISTRATION_CASE_JOB,
    data: { customer_id: customerId, registration_id: registrationId },
  };
}

/**
 * Opens the case of a registration whose subject paid, in the customer's tenant (the payment
 * webhook runs as the system, which opens no case): once, whatever runs it twice.
 */
export const registrationCaseJobKind = serviceJob<z.infer<typeof payload>, AppDeps>({
  name: REGISTRATION_CASE_JOB,
  payload,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 120,
  customerOf: (d) => d.customer_id,
  handle: async (d, ctx, deps) => {
    await openPaidRegistrationCase(ctx, { publicUrl: deps.config.publicUrl }, d.registration_id);
  },
});
