import { z } from 'zod';
import {
  ADDRESS_SOURCES,
  addressFields,
  clearCurrentEndDate,
  refineAddress,
} from '../case-address.js';
import { MESSAGES } from '../messages.js';
import { formatGbrPostcode, isUkPostcode, postcodeLookupSchema } from '../postcode.js';
import { caseField, dateOut, lockedFieldsOut, patchOf } from './case-data.js';
import { pageOut } from './common.js';

// /api/case-addresses/: list with `?case=ID` (with the gaps of the last 60 months), create with
// `case`, retrieve, partial update and delete by the address's id. Also the address lookup:
// GET .../os-fake-lookup/?postcode= and POST .../os-datahub-token/.

/** The sources a client may give: a lookup (OS) or typed in; idsp rows come from the check. */
export const ADDRESS_INPUT_SOURCES = [
  'OS',
  'manual',
] as const satisfies readonly (typeof ADDRESS_SOURCES)[number][];

const addressInputFields = addressFields.extend({
  source: z.enum(ADDRESS_INPUT_SOURCES).default('manual'),
});

export const caseAddressCreate = addressInputFields.extend(caseField);
export const caseAddressPatch = patchOf(addressInputFields);

/**
 * Every rule of an address on `today` (the form's schema; the server checks the merged record):
 * a current address's end date is cleared. At most one address of a case is current (checked by
 * the server against the others: 'There is already a current address.' on `current`).
 */
export function caseAddressIn(today: Date | string) {
  return addressFields
    .superRefine((d, ctx) => refineAddress(d, ctx, today))
    .transform(clearCurrentEndDate);
}
export type CaseAddressInput = z.input<typeof addressInputFields>;

/** One address of a case's history. */
export const caseAddressOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  country: z.string(),
  country_dbs: z.string(),
  line_one: z.string(),
  line_one_dbs: z.string(),
  line_two: z.string(),
  line_two_dbs: z.string(),
  town: z.string(),
  town_dbs: z.string(),
  postcode: z.string(),
  from_date: dateOut,
  to_date: dateOut,
  current: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  source: z.enum(ADDRESS_SOURCES),
  locked_fields: lockedFieldsOut,
});
export type CaseAddressOut = z.infer<typeof caseAddressOut>;

/** An uncovered period of the last 60 months ('Missing address information'), days inclusive. */
export const addressGapOut = z.strictObject({
  from_date: z.string(),
  to_date: z.string(),
  message: z.string(),
});
export type AddressGapOut = z.infer<typeof addressGapOut>;

/**
 * GET /api/case-addresses/?case=ID: every address of the case, newest first, in one page, and
 * `gaps`: the periods of the last 60 months no address covers, oldest first (overlaps allowed).
 */
export const caseAddressListOut = pageOut(caseAddressOut).extend({ gaps: z.array(addressGapOut) });
export type CaseAddressListOut = z.infer<typeof caseAddressListOut>;

/** `?postcode=` of an address lookup: 'Min 5 characters', then a well-formed UK postcode. */
export const addressLookupQuery = z.object({
  postcode: postcodeLookupSchema
    .transform(formatGbrPostcode)
    .refine(isUkPostcode, MESSAGES.invalidFormat),
});

/** One OS Places `DPA` record: the fields Kestrel reads (others are dropped). */
export const osDpaOut = z.strictObject({
  UPRN: z.string(),
  UDPRN: z.string().optional(),
  ADDRESS: z.string(),
  ORGANISATION_NAME: z.string().optional(),
  DEPARTMENT_NAME: z.string().optional(),
  SUB_BUILDING_NAME: z.string().optional(),
  BUILDING_NAME: z.string().optional(),
  BUILDING_NUMBER: z.union([z.string(), z.number()]).optional(),
  DEPENDENT_THOROUGHFARE_NAME: z.string().optional(),
  THOROUGHFARE_NAME: z.string().optional(),
  DOUBLE_DEPENDENT_LOCALITY: z.string().optional(),
  DEPENDENT_LOCALITY: z.string().optional(),
  POST_TOWN: z.string().optional(),
  POSTCODE: z.string().optional(),
});

/**
 * GET .../os-fake-lookup/?postcode=: the fake lookup answers in OS Places' shape, so the screen
 * reads `results[].DPA` from either (and composes lines with `composeOsAddress`).
 */
export const osPlacesOut = z.strictObject({
  results: z.array(z.strictObject({ DPA: osDpaOut })).default([]),
});
export type OsPlacesOut = z.infer<typeof osPlacesOut>;

/** POST .../os-datahub-token/: a bearer token for OS Places, cached by the server. */
export const osDatahubTokenOut = z.strictObject({
  access_token: z.string(),
  expires_in: z.number(),
});
export type OsDatahubTokenOut = z.infer<typeof osDatahubTokenOut>;

/**
 * GET .../lookup-source/: which postcode lookup the screen uses, 'live' (ask os-datahub-token,
 * then OS Places) or 'fake' (os-fake-lookup straight away: no OS keys, or a demo-mode customer).
 */
export const addressLookupSourceOut = z.strictObject({ source: z.enum(['live', 'fake']) });
export type AddressLookupSourceOut = z.infer<typeof addressLookupSourceOut>;

/** The OS Places search the browser makes with that token (the CSP allows this origin then). */
export const OS_PLACES_ORIGIN = 'https://api.os.uk';
export const OS_PLACES_POSTCODE_URL = `${OS_PLACES_ORIGIN}/search/places/v1/postcode`;
