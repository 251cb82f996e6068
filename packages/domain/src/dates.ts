import { addMonths } from 'date-fns/addMonths';
import { addYears } from 'date-fns/addYears';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { subMonths } from 'date-fns/subMonths';
import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { optionalText } from './text-rules.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * True for a real calendar date written 'YYYY-MM-DD', in the years 0001-9999 (there is no year
 * 0000, and PostgreSQL refuses it).
 */
export function isIsoDate(value: string): boolean {
  return (
    ISO_DATE.test(value) &&
    !value.startsWith('0000') &&
    isValid(parseISO(value)) &&
    format(parseISO(value), 'yyyy-MM-dd') === value
  );
}

/** A required 'YYYY-MM-DD' date ('Required', else 'Invalid date'). */
export const isoDateSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .refine(isIsoDate, MESSAGES.invalidDate);

/** True for a date-time whose moment falls in the UTC years 0001-9999 (what PostgreSQL stores). */
export function isStorableDateTime(value: string): boolean {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** A required ISO 8601 date-time with an offset ('2030-01-01T09:00:00Z'), years 0001-9999. */
export const isoDateTimeSchema = z.iso
  .datetime({ offset: true, error: MESSAGES.invalidDate })
  .refine(isStorableDateTime, MESSAGES.invalidDate);

/** An optional 'YYYY-MM-DD' date: null, undefined and blank all become `undefined`. */
export const optionalIsoDateSchema = optionalText(isoDateSchema);

/** 'YYYY-MM-DD' of any day value. */
export function toIsoDate(day: Date | string): string {
  return typeof day === 'string' ? day.slice(0, 10) : format(day, 'yyyy-MM-dd');
}

const shift = (day: Date | string, fn: (d: Date) => Date) =>
  format(fn(typeof day === 'string' ? parseISO(day) : day), 'yyyy-MM-dd');

export const plusYears = (day: Date | string, n: number) => shift(day, (d) => addYears(d, n));
export const plusMonths = (day: Date | string, n: number) => shift(day, (d) => addMonths(d, n));
export const minusMonths = (day: Date | string, n: number) => shift(day, (d) => subMonths(d, n));
