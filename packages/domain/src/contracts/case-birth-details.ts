import { z } from 'zod';
import { birthDetailsFields, refineBirthDetails } from '../case-details.js';
import { caseField, lockedFieldsOut, patchOf } from './case-data.js';

// /api/case-birth-details/: retrieve, update, partial update and delete by case id; create
// carries `case`. A case without stored birth details answers them blank.

export const caseBirthDetailsCreate = birthDetailsFields.extend(caseField);
export const caseBirthDetailsUpdate = birthDetailsFields;
export const caseBirthDetailsPatch = patchOf(birthDetailsFields);

/** Every rule of birth details (the form's schema; the server checks the merged record). */
export function caseBirthDetailsIn(_today?: Date | string) {
  return birthDetailsFields.superRefine(refineBirthDetails);
}
export type CaseBirthDetailsInput = z.input<typeof birthDetailsFields>;
export type CaseBirthDetails = z.output<typeof birthDetailsFields>;

/** A case's birth details ('' for a blank text; county only for GBR). */
export const caseBirthDetailsOut = z.strictObject({
  case: z.number(),
  country: z.string(),
  country_dbs: z.string(),
  town: z.string(),
  town_dbs: z.string(),
  county: z.string(),
  county_dbs: z.string(),
  locked_fields: lockedFieldsOut,
});
export type CaseBirthDetailsOut = z.infer<typeof caseBirthDetailsOut>;
