import { z } from 'zod';
import { subjectOut } from './subjects.js';

export const DUPLICATE_REASONS = ['name_dob', 'email'] as const;

/** One likely duplicate pair (GET /api/subjects/duplicates/ and .../{id}/duplicates/). */
export const duplicatePairOut = z.strictObject({
  subject: subjectOut,
  duplicate: subjectOut,
  reasons: z.array(z.enum(DUPLICATE_REASONS)),
});
export type DuplicatePairOut = z.infer<typeof duplicatePairOut>;
