import { z } from 'zod';
import {
  ADULT_FIRST_RESULTS,
  ADULT_FIRST_STAGES,
  type AdultFirstResult,
  adultFirstPendingSchema,
} from '../adult-first.js';
import { adultFirstResultDataSchema } from '../checks/results.js';
import { dbsEnhancedProviderSchema } from '../ops-forms.js';

const RESULT_VALUES = ADULT_FIRST_RESULTS.map((r) => r.value) as [
  AdultFirstResult,
  ...AdultFirstResult[],
];

/**
 * POST /api/ops/case-activities/{id}/progress/ (spec point 7): `stage` is the stage operations
 * saw (the activity must still be there) and `data` what that stage's form gives: the linked
 * DBS case and reference (and an optional e-number) at pending, the result at requested.
 */
export const activityProgressIn = z.object({
  stage: z.enum(ADULT_FIRST_STAGES),
  data: z.object({
    dbs_case: z.number().int().positive().optional(),
    reference: z.string().max(30).optional(),
    e_number: z.string().trim().max(30).optional(),
    result: z.enum(RESULT_VALUES).optional(),
  }),
});
export type ActivityProgressIn = z.infer<typeof activityProgressIn>;

/** The pending stage's data, as the form checks it ('Required' on a missing case or reference). */
export const adultFirstPendingData = adultFirstPendingSchema.extend({
  e_number: z.string().trim().max(30).optional(),
});

/** Adult-first result data as answered (strict: a field more fails the contract). */
export const adultFirstResultDataOut = z.strictObject(adultFirstResultDataSchema.shape);

/** The processing data after a PATCH of it. */
export const processingDataOut = z.strictObject({
  id: z.number(),
  processing_data: z.record(z.string(), z.unknown()),
});

/** A case that can be linked as the adult-first request's DBS case. */
export const dbsCaseOptionOut = z.strictObject({ id: z.number(), label: z.string() });

/**
 * GET /api/ops/case-activities/{id}/serviced-stage/: the stage operations work on, the next one,
 * the result data so far and the DBS cases that can be linked.
 */
export const servicedStageOut = z.strictObject({
  activity: z.number(),
  case: z.number(),
  activity_type: z.string(),
  stage: z.enum(ADULT_FIRST_STAGES),
  next_stage: z.enum(ADULT_FIRST_STAGES).nullable(),
  state: z.string(),
  result_data: adultFirstResultDataOut,
  dbs_case_options: z.array(dbsCaseOptionOut),
});
export type ServicedStageOut = z.infer<typeof servicedStageOut>;

/**
 * PATCH /api/ops/case-activities/{id}/processing-data/: keys merged into the activity's
 * processing data (operations only). `provider_configuration` is the DBS enhanced provider
 * configuration form (point 5: nine required fields, valid emails). On a check the engine runs,
 * the rest is its provider log, which no one edits by hand (the server refuses other keys).
 */
export const processingDataPatch = z
  .object({
    provider_configuration: dbsEnhancedProviderSchema.optional(),
  })
  .catchall(z.unknown());
export type ProcessingDataPatch = z.infer<typeof processingDataPatch>;

/** POST /api/case-activities/{id}/request-adult-first/: the adult-first activity created. */
export const adultFirstRequestOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  state: z.string(),
  activity_type: z.literal('adult-first'),
  result_data: adultFirstResultDataOut,
});
export type AdultFirstRequestOut = z.infer<typeof adultFirstRequestOut>;

/**
 * GET /api/s/case-activities/{id}/result/: the subject's restricted view of one of its
 * activities' result (no processing data, no notes, no other people's names).
 */
export const subjectActivityResultOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  activity_type: z.string(),
  state: z.string(),
  result_data: z.record(z.string(), z.unknown()),
});
export type SubjectActivityResultOut = z.infer<typeof subjectActivityResultOut>;

/** Result data as the subject may read it: other people's names and staff references removed. */
export function subjectResultData(code: string, data: unknown): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  const out: Record<string, unknown> = { ...data };
  const application = out.application;
  if (typeof application === 'object' && application !== null) {
    const {
      verified_by: _v,
      countersigned_by: _c,
      ...rest
    } = application as Record<string, unknown>;
    out.application = rest;
  }
  if (code === 'adult-first') {
    delete out.reference;
    delete out.e_number;
  }
  return out;
}
