import { z } from 'zod';
import { DOCUMENT_SOURCES, passportFields, refinePassport } from '../case-documents.js';
import { caseField, dateOut, lockedFieldsOut, patchOf } from './case-data.js';

// /api/case-passports/: retrieve, update, partial update and delete by case id; create carries
// `case`. 404 until created (the screen then treats it as new, and as existing after the 201).

const fields = passportFields.omit({ source: true });

export const casePassportCreate = fields.extend(caseField);
export const casePassportUpdate = fields;
export const casePassportPatch = patchOf(fields);

/** Every rule of a passport on `today` (the form's schema; the server checks the merged record). */
export function casePassportIn(today: Date | string) {
  return fields.superRefine((d, ctx) => refinePassport({ ...d, source: 'manual' }, ctx, today));
}
export type CasePassportInput = z.input<typeof fields>;

export const casePassportOut = z.strictObject({
  case: z.number(),
  number: z.string(),
  country: z.string(),
  country_dbs: z.string(),
  dob: dateOut,
  issue_date: dateOut,
  expiry_date: dateOut,
  source: z.enum(DOCUMENT_SOURCES),
  locked_fields: lockedFieldsOut,
});
export type CasePassportOut = z.infer<typeof casePassportOut>;
