import { z } from 'zod';
import { countryCodeSchema, optionalCountryCodeSchema } from './case-details.js';
import { type DateRange, tomorrow } from './date-selector.js';
import {
  isoDateSchema,
  minusMonths,
  optionalIsoDateSchema,
  plusYears,
  toIsoDate,
} from './dates.js';
import { refineCountryAlternative } from './dbs-checks.js';
import { LICENCE_NUMBER_MAX_LENGTH } from './licence-number.js';
import { MESSAGES, maxCharacters } from './messages.js';
import { requiredText } from './text-rules.js';

export const DOCUMENT_SOURCES = ['manual', 'idsp'] as const;
export const LICENCE_TYPES = ['photo', 'paper'] as const;
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
  data: { issue_date?: string | undefined; expiry_date?: string | undefined },
  range: DateRange,
  today: string,
) {
  const outOfRange = (field: string) =>
    ctx.addIssue({ code: 'custom', message: MESSAGES.dateOutOfRange, path: [field] });
  if (data.issue_date && data.issue_date > today) outOfRange('issue_date');
  if (data.expiry_date && (data.expiry_date < range.min || data.expiry_date > range.max)) {
    outOfRange('expiry_date');
  }
}

/** Passport: number uppercased; expiry within `passportExpiryRange`. */
export function passportSchema(today: Date | string) {
  return z
    .object({
      ...common,
      number: requiredText()
        .max(30, maxCharacters(30))
        .transform((v) => v.toUpperCase())
        .pipe(z.string().regex(/^[A-Z0-9]+$/, MESSAGES.invalidFormat)),
      expiry_date: isoDateSchema,
    })
    .superRefine((data, ctx) => {
      refineCountryAlternative(ctx, data);
      refineDates(ctx, data, passportExpiryRange(data.country, today), toIsoDate(today));
    });
}
export type Passport = z.infer<ReturnType<typeof passportSchema>>;

/**
 * Driving licence: number required, at most 18 characters, uppercased; expiry within
 * `licenceExpiryRange` (a paper licence may have none); 'Subject doesn't have a surname'.
 */
export function drivingLicenceSchema(today: Date | string) {
  return z
    .object({
      ...common,
      licence_type: z.enum(LICENCE_TYPES, { error: MESSAGES.required }),
      number: requiredText()
        .transform((v) => v.replace(/\s+/g, '').toUpperCase())
        .pipe(z.string().max(LICENCE_NUMBER_MAX_LENGTH, maxCharacters(LICENCE_NUMBER_MAX_LENGTH))),
      expiry_date: optionalIsoDateSchema,
      no_surname: z.boolean().default(false),
    })
    .superRefine((data, ctx) => {
      refineCountryAlternative(ctx, data);
      if (data.licence_type === 'photo' && !data.expiry_date) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: ['expiry_date'] });
      }
      refineDates(ctx, data, licenceExpiryRange(today), toIsoDate(today));
    });
}
export type DrivingLicence = z.infer<ReturnType<typeof drivingLicenceSchema>>;

export const NO_SURNAME_LABEL = "Subject doesn't have a surname";
