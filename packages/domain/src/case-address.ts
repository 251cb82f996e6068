import { z } from 'zod';
import { countryCodeSchema, dbsAlternative, optionalCountryCodeSchema } from './case-details.js';
import { refineDateOrder } from './case-other-name.js';
import { dateSelectorDefaults, refineDateRange } from './date-selector.js';
import { isoDateSchema, optionalIsoDateSchema } from './dates.js';
import { isDbsPostcode, refineCountryAlternative, refineDbsAlternative } from './dbs-checks.js';
import { MESSAGES, maxCharacters } from './messages.js';
import { isUkPostcode } from './postcode.js';
import { optionalText, requiredText } from './text-rules.js';

export const ADDRESS_SOURCES = ['OS', 'manual', 'idsp'] as const;
export type AddressSource = (typeof ADDRESS_SOURCES)[number];

const line = (max: number) => requiredText().max(max, maxCharacters(max));

/** The fields of one address of the history, each with its own rule. */
export const addressFields = z.object({
  country: countryCodeSchema,
  country_dbs: optionalCountryCodeSchema,
  line_one: line(60),
  line_one_dbs: dbsAlternative(),
  line_two: optionalText(z.string().trim().max(60, maxCharacters(60))),
  line_two_dbs: dbsAlternative(),
  town: line(60),
  town_dbs: dbsAlternative(),
  postcode: optionalText(z.string().trim().toUpperCase().max(12, maxCharacters(12))),
  from_date: isoDateSchema,
  to_date: optionalIsoDateSchema,
  current: z.boolean().default(false),
  source: z.enum(ADDRESS_SOURCES).default('manual'),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * Lines and town take what a lookup gives (dots and commas too); the '(for DBS)' alternatives
 * are asked for when the service cannot take them. A GBR postcode is required and checked;
 * elsewhere it is optional. A historical address needs its end date, not before its start;
 * given `today`, both dates lie in the date selector's range.
 */
export function refineAddress(
  data: z.output<typeof addressFields>,
  ctx: z.RefinementCtx,
  today?: Date | string,
): void {
  const issue = (message: string, field: string) =>
    ctx.addIssue({ code: 'custom', message, path: [field] });
  refineCountryAlternative(ctx, data);
  refineDbsAlternative(ctx, data, 'line_one', 'addressLine');
  refineDbsAlternative(ctx, data, 'line_two', 'addressLine');
  refineDbsAlternative(ctx, data, 'town', 'place');
  if (data.country === 'GBR') {
    if (!data.postcode) issue(MESSAGES.required, 'postcode');
    else if (!isUkPostcode(data.postcode)) issue(MESSAGES.invalidFormat, 'postcode');
  } else if (data.postcode && !isDbsPostcode(data.postcode)) {
    issue(MESSAGES.invalidCharacters, 'postcode');
  }
  if (!data.current && !data.to_date) issue(MESSAGES.required, 'to_date');
  if (!data.current) refineDateOrder(ctx, data);
  if (today !== undefined) {
    const fields = data.current ? ['from_date'] : ['from_date', 'to_date'];
    refineDateRange(ctx, data, fields, dateSelectorDefaults(today));
  }
}

/** A current address has no end date. */
export function clearCurrentEndDate<T extends { current: boolean; to_date?: string | null }>(
  data: T,
): T {
  return data.current ? { ...data, to_date: null } : data;
}

/** One address of the history; a current address has no end date. */
export const addressSchema = addressFields
  .superRefine((d, ctx) => refineAddress(d, ctx))
  .transform(clearCurrentEndDate);
export type Address = z.infer<typeof addressSchema>;
