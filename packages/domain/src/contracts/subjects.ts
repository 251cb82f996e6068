import { z } from 'zod';
import { optionalIsoDateSchema } from '../dates.js';
import {
  emailSchema,
  forenameSchema,
  middlenameSchema,
  optionalText,
  phoneSchema,
  surnameSchema,
} from '../text-rules.js';
import { idSchema, nullableTimestampOut, timestampOut } from './common.js';

/** POST /api/subjects/ (and a new subject of POST /api/cases/): the profile fields of point 3. */
export const subjectCreate = z.object({
  first_name: forenameSchema,
  middlename: middlenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
  dob: optionalIsoDateSchema,
  phone_number: optionalText(phoneSchema),
});
/** The same fields, for the form's input and the server's parsed output. */
export type SubjectCreateInput = z.input<typeof subjectCreate>;
export type SubjectCreate = z.output<typeof subjectCreate>;

/** A subject as the API returns it. */
export const subjectOut = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  middlename: z.string(),
  last_name: z.string(),
  email: z.string(),
  dob: z.string().nullable(),
  phone_number: z.string(),
  /** Whether the subject has claimed its login (see docs/api-workspace.md). */
  has_account: z.boolean(),
  is_archived: z.boolean(),
  archived_at: nullableTimestampOut,
  created_at: timestampOut,
  open_cases: z.number(),
});
export type SubjectOut = z.infer<typeof subjectOut>;

/** A subject in brief, inside a case or an activity. */
export const subjectBriefOut = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});
export type SubjectBriefOut = z.infer<typeof subjectBriefOut>;

/** PUT /api/subjects/{id}/ is `subjectCreate`; PATCH is the same, partial. */
export const subjectUpdate = subjectCreate.partial();

/** POST /api/subjects/{id}/merge/: the duplicate merged into this subject. */
export const subjectMerge = z.object({ duplicate: idSchema });
