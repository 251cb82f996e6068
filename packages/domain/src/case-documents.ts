import { z } from 'zod';
import { countryCodeSchema, optionalCountryCodeSchema } from './case-details.js';
import {
  type DateRange,
  dateSelectorDefaults,
  refineDateRange,
  tomorrow,
} from './date-selector.js';
import { isoDateSchema, minusMonths, optionalIsoDateSchema, plusYears } from './dates.js';
import { refineCountryAlternative } from './dbs-checks.js';
import {
  checkDrivingLicenceNumber,
  LICENCE_NUMBER_MAX_LENGTH,
  type LicencePerson,
} from './licence-number.js';
import { MESSAGES, maxCharacters } from './messages.js';
import { requiredText } from './text-rules.js';

export const DOCUMENT_SOURCES = ['manual', 'idsp'] as const;
export const LICENCE_TYPES = ['photo', 'paper'] as const;
export type LicenceType = (typeof LICENCE_TYPES)[number];
/** A driving licence's type in words. */
export const LICENCE_TYPE_LABELS: Record<LicenceType, string> = {
  photo: 'Photocard',
  paper: 'Paper',
};
/** Expiry may be up to 100 years ahead; a GBR passport may have expired up to 6 months ago. */
export const EXPIRY_MAX_YEARS = 100;
export const GBR_PASSPORT_GRACE_MONTHS = 6;

/** Allowed passport expiry dates: tomorrow (GBR: 6 months ago) up to 100 years ahead. */
export function passportExpiryRange(
  country: string | null | undefined,
  today: Date | string,
): DateRange {
  const min = country === 'GBR' ? minusMonths(today, GBR_PASSPORT_GRACE_MONTHS) : tomorrow(today);
  return { min, max: plusYears(today, EXPIRY_MAX_YEARS) };
}

/** Allowed driving licence expiry dates: tomorrow up to 100 years ahead. */
export function licenceExpiryRange(today: Date | string): DateRange {
  return { min: tomorrow(today), max: plusYears(today, EXPIRY_MAX_YEARS) };
}

const common = {
  country: countryCodeSchema,
  country_dbs: optionalCountryCodeSchema,
  dob: optionalIsoDateSchema,
  issue_date: optionalIsoDateSchema,
  source: z.enum(DOCUMENT_SOURCES).default('manual'),
};

function refineDates(
  ctx: z.RefinementCtx,
  data: {
    dob?: string | undefined;
    issue_date?: string | undefined;
    expiry_date?: string | undefined;
  },
  range: DateRange,
  today: Date | string,
) {
  refineDateRange(ctx, data, ['dob', 'issue_date'], dateSelectorDefaults(today));
  refineDateRange(ctx, data, ['expiry_date'], range);
}

/** The fields of a passport, each with its own rule; the number is uppercased. */
export const passportFields = z.object({
  ...common,
  number: requiredText()
    .max(30, maxCharacters(30))
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]+$/, MESSAGES.invalidFormat)),
  expiry_date: isoDateSchema,
});

/** The country alternative; dates of birth and issue up to today, expiry in `passportExpiryRange`. */
export function refinePassport(
  data: z.output<typeof passportFields>,
  ctx: z.RefinementCtx,
  today: Date | string,
): void {
  refineCountryAlternative(ctx, data);
  refineDates(ctx, data, passportExpiryRange(data.country, today), today);
}

/** Passport: number uppercased; expiry within `passportExpiryRange`. */
export function passportSchema(today: Date | string) {
  return passportFields.superRefine((d, ctx) => refinePassport(d, ctx, today));
}
export type Passport = z.infer<ReturnType<typeof passportSchema>>;

/** The fields of a driving licence, each with its own rule; the number is compacted and uppercased. */
export const drivingLicenceFields = z.object({
  ...common,
  licence_type: z.enum(LICENCE_TYPES, { error: MESSAGES.required }),
  number: requiredText()
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().max(LICENCE_NUMBER_MAX_LENGTH, maxCharacters(LICENCE_NUMBER_MAX_LENGTH))),
  expiry_date: optionalIsoDateSchema,
  no_surname: z.boolean().default(false),
});

/**
 * The country alternative, a photocard's expiry, the date ranges and, given the holder, a UK
 * (GBR) licence number checked against their name and date of birth (the licence's own date of
 * birth first) with point 5's mismatch messages; `no_surname` is 'Subject doesn't have a surname'.
 */
export function refineDrivingLicence(
  data: z.output<typeof drivingLicenceFields>,
  ctx: z.RefinementCtx,
  today: Date | string,
  holder?: LicencePerson,
): void {
  refineCountryAlternative(ctx, data);
  if (data.licence_type === 'photo' && !data.expiry_date) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: ['expiry_date'] });
  }
  refineDates(ctx, data, licenceExpiryRange(today), today);
  if (holder && data.country === 'GBR' && data.number.length <= LICENCE_NUMBER_MAX_LENGTH) {
    const person = { ...holder, dob: data.dob ?? holder.dob, no_surname: data.no_surname };
    const mismatch = checkDrivingLicenceNumber(data.number, person);
    if (mismatch) ctx.addIssue({ code: 'custom', message: mismatch, path: ['number'] });
  }
}

/**
 * Driving licence: number required, at most 18 characters, uppercased; expiry within
 * `licenceExpiryRange` (a paper licence may have none); 'Subject doesn't have a surname'. With
 * `holder`, a GBR number must fit the holder (`checkDrivingLicenceNumber`).
 */
export function drivingLicenceSchema(today: Date | string, holder?: LicencePerson) {
  return drivingLicenceFields.superRefine((d, ctx) => refineDrivingLicence(d, ctx, today, holder));
}
export type DrivingLicence = z.infer<ReturnType<typeof drivingLicenceSchema>>;

export const NO_SURNAME_LABEL = "Subject doesn't have a surname";
