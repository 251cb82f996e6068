import { z } from 'zod';
import { otherNameFields, refineOtherName } from '../case-other-name.js';
import { caseField, dateOut, patchOf } from './case-data.js';
import { pageOut } from './common.js';

// /api/case-other-names/: list with `?case=ID`, create with `case`, retrieve, partial update and
// delete by the name's id.

export const caseOtherNameCreate = otherNameFields.extend(caseField);
export const caseOtherNamePatch = patchOf(otherNameFields);

/** Every rule of another name on `today` (the form's schema; the server checks the merged record). */
export function caseOtherNameIn(today: Date | string) {
  return otherNameFields.superRefine((d, ctx) => refineOtherName(d, ctx, today));
}
export type CaseOtherNameInput = z.input<typeof otherNameFields>;

/** Another name the subject has used. */
export const caseOtherNameOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  forename: z.string(),
  forename_dbs: z.string(),
  middlename: z.string(),
  middlename_dbs: z.string(),
  surname: z.string(),
  surname_dbs: z.string(),
  from_date: dateOut,
  to_date: dateOut,
});
export type CaseOtherNameOut = z.infer<typeof caseOtherNameOut>;

/** GET /api/case-other-names/?case=ID: every name of the case, oldest first, in one page. */
export const caseOtherNameListOut = pageOut(caseOtherNameOut);
export type CaseOtherNameListOut = z.infer<typeof caseOtherNameListOut>;
