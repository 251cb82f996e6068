import { z } from 'zod';

/**
 * The answers and bodies of the data-request routes (issue 34): erasure requests, by a
 * customer's staff for a subject (/api/erasure-requests/) and by the subject itself
 * (/api/s/erasure-requests/). The subject access archive is a ZIP file, not JSON.
 */

export const erasureStateSchema = z.enum(['pending', 'refused', 'completed']);
export type ErasureState = z.infer<typeof erasureStateSchema>;

/** What a carried-out erasure did: rows removed per table, files, results, what stays. */
export const erasureOutcomeOut = z.strictObject({
  removed: z.record(z.string(), z.number()),
  files: z.number(),
  results: z.number(),
  kept: z.array(z.string()),
  sign_in: z.enum(['disabled', 'kept', 'pending']),
});
export type ErasureOutcomeOut = z.infer<typeof erasureOutcomeOut>;

/** A request as the customer's staff see it. */
export const erasureRequestOut = z.strictObject({
  id: z.number(),
  subject: z.strictObject({ id: z.number(), name: z.string() }),
  state: erasureStateSchema,
  state_display: z.string(),
  requested_by: z.enum(['staff', 'subject']),
  requested_by_name: z.string(),
  reason: z.string(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by_name: z.string(),
  decision_reason: z.string(),
  completed_at: z.string().nullable(),
  outcome: erasureOutcomeOut.nullable(),
});
export type ErasureRequestOut = z.infer<typeof erasureRequestOut>;

/** A subject's own request, as its profile shows it (one per organisation holding it). */
export const subjectErasureRequestOut = z.strictObject({
  id: z.number(),
  customer: z.strictObject({ id: z.number(), name: z.string() }),
  state: erasureStateSchema,
  state_display: z.string(),
  reason: z.string(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decision_reason: z.string(),
  completed_at: z.string().nullable(),
});
export type SubjectErasureRequestOut = z.infer<typeof subjectErasureRequestOut>;

const erasureReason = z.string().trim().max(1000);

/** POST /api/erasure-requests/: staff record a request on a subject's behalf. */
export const erasureRequestCreate = z.strictObject({
  subject: z.number().int().positive(),
  reason: erasureReason.default(''),
});
export type ErasureRequestCreate = z.input<typeof erasureRequestCreate>;

/** POST /api/s/erasure-requests/: the subject asks (every organisation holding it). */
export const subjectErasureRequestCreate = z.strictObject({ reason: erasureReason.default('') });
export type SubjectErasureRequestCreate = z.input<typeof subjectErasureRequestCreate>;

/** POST /api/erasure-requests/{id}/decide/: approved (carried out at once) or refused. */
export const erasureDecision = z.strictObject({
  decision: z.enum(['approve', 'refuse']),
  reason: erasureReason.default(''),
});
export type ErasureDecision = z.input<typeof erasureDecision>;

/** GET /api/erasure-requests/'s filters. */
export const erasureListFilters = z.object({
  state: erasureStateSchema.optional(),
  subject: z.coerce.number().int().positive().optional(),
});
