import { z } from 'zod';
import { timestampOut } from './common.js';

/** One row of /api/audit-actions/ and /api/ops/audit-actions/. */
export const auditActionOut = z.strictObject({
  id: z.number(),
  customer: z.number().nullable(),
  actor_type: z.string().nullable(),
  actor: z.number().nullable(),
  actor_name: z.string(),
  verb: z.string(),
  content_type: z.string(),
  object_id: z.string().nullable(),
  object_repr: z.string(),
  changes: z.record(z.string(), z.unknown()),
  created_at: timestampOut,
});
export type AuditActionOut = z.infer<typeof auditActionOut>;
