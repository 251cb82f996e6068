import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { requiredText } from './text-rules.js';

/** A9 9AA, A99 9AA, A9A 9AA, AA9 9AA, AA99 9AA, AA9A 9AA, with exactly one space. */
const SHAPE = /^[A-Z](?:\d|\d\d|\d[A-Z]|[A-Z]\d|[A-Z]\d\d|[A-Z]\d[A-Z]) \d[A-Z]{2}$/;

/** True when a UK postcode has the right shape and no letter in a disallowed position. */
export function isUkPostcode(value: string): boolean {
  if (value === 'GIR 0AA') return true;
  if (!SHAPE.test(value)) return false;
  const [outward = '', inward = ''] = value.split(' ');
  if (/[QVX]/.test(outward.charAt(0))) return false;
  const second = outward.charAt(1);
  if (/[A-Z]/.test(second) && /[IJZ]/.test(second)) return false;
  // A9A: the third character may only be one of these letters.
  if (/^[A-Z]\d[A-Z]$/.test(outward) && !/[ABCDEFGHJKPSTUW]/.test(outward.charAt(2))) return false;
  // AA9A: the fourth character may only be one of these letters.
  if (/^[A-Z]{2}\d[A-Z]$/.test(outward) && !/[ABEHMNPRVWXY]/.test(outward.charAt(3))) return false;
  return !/[CIKMOV]/.test(inward.slice(1));
}

/** UK postcode: trimmed and uppercased; 'Required', else 'Invalid format'. */
export const postcodeSchema = requiredText()
  .transform((v) => v.toUpperCase())
  .refine(isUkPostcode, MESSAGES.invalidFormat);

/** The postcode typed into an address lookup: at least 5 characters ('Min 5 characters'). */
export const postcodeLookupSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .min(5, MESSAGES.postcodeLookupMin);

/** A GBR postcode gets a space before its last three characters when it has none. */
export function formatGbrPostcode(postcode: string): string {
  const compact = postcode.trim().toUpperCase();
  if (compact.includes(' ') || compact.length < 5) return compact;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}
