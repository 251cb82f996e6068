import { addYears } from 'date-fns/addYears';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { ENDORSEMENT_CODES } from './endorsement-codes.js';
import type { EndorsementCodeEntry, EndorsementPoints } from './endorsement-types.js';

export const UNRECOGNISED_CODE = 'Unrecognised code';

const BY_CODE = new Map(ENDORSEMENT_CODES.map((c) => [c.code, c]));

/**
 * The table entry for a DVLA endorsement code, or `undefined`. Aiding (…2), causing or
 * permitting (…4) and inciting (…6) variants of a code ending in 0 resolve to that code.
 */
export function endorsementCode(code: string): EndorsementCodeEntry | undefined {
  const value = code.trim().toUpperCase();
  const direct = BY_CODE.get(value);
  if (direct) return direct;
  const variant = /^([A-Z]{2}\d)[246]$/.exec(value);
  return variant ? BY_CODE.get(`${variant[1]}0`) : undefined;
}

/** Points as shown: '6', '3-9', or 'N/A' when none apply. */
export function formatEndorsementPoints(points: EndorsementPoints): string {
  if (points === null) return 'N/A';
  return 'value' in points ? String(points.value) : `${points.min}-${points.max}`;
}

export interface OffenceRecord {
  offence_code: string;
  offence_date?: string | null;
  conviction_date?: string | null;
}

function day(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

/**
 * The date an endorsement leaves the record, 'YYYY-MM-DD', or `null` when neither date exists.
 * - drink/drug causing-death and driving-under-influence codes: 11 years from conviction;
 * - serious codes (causing death, dangerous driving, TT99, MR foreign codes): 4 years from conviction;
 * - in-charge and specimen codes: 4 years from the conviction date, or else the offence date;
 * - all others, unknown codes included: 4 years from the offence date.
 * When the preferred date is missing, the other one is used so that a period is still shown.
 */
export function endorsementEndDate(record: OffenceRecord): string | null {
  const offence = day(record.offence_date);
  const conviction = day(record.conviction_date);
  const entry = endorsementCode(record.offence_code);
  const years = entry?.years ?? 4;
  const fromConviction = entry !== undefined && entry.counted_from !== 'offence';
  const start = fromConviction ? (conviction ?? offence) : (offence ?? conviction);
  return start ? format(addYears(start, years), 'yyyy-MM-dd') : null;
}
