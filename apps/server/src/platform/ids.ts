import { MESSAGES } from '@kestrel/domain';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { API_MESSAGES } from './errors.js';

// The one place where an id, or any whole number taken from a URL or a query string, is read.
// Strict: plain decimal digits, no sign, leading zero, exponent, hex, fraction or space
// ('0x10', '1e3', '00000000001' and ' 1' are not ids), and within the range of the column the
// value is compared with, so PostgreSQL never sees a number its type cannot hold.

/** The largest `integer` (int4): most ids and every foreign key. */
export const INT4_MAX = 2_147_483_647;

const POSITIVE = /^[1-9][0-9]{0,15}$/;
const WHOLE = /^(?:0|-?[1-9][0-9]{0,15})$/;

/** The largest value a column holds (int4, else a safe JavaScript integer). */
export function maxOf(column: PgColumn | undefined): number {
  switch (column?.columnType) {
    case 'PgSmallInt':
    case 'PgSmallSerial':
      return 32_767;
    case 'PgInteger':
    case 'PgSerial':
      return INT4_MAX;
    default:
      return Number.MAX_SAFE_INTEGER;
  }
}

/** `raw` as an id (a positive whole number in range), or null. */
export function strictId(raw: string, max = INT4_MAX): number | null {
  if (!POSITIVE.test(raw)) return null;
  const n = Number(raw);
  return n <= max ? n : null;
}

/** `raw` as a whole number (negatives and 0 too) in the range of an int4 or of `max`, or null. */
export function strictWhole(raw: string, max = INT4_MAX): number | null {
  if (!WHOLE.test(raw)) return null;
  const n = Number(raw);
  return Math.abs(n) <= max ? n : null;
}

/** An id in a JSON body (another object's): a positive int4. */
export const idSchema = z
  .number({
    error: (issue) => (issue.input === undefined ? MESSAGES.required : API_MESSAGES.validInteger),
  })
  .int(API_MESSAGES.validInteger)
  .min(1, API_MESSAGES.noSuchObject)
  .max(INT4_MAX, API_MESSAGES.noSuchObject);
