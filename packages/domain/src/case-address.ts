import { z } from 'zod';
import { countryCodeSchema, dbsAlternative, optionalCountryCodeSchema } from './case-details.js';
import { refineDateOrder } from './case-other-name.js';
import { isoDateSchema, optionalIsoDateSchema } from './dates.js';
import { isDbsPostcode, refineCountryAlternative, refineDbsAlternative } from './dbs-checks.js';
import { MESSAGES, maxCharacters } from './messages.js';
import { isUkPostcode } from './postcode.js';
import { optionalText, requiredText } from './text-rules.js';

export const ADDRESS_SOURCES = ['OS', 'manual', 'idsp'] as const;
export type AddressSource = (typeof ADDRESS_SOURCES)[number];

const line = (max: number) => requiredText().max(max, maxCharacters(max));

/**
 * One address of the history. Lines and town take what a lookup gives (dots and commas too);
 * the '(for DBS)' alternatives are asked for when the service cannot take them. A GBR postcode
 * is required and checked; elsewhere it is optional. A current address has no end date.
 */
export const addressSchema = z
  .object({
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
  })
  .superRefine((data, ctx) => {
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
    refineDateOrder(ctx, data);
  })
  .transform((data) => (data.current ? { ...data, to_date: null } : data));
export type Address = z.infer<typeof addressSchema>;
