import { z } from 'zod';
import { timestampOut } from './common.js';

/** One email of the local outbox (/api/ops/outbox/): every email when SMTP is not configured. */
export const outboxEmailOut = z.strictObject({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  created_at: timestampOut,
});
export type OutboxEmailOut = z.infer<typeof outboxEmailOut>;

/**
 * One text message of the local SMS outbox (/api/ops/outbox-sms/, issue 33): every text when no
 * Notify key is configured (the simulator), beside the emails.
 */
export const outboxSmsOut = z.strictObject({
  id: z.number(),
  /** E.164. */
  to: z.string(),
  body: z.string(),
  template_id: z.string(),
  brand: z.string(),
  reference: z.string(),
  created_at: timestampOut,
});
export type OutboxSmsOut = z.infer<typeof outboxSmsOut>;
