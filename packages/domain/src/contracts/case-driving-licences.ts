import { z } from 'zod';
import {
  DOCUMENT_SOURCES,
  drivingLicenceFields,
  LICENCE_TYPES,
  refineDrivingLicence,
} from '../case-documents.js';
import type { LicencePerson } from '../licence-number.js';
import { caseField, dateOut, lockedFieldsOut, patchOf } from './case-data.js';

// /api/case-driving-licences/: retrieve, update, partial update and delete by case id; create
// carries `case`. 404 until created. A GBR number is checked against the holder: the case's
// basic details (the subject's name and date of birth when there are none), the licence's own
// date of birth first, and its `no_surname` ("Subject doesn't have a surname").

const fields = drivingLicenceFields.omit({ source: true });

export const caseDrivingLicenceCreate = fields.extend(caseField);
export const caseDrivingLicenceUpdate = fields;
export const caseDrivingLicencePatch = patchOf(fields);

/** Every rule of a licence on `today`, the number checked against `holder` when given. */
export function caseDrivingLicenceIn(today: Date | string, holder?: LicencePerson) {
  return fields.superRefine((d, ctx) =>
    refineDrivingLicence({ ...d, source: 'manual' }, ctx, today, holder),
  );
}
export type CaseDrivingLicenceInput = z.input<typeof fields>;

export const caseDrivingLicenceOut = z.strictObject({
  case: z.number(),
  licence_type: z.enum(LICENCE_TYPES),
  number: z.string(),
  country: z.string(),
  country_dbs: z.string(),
  dob: dateOut,
  issue_date: dateOut,
  expiry_date: dateOut,
  no_surname: z.boolean(),
  source: z.enum(DOCUMENT_SOURCES),
  locked_fields: lockedFieldsOut,
});
export type CaseDrivingLicenceOut = z.infer<typeof caseDrivingLicenceOut>;
