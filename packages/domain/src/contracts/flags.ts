import { z } from 'zod';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';

export const FLAG_MESSAGE_MAX = 400;
const tooLong = `Ensure this field has no more than ${FLAG_MESSAGE_MAX} characters.`;

/** POST /api/flags/: a flag raised by hand on a case or a subject (one of the two). */
export const flagCreate = z.object({
  case: idSchema.nullable().optional(),
  subject: idSchema.nullable().optional(),
  message: z.string().trim().min(1, 'Required').max(FLAG_MESSAGE_MAX, tooLong),
});

/** POST /api/flags/{id}/resolve/: the resolution comment. */
export const flagResolve = z.object({
  comment: z.string({ error: 'Required' }).trim().min(1, 'Required').max(FLAG_MESSAGE_MAX, tooLong),
});

/** A flag as /api/flags/ returns it. */
export const flagOut = z.strictObject({
  id: z.number(),
  case: z.number().nullable(),
  subject: z.number().nullable(),
  /** `manual` (raised by hand) or the rule that raised it. */
  kind: z.string(),
  message: z.string(),
  active: z.boolean(),
  created_at: timestampOut,
  created_by_name: z.string(),
  resolved_at: nullableTimestampOut,
  resolved_by_name: z.string().nullable(),
  resolution_comment: z.string(),
  /** The subject's name: the flag's own subject, or its case's. */
  subject_name: z.string().nullable(),
});
export type FlagOut = z.infer<typeof flagOut>;

/** A flag on /api/ops/flags/, with its customer. */
export const opsFlagOut = flagOut.extend({ customer: z.number() });
export type OpsFlagOut = z.infer<typeof opsFlagOut>;

/** GET /api/flags/active-count/: the navigation badge. */
export const activeFlagsOut = z.strictObject({ active: z.number() });
export type ActiveFlagsOut = z.infer<typeof activeFlagsOut>;
