import { z } from 'zod';
import { COUNTRIES } from './countries.js';
import { dateSelectorDefaults, refineDateRange } from './date-selector.js';
import { isoDateSchema } from './dates.js';
import { refineCountryAlternative, refineDbsAlternative } from './dbs-checks.js';
import { MESSAGES, maxCharacters } from './messages.js';
import { GENDERS, titlesForGender } from './people.js';
import {
  emailSchema,
  forenameSchema,
  middlenameSchema,
  optionalEmailSchema,
  optionalNiNumberSchema,
  optionalText,
  phoneSchema,
  requiredText,
  surnameSchema,
  townSchema,
} from './text-rules.js';

/** An optional '(for DBS)' alternative value; its character check is in the refinement. */
export const dbsAlternative = (max = 60) =>
  optionalText(z.string().trim().max(max, maxCharacters(max)));
const isKnownCountry = (code: string) => Object.hasOwn(COUNTRIES, code);
/** A required ISO 3166-1 alpha-3 country code from `COUNTRIES` ('Invalid format' otherwise). */
export const countryCodeSchema = requiredText().refine(isKnownCountry, MESSAGES.invalidFormat);
export const optionalCountryCodeSchema = optionalText(
  z.string().refine(isKnownCountry, MESSAGES.invalidFormat),
);

/** The fields of case basic details (spec point 3), each with its own rule. */
export const basicDetailsFields = z.object({
  gender: z.enum(GENDERS, { error: MESSAGES.required }),
  title: requiredText(),
  forename: forenameSchema,
  forename_dbs: dbsAlternative(),
  middlename: middlenameSchema,
  middlename_dbs: dbsAlternative(),
  surname: surnameSchema,
  surname_dbs: dbsAlternative(50),
  email: emailSchema.optional(),
  email_dbs: optionalEmailSchema,
  dob: isoDateSchema,
  phone_number: phoneSchema,
  nin: optionalNiNumberSchema,
  nationality: countryCodeSchema,
  online_idv: z.boolean().optional(),
});

/**
 * The rules across basic details' fields: the title fits the gender, a name the criminal-record
 * service cannot take needs its '(for DBS)' value; given `today`, the date of birth lies in the
 * date selector's range.
 */
export function refineBasicDetails(
  data: z.output<typeof basicDetailsFields>,
  ctx: z.RefinementCtx,
  today?: Date | string,
): void {
  if (!(titlesForGender(data.gender) as readonly string[]).includes(data.title)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: ['title'] });
  }
  for (const field of ['forename', 'middlename', 'surname']) {
    refineDbsAlternative(ctx, data, field, 'name');
  }
  if (today !== undefined) refineDateRange(ctx, data, ['dob'], dateSelectorDefaults(today));
}

/** Case basic details (spec point 3). The email is read-only, so it may be left out. */
export const basicDetailsSchema = basicDetailsFields.superRefine((d, ctx) =>
  refineBasicDetails(d, ctx),
);
export type BasicDetails = z.infer<typeof basicDetailsSchema>;

/** The fields of birth details. */
export const birthDetailsFields = z.object({
  country: countryCodeSchema,
  country_dbs: optionalCountryCodeSchema,
  town: townSchema,
  town_dbs: dbsAlternative(),
  county: optionalText(townSchema),
  county_dbs: dbsAlternative(),
});

/** Birth details' cross-field rules: the country and place alternatives (county for GBR only). */
export function refineBirthDetails(
  data: z.output<typeof birthDetailsFields>,
  ctx: z.RefinementCtx,
): void {
  refineCountryAlternative(ctx, data);
  refineDbsAlternative(ctx, data, 'town', 'place');
  if (showsCounty(data.country)) refineDbsAlternative(ctx, data, 'county', 'place');
}

/** Birth details. County only applies to GBR and is ignored elsewhere. */
export const birthDetailsSchema = birthDetailsFields.superRefine(refineBirthDetails);
export type BirthDetails = z.infer<typeof birthDetailsSchema>;

/** County only appears for GBR. */
export function showsCounty(country: string | null | undefined): boolean {
  return country === 'GBR';
}
