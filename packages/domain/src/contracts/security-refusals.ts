import { z } from 'zod';
import { timestampOut } from './common.js';

/** One row of /api/security-refusals/: refused requests per actor, route and hour. */
export const securityRefusalOut = z.strictObject({
  id: z.number(),
  customer: z.number().nullable(),
  actor_type: z.string().nullable(),
  actor: z.number().nullable(),
  actor_name: z.string(),
  route: z.string(),
  path: z.string(),
  reason: z.string(),
  count: z.number(),
  first_seen_at: timestampOut,
  last_seen_at: timestampOut,
});
export type SecurityRefusalOut = z.infer<typeof securityRefusalOut>;
