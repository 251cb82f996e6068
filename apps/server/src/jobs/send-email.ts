import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { type JobKind, type JobRequest, jobOf } from '../platform/jobs.js';
import type { MailMessage } from '../platform/mailer.js';

const message = z.object({
  to: z.string().min(1),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
});

/**
 * Every email the product sends: enqueued in the transaction that decides to send it, sent by
 * the mail provider (SMTP or the local outbox) in a worker. A provider that fails or hangs is
 * tried again with back-off for four to eight hours (30 s, 1, 2, 4 ... minutes, with jitter);
 * the request that caused it never waits for it.
 */
export const sendEmailJob: JobKind<MailMessage, AppDeps> = {
  name: 'send-email',
  payload: message,
  retry: { limit: 9, delaySeconds: 30, backoff: true },
  expireInSeconds: 120,
  handle: (m, deps) => deps.mailer.send(m),
};

/** The job that sends `m`: `await enqueue(tx, emailJob(m))`. */
export function emailJob(m: MailMessage): JobRequest {
  return jobOf(sendEmailJob, m);
}
