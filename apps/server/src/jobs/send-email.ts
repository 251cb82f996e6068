import { z } from 'zod';
import { type JobRequest, jobOf } from '../platform/jobs.js';
import type { MailMessage } from '../platform/mailer.js';
import { serviceJob } from './service-job.js';

const message = z.object({
  to: z.string().min(1),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  fromName: z.string().optional(),
});

/**
 * Every email the product sends: enqueued in the transaction that decides to send it, sent by
 * the mail provider (SMTP or the local outbox) in a worker, from the system's service context
 * (the outbox row is written in it; SMTP talks once it has committed). A provider that fails or
 * hangs is tried again with back-off for four to eight hours (30 s, 1, 2, 4 ... minutes, with
 * jitter); the request that caused it never waits for it. Each server process sends
 * SEND_EMAIL_WORKERS at once; JOB_CONCURRENCY=send-email=<n> changes it. More workers pay off
 * where a send waits on the network (SMTP to a remote relay); with the local outbox a
 * send is CPU and database work, and the email-drain bench (issue 33) measured no faster drain
 * with 4 or 8 on two busy cores, while the case list's p99 during the drain suffered.
 */
export const SEND_EMAIL_WORKERS = 1;

export const sendEmailJob = serviceJob<MailMessage>({
  name: 'send-email',
  payload: message,
  retry: { limit: 9, delaySeconds: 30, backoff: true },
  expireInSeconds: 120,
  workers: SEND_EMAIL_WORKERS,
  handle: (m, ctx, deps) => deps.mailer.send(m, ctx),
});

/** The job that sends `m`: `await ctx.enqueue(emailJob(m))`. */
export function emailJob(m: MailMessage): JobRequest {
  return jobOf(sendEmailJob, m);
}
