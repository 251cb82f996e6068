import { z } from 'zod';
import { notesSchema } from '../ops-forms.js';
import { nullableTimestampOut, timestampOut } from './common.js';
import { activityClaimOut } from './ops-queue.js';
import { activityConfigOut } from './processes.js';
import { subjectBriefOut } from './subjects.js';

/** POST /api/case-activities/{id}/notes/ (operations only): at most 400 characters. */
export const activityNotesCreate = z.object({ notes: notesSchema.trim() });

/** PATCH /api/case-activities/{id}/. */
export const caseActivityPatch = z.object({
  state: z.string().max(40).optional(),
  result_data: z.record(z.string(), z.unknown()).optional(),
  /** Operations only (point 7): 403 for anyone else, never silently dropped. */
  processing_data: z.record(z.string(), z.unknown()).optional(),
  /** Operations only (point 6), saved to the notes history like POST .../notes/. */
  notes: activityNotesCreate.shape.notes.optional(),
});

/** An activity of the same case, in brief. */
export const siblingActivityOut = z.strictObject({
  id: z.number(),
  state: z.string(),
  state_display: z.string(),
  activity_type: z.string(),
  activity_type_name: z.string(),
});
export type SiblingActivityOut = z.infer<typeof siblingActivityOut>;

/** The case an activity belongs to, in brief (with its activities on lists and details). */
export const activityCaseOut = z.strictObject({
  id: z.number(),
  state: z.string(),
  subject: subjectBriefOut,
  case_activities: z.array(siblingActivityOut).optional(),
});

/**
 * A case activity as the API returns it. `notes` is present only in an operations session
 * (spec point 6).
 */
export const caseActivityOut = z.strictObject({
  id: z.number(),
  case: activityCaseOut,
  state: z.string(),
  state_display: z.string(),
  activity_type: z.string(),
  activity_type_name: z.string(),
  key: z.string(),
  config: activityConfigOut,
  result_data: z.record(z.string(), z.unknown()),
  processing_data: z.record(z.string(), z.unknown()),
  notes: z.string().optional(),
  created_at: timestampOut,
  updated_at: timestampOut,
  completed_at: nullableTimestampOut,
});
export type CaseActivityOut = z.infer<typeof caseActivityOut>;

/**
 * An activity on /api/case-activities/ and the outstanding lists: with the case's activities in
 * brief and its customer (the ops lists show it).
 */
export const caseActivityListItemOut = caseActivityOut.extend({
  case: activityCaseOut.extend({ case_activities: z.array(siblingActivityOut) }),
  customer: z.number(),
  customer_name: z.string(),
  /**
   * Operations' claim on it (issue 29's work queue): who holds it and since when, or null;
   * present only in an operations session.
   */
  claim: activityClaimOut.nullable().optional(),
});
export type CaseActivityListItemOut = z.infer<typeof caseActivityListItemOut>;
