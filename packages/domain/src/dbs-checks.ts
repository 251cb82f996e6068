import type { z } from 'zod';
import { COUNTRIES, type CountryMap, isEbulkSupported } from './countries.js';
import { MESSAGES } from './messages.js';

/*
 * The criminal-record service (DBS e-bulk) accepts a narrower character set than our forms:
 * plain A-Z letters in names and places (no accents, no dots), and no dots or commas in
 * address lines. A value that fails needs an alternative '(for DBS)' value that passes.
 */
const DBS_NAME = /^[A-Za-z](?:[A-Za-z' -]*[A-Za-z])?$/;
const DBS_PLACE = /^[A-Za-z](?:[A-Za-z' -]*[A-Za-z])?$/;
const DBS_ADDRESS_LINE = /^[A-Za-z0-9'\-&/() ]+$/;
const DBS_POSTCODE = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,8}[A-Za-z0-9])?$/;

export const isDbsName = (value: string): boolean => DBS_NAME.test(value.trim());
export const isDbsPlace = (value: string): boolean => DBS_PLACE.test(value.trim());
export const isDbsAddressLine = (value: string): boolean =>
  value.trim() !== '' && DBS_ADDRESS_LINE.test(value.trim());
export const isDbsPostcode = (value: string): boolean => DBS_POSTCODE.test(value.trim());

export const DBS_CHECKS = {
  name: isDbsName,
  place: isDbsPlace,
  addressLine: isDbsAddressLine,
  postcode: isDbsPostcode,
} as const;
export type DbsCheckKind = keyof typeof DBS_CHECKS;

/** Shown beside a field whose value the criminal-record service cannot take. */
export const DBS_ALTERNATIVE_WARNING =
  'The DBS cannot accept this value. Please enter it as it should appear for the DBS.';

/** True when a filled-in value fails the service's check, so its '(for DBS)' value is needed. */
export function needsDbsAlternative(value: string | null | undefined, kind: DbsCheckKind): boolean {
  const text = (value ?? '').trim();
  return text !== '' && !DBS_CHECKS[kind](text);
}

/** True when the country needs a '(for DBS)' alternative (not supported at standard/enhanced). */
export function needsCountryAlternative(
  country: string | null | undefined,
  map: CountryMap = COUNTRIES,
): boolean {
  return !!country && !isEbulkSupported(country, map);
}

type Record_ = Record<string, unknown>;
const text = (data: Record_, field: string) => {
  const value = data[field];
  return typeof value === 'string' ? value.trim() : '';
};

/**
 * Adds the '(for DBS)' issues for `field` and `${field}_dbs`: the alternative is required when
 * the value fails the check, and must itself pass the check when given.
 */
export function refineDbsAlternative(
  ctx: z.RefinementCtx,
  data: Record_,
  field: string,
  kind: DbsCheckKind,
): void {
  const alt = `${field}_dbs`;
  const alternative = text(data, alt);
  if (alternative !== '' && !DBS_CHECKS[kind](alternative)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.invalidCharacters, path: [alt] });
  } else if (alternative === '' && needsDbsAlternative(text(data, field), kind)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: [alt] });
  }
}

/** Adds 'Required' on `country_dbs` when the country is not supported by the service. */
export function refineCountryAlternative(ctx: z.RefinementCtx, data: Record_): void {
  if (needsCountryAlternative(text(data, 'country')) && text(data, 'country_dbs') === '') {
    ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: ['country_dbs'] });
  }
}
