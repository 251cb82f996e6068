import { z } from 'zod';
import { serviceJob } from '../../jobs/service-job.js';
import { type JobRequest, jobOf } from '../../platform/jobs.js';
import type { SmsMessage } from '../../providers/sms/index.js';

const message = z.object({
  to: z.string().regex(/^\+[1-9]\d{6,14}$/, 'E.164'),
  body: z.string().min(1).max(918),
  templateId: z.string().max(64),
  personalisation: z.record(z.string(), z.string().max(500)),
  brand: z.string().max(100),
  reference: z.string().max(100),
});

/**
 * Every text message the product sends (issue 33): enqueued in the transaction that decides to
 * send it, sent by the SMS provider (the simulator's row written in the system's context), retried
 * with back-off like an email; a refused one ends on the dead list (/ops/jobs).
 */
export const sendSmsJob = serviceJob<SmsMessage>({
  name: 'send-sms',
  payload: message,
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 60,
  handle: (m, ctx, deps) => deps.sms.send(m, ctx),
});

/** The job that sends `m`: `await ctx.enqueue(smsJob(m))`. */
export function smsJob(m: SmsMessage): JobRequest {
  return jobOf(sendSmsJob, m);
}
