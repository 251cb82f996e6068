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
