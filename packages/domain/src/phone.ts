import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/** Numbers typed without a country code are read as this country's (spec: default GB). */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'GB';
const GB_CALLING_CODE = '44';

/**
 * The hint under every phone field: what the rule ('Invalid number') accepts. Its example numbers
 * pass the rule (phone.test.ts); Ofcom's drama numbers (07700 900xxx) do not, so none is used.
 */
export const PHONE_HINT =
  'A UK mobile or landline, such as 07911 123456 or 020 7123 4567, or an international number starting with +';

/** Whether `raw` is a valid number (GB by default, international format accepted). */
export function isValidPhone(raw: string): boolean {
  const p = parsePhoneNumberFromString(raw.trim(), DEFAULT_PHONE_COUNTRY);
  return p?.isValid() ?? false;
}

/**
 * The stored form of a number: E.164 ('07911 123456' → '+447911123456'); null when `raw` is not
 * a valid number (GB by default, international format accepted).
 */
export function normalisePhone(raw: string): string | null {
  const p = parsePhoneNumberFromString(raw.trim(), DEFAULT_PHONE_COUNTRY);
  return p?.isValid() ? p.number : null;
}

/**
 * A number as people read it: national format for UK numbers ('07911 123456'; +44 also covers
 * Guernsey, Jersey and the Isle of Man), international otherwise ('+33 1 42 68 53 00'). Empty
 * stays empty; text that is no number at all is shown as it was stored.
 */
export function formatPhone(stored: string | null | undefined): string {
  const value = (stored ?? '').trim();
  if (value === '') return '';
  const p = parsePhoneNumberFromString(value, DEFAULT_PHONE_COUNTRY);
  if (!p) return value;
  return p.countryCallingCode === GB_CALLING_CODE ? p.formatNational() : p.formatInternational();
}
