import { z } from 'zod';

/*
 * What a criminal-record provider (basic disclosure, e-bulk) says about an application, as an
 * answer to a status query or the body of a signed callback. Stages as applicants see them
 * (PROVIDERS.md): 1 received and validated, 2 police national computer searched, 3 barred lists
 * searched (when requested), 4 local police records (enhanced only), 5 certificate printed.
 */

export const DISCLOSURE_STAGES = [
  { stage: 1, name: 'Application received and validated' },
  { stage: 2, name: 'Police National Computer searched' },
  { stage: 3, name: 'Barred lists searched' },
  { stage: 4, name: 'Local police records checked' },
  { stage: 5, name: 'Certificate printed' },
] as const;

export const APPLICATION_STATUSES = [
  'in-progress',
  'complete',
  'cancelled',
  'top-up-required',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const applicationStageSchema = z.object({
  stage: z.number().int().min(1).max(5),
  status: z.enum(['pending', 'complete', 'not-applicable']),
  completed_date: day.nullable(),
});

export const applicationUpdateSchema = z.object({
  reference: z.string().min(1).max(100),
  status: z.enum(APPLICATION_STATUSES),
  /** The furthest stage completed (0: none yet). */
  stage: z.number().int().min(0).max(5),
  stages: z.array(applicationStageSchema).max(5),
  received_date: day.nullable(),
  e_number: z.string().max(100).nullable().optional(),
  /**
   * When the certificate was assembled and when it was despatched (null until then). Optional:
   * a provider that does not report them leaves what is known unchanged.
   */
  certificate_assembled_date: day.nullable().optional(),
  certificate_despatched_date: day.nullable().optional(),
  disclosure: z
    .object({
      status: z.enum(['clear', 'records-held', 'barred-list-match']),
      certificate_number: z.string().regex(/^\d{12}$/),
      issue_date: day,
      /** The provider's 'manual certificate' flag; absent: not said. */
      manual_certificate: z.boolean().optional(),
    })
    .nullable(),
  barred_lists: z
    .array(
      z.object({
        list: z.enum(['adult', 'child']),
        search_date: day,
        result: z.enum(['no-match', 'match']),
      }),
    )
    .max(2),
  top_up: z
    .object({ amount_pence: z.number().int().positive(), reason: z.string().min(1).max(200) })
    .nullable(),
  cancelled_reason: z.string().max(200).nullable().optional(),
});
export type ApplicationUpdate = z.infer<typeof applicationUpdateSchema>;

/** A callback: an update with the provider's event id (a replay repeats it). */
export const applicationCallbackSchema = applicationUpdateSchema.extend({
  event_id: z.string().min(1).max(100),
});
export type ApplicationCallback = z.infer<typeof applicationCallbackSchema>;
