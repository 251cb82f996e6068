import { z } from 'zod';
import { basicDetailsFields, refineBasicDetails } from '../case-details.js';
import { caseField, dateOut, lockedFieldsOut, patchOf } from './case-data.js';

// /api/case-basic-details/ (and /api/ops/..., /api/s/...): retrieve, update, partial update and
// delete by case id; create carries `case`. A case without stored details answers them prefilled
// from its subject. The email is read-only: it is the subject's, and a body's email is ignored.

/** POST: the details of a case. */
export const caseBasicDetailsCreate = basicDetailsFields.extend(caseField);
/** PUT .../{case}/. */
export const caseBasicDetailsUpdate = basicDetailsFields;
/** PATCH .../{case}/: the fields to change. */
export const caseBasicDetailsPatch = patchOf(basicDetailsFields);

/** Every rule of basic details on `today` (the form's schema; the server checks the merged record). */
export function caseBasicDetailsIn(today: Date | string) {
  return basicDetailsFields.superRefine((d, ctx) => refineBasicDetails(d, ctx, today));
}
export type CaseBasicDetailsInput = z.input<typeof basicDetailsFields>;
export type CaseBasicDetails = z.output<typeof basicDetailsFields>;

/** A case's basic details as the API returns them ('' for a blank text, null for no date). */
export const caseBasicDetailsOut = z.strictObject({
  case: z.number(),
  gender: z.string(),
  title: z.string(),
  forename: z.string(),
  forename_dbs: z.string(),
  middlename: z.string(),
  middlename_dbs: z.string(),
  surname: z.string(),
  surname_dbs: z.string(),
  /** The subject's email, read-only. */
  email: z.string(),
  email_dbs: z.string(),
  dob: dateOut,
  phone_number: z.string(),
  nin: z.string(),
  nationality: z.string(),
  online_idv: z.boolean(),
  locked_fields: lockedFieldsOut,
});
export type CaseBasicDetailsOut = z.infer<typeof caseBasicDetailsOut>;
