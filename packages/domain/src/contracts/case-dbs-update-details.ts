import { z } from 'zod';
import { dbsUpdateDetailsFields, refineDbsUpdateDetails } from '../update-service.js';
import { caseField, dateOut, patchOf } from './case-data.js';

// /api/case-dbs-update-details/: retrieve, update, partial update and delete by case id; create
// carries `case`. 404 until created. What the update service check reads: the certificate's 12
// digits, the surname and date of birth on it.

export const caseDbsUpdateDetailsCreate = dbsUpdateDetailsFields.extend(caseField);
export const caseDbsUpdateDetailsUpdate = dbsUpdateDetailsFields;
export const caseDbsUpdateDetailsPatch = patchOf(dbsUpdateDetailsFields);

/** Every rule on `today` (the form's schema; the server checks the merged record). */
export function caseDbsUpdateDetailsIn(today: Date | string) {
  return dbsUpdateDetailsFields.superRefine((d, ctx) => refineDbsUpdateDetails(d, ctx, today));
}
export type CaseDbsUpdateDetailsInput = z.input<typeof dbsUpdateDetailsFields>;

export const caseDbsUpdateDetailsOut = z.strictObject({
  case: z.number(),
  certificate_number: z.string(),
  surname: z.string(),
  dob: dateOut,
});
export type CaseDbsUpdateDetailsOut = z.infer<typeof caseDbsUpdateDetailsOut>;
