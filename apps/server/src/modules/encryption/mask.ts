/**
 * Masked copies of the encrypted identifiers (decision 027) for the places that keep a copy but
 * never need the plain value again: the audit log's before and after of case data, a DBS
 * check's applicant details, a right-to-work check's result and its logged request. Only the
 * last characters are kept (at most 4, never more than half of the value), behind a fixed
 * run of bullets that does not tell the length: `AB123456C` is `•••••456C`.
 */
export const MASK_BULLETS = '•••••';

/** True for a value masked already (so masking again changes nothing). */
export function isMasked(value: string): boolean {
  return value.startsWith(MASK_BULLETS);
}

/** The masked form of an identifier ('' stays ''; a masked value stays as it is). */
export function maskIdentifier(value: string): string {
  if (isMasked(value)) return value;
  const v = value.replace(/\s+/g, '').toUpperCase();
  if (v === '') return '';
  const shown = Math.min(4, Math.floor(v.length / 2));
  return `${MASK_BULLETS}${shown > 0 ? v.slice(-shown) : ''}`;
}

/** `maskIdentifier` of a value that may be absent (null and undefined stay as they are). */
export function maskOptional<V extends string | null | undefined>(value: V): V | string {
  return typeof value === 'string' ? maskIdentifier(value) : value;
}

/** The keys whose string value is a driving licence number, wherever they are in a document. */
const LICENCE_NUMBER_KEYS = new Set(['drivingLicenceNumber', 'licence_number']);

/**
 * A copy of `value` (a check's result, a provider's answer, a logged request or answer) with the
 * driving licence numbers in it masked: the values of `drivingLicenceNumber` (the DVLA's) and
 * `licence_number` (a licence-checking service's) anywhere, and `number` of an object under
 * `licence` (the service's check, the licence check's result). Anything else stays as it is.
 */
export function maskLicenceNumbers<T>(value: T): T {
  return maskIn(value, false) as T;
}

function maskIn(value: unknown, inLicence: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => maskIn(v, false));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && (LICENCE_NUMBER_KEYS.has(k) || (inLicence && k === 'number'))) {
      out[k] = maskIdentifier(v);
    } else {
      out[k] = maskIn(v, k === 'licence');
    }
  }
  return out;
}
