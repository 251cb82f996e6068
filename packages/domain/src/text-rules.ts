import { z } from 'zod';
import { MESSAGES, maxCharacters } from './messages.js';
import { normalisePhone } from './phone.js';

/** Letters (any script), with single inner spaces, apostrophes or hyphens; a letter at each end. */
export const NAME_PATTERN = /^\p{L}(?:[\p{L}' -]*\p{L})?$/u;
/** Letters, digits, brackets, hyphen, slash, apostrophe, ampersand; spaces only inside. */
export const FREE_TEXT_PATTERN = /^[\p{L}\d()\-/'&](?:[\p{L}\d()\-/'& ]*[\p{L}\d()\-/'&])?$/u;
export const TOWN_PATTERN = /^[\p{L}\d](?:[\p{L}\d' -]*[\p{L}\d])?$/u;
export const UPPER_REFERENCE_PATTERN = /^[A-Z\d()\-/']+$/;
/** Email with a top-level domain of 2 to 4 letters. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,4}$/;
/** HMRC: first letter not D F I Q U V; second not D F I O Q U V; some pairs never issued. */
export const NI_NUMBER_PATTERN =
  /^(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/;
export const REFERENCE_PATTERN = /^[A-Z0-9][A-Z0-9-]*$/;

/** A trimmed string; `undefined`, `null` and '' all fail with 'Required' and nothing else. */
export function requiredText() {
  return z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true });
}

/** An optional field: `undefined`, `null` and blank strings become `undefined`, else `inner` runs. */
export function optionalText<T extends z.ZodType>(inner: T) {
  return z.preprocess((v: z.input<T> | null | undefined) => {
    if (v === null || (typeof v === 'string' && v.trim() === '')) return undefined;
    return v;
  }, inner.optional());
}

function limited(max: number) {
  return requiredText().max(max, maxCharacters(max));
}

export const forenameSchema = limited(60).regex(NAME_PATTERN, MESSAGES.invalidCharacters);
export const surnameSchema = limited(50).regex(NAME_PATTERN, MESSAGES.invalidCharacters);
/** Middle name: optional, same pattern as the forename. */
export const middlenameSchema = optionalText(
  z.string().trim().max(60, maxCharacters(60)).regex(NAME_PATTERN, MESSAGES.invalidCharacters),
);
/** Another name field (e.g. a manager's name): required, max 100, letters pattern. */
export const nameFieldSchema = limited(100).regex(NAME_PATTERN, MESSAGES.invalidCharacters);

export const emailSchema = limited(100).regex(EMAIL_PATTERN, MESSAGES.invalidEmail);
export const optionalEmailSchema = optionalText(
  z.string().trim().max(100, maxCharacters(100)).regex(EMAIL_PATTERN, MESSAGES.invalidEmail),
);

const freeText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, maxCharacters(max))
    .regex(FREE_TEXT_PATTERN, MESSAGES.invalidCharacters);
export const freeTextSchema = optionalText(freeText(60));
export const requiredFreeTextSchema = limited(60).regex(
  FREE_TEXT_PATTERN,
  MESSAGES.invalidCharacters,
);
export const requiredShortFreeTextSchema = limited(30).regex(
  FREE_TEXT_PATTERN,
  MESSAGES.invalidCharacters,
);

export const townSchema = limited(60).regex(TOWN_PATTERN, MESSAGES.invalidCharacters);

export const upperReferenceSchema = optionalText(
  z
    .string()
    .trim()
    .max(30, maxCharacters(30))
    .regex(UPPER_REFERENCE_PATTERN, MESSAGES.invalidFormat),
);

const niNumber = z
  .string()
  .transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .pipe(z.string().regex(NI_NUMBER_PATTERN, MESSAGES.invalidNumber));
/** National Insurance number, required: uppercased, spaces removed. */
export const niNumberSchema = requiredText().pipe(niNumber);
export const optionalNiNumberSchema = optionalText(niNumber);

/** Required reference: max 11, upper-case letters and digits (a hyphen inside). */
export const referenceSchema = limited(11).regex(REFERENCE_PATTERN, MESSAGES.invalidNumber);

function toE164(v: string, ctx: z.core.$RefinementCtx<string>): string {
  const e164 = normalisePhone(v);
  if (e164 === null) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.invalidNumber });
    return z.NEVER;
  }
  return e164;
}

/**
 * Phone number: GB by default, international format accepted ('Invalid number'); parsed to the
 * stored E.164 form ('07911 123456' → '+447911123456'; show it with formatPhone).
 */
export const phoneSchema = requiredText().transform(toE164);

/** An optional phone number where '' clears it: '' or a valid number, stored as E.164. */
export const phoneOrBlankSchema = z
  .string()
  .trim()
  .max(30, maxCharacters(30))
  .transform((v, ctx) => (v === '' ? '' : toE164(v, ctx)));

/** A confirmation checkbox that must be ticked ('Please confirm'). */
export const confirmationSchema = z.literal(true, { error: MESSAGES.pleaseConfirm });
