import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { subYears } from 'date-fns/subYears';
import { z } from 'zod';
import { MESSAGES } from './messages.js';

/** Days in a month (1-12), leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export interface DateRange {
  /** 'YYYY-MM-DD', inclusive */
  min: string;
  /** 'YYYY-MM-DD', inclusive */
  max: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const key = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;
const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** The date selector's defaults: 100 years back to today. */
export function dateSelectorDefaults(today: Date | string): DateRange {
  const day = typeof today === 'string' ? parseISO(today) : today;
  return { min: format(subYears(day, 100), 'yyyy-MM-dd'), max: format(day, 'yyyy-MM-dd') };
}

/**
 * Years between the range ends, from the end nearest the current year: newest first for dates in
 * the past (birth, issue), oldest first for dates ahead (expiry: this year, then forward).
 */
export function dateSelectorYears({ min, max }: DateRange, today: Date | string): number[] {
  const current = Number(
    (typeof today === 'string' ? today : format(today, 'yyyy-MM-dd')).slice(0, 4),
  );
  const [first, last] = [Number(min.slice(0, 4)), Number(max.slice(0, 4))];
  const years = range(first, last);
  return Math.abs(first - current) < Math.abs(last - current) ? years : years.reverse();
}

/** Months (1-12) of a year that hold at least one day in the range. */
export function dateSelectorMonths({ year, min, max }: DateRange & { year: number }): number[] {
  return range(1, 12).filter(
    (m) => key(year, m, daysInMonth(year, m)) >= min && key(year, m, 1) <= max,
  );
}

/** Days of a month that fall in the range; a month not chosen yet offers 1-31 within bounds. */
export function dateSelectorDays({
  year,
  month,
  min,
  max,
}: DateRange & { year: number; month: number }): number[] {
  return range(1, daysInMonth(year, month)).filter((d) => {
    const value = key(year, month, d);
    return value >= min && value <= max;
  });
}

/** Joins the three selector parts; each is required. */
export const dateSelectorSchema = z
  .object({
    year: z.number({ error: MESSAGES.required }).int(),
    month: z.number({ error: MESSAGES.required }).int().min(1).max(12),
    day: z.number({ error: MESSAGES.required }).int().min(1).max(31),
  })
  .refine((v) => v.day <= daysInMonth(v.year, v.month), {
    message: MESSAGES.invalidDate,
    path: ['day'],
  })
  .transform((v) => key(v.year, v.month, v.day));

/** 'YYYY-MM-DD' of the day after `today`. */
export function tomorrow(today: Date | string): string {
  const day = typeof today === 'string' ? parseISO(today) : today;
  return format(addDays(day, 1), 'yyyy-MM-dd');
}

/**
 * Adds 'Date out of range' on each of `fields` whose 'YYYY-MM-DD' value lies outside `range`
 * (what the date selector offers); blank values are left to the field's own rule.
 */
export function refineDateRange(
  ctx: z.RefinementCtx,
  data: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  range: DateRange,
): void {
  for (const field of fields) {
    const value = data[field];
    if (typeof value === 'string' && value !== '' && (value < range.min || value > range.max)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.dateOutOfRange, path: [field] });
    }
  }
}
