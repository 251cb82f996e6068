import { minusMonths, toIsoDate } from './dates.js';
import { MESSAGES } from './messages.js';

/** Address history must cover the last 60 months (spec point 9). */
export const ADDRESS_HISTORY_MONTHS = 60;

export interface AddressPeriod {
  from_date: string | null;
  to_date?: string | null;
  /** A current address runs to today (it has no end date). */
  current?: boolean | null;
}

export interface AddressGap {
  /** first uncovered day, 'YYYY-MM-DD' */
  from_date: string;
  /** last uncovered day, 'YYYY-MM-DD' */
  to_date: string;
  message: string;
}

const DAY = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY);
const isoOf = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);

/** The first day of the window that the history must cover: today minus 60 months. */
export function addressHistoryStart(today: Date | string): string {
  return minusMonths(today, ADDRESS_HISTORY_MONTHS);
}

/**
 * The uncovered periods of the last 60 months, oldest first, each flagged 'Missing address
 * information'. Days are inclusive: an address from the 1st to the 10th covers both. A current
 * address, or one without an end date, runs to today. Addresses without a start date, with an
 * end before their start, or outside the window cover nothing.
 */
export function addressGaps(
  addresses: readonly AddressPeriod[],
  today: Date | string,
): AddressGap[] {
  const windowStart = dayNumber(addressHistoryStart(today));
  const windowEnd = dayNumber(toIsoDate(today));
  const spans = addresses
    .filter((a) => a.from_date)
    .map((a) => {
      const end = a.current || !a.to_date ? windowEnd : dayNumber(a.to_date);
      return [Math.max(dayNumber(a.from_date ?? ''), windowStart), Math.min(end, windowEnd)];
    })
    .filter(([from = 0, to = 0]) => !Number.isNaN(from) && !Number.isNaN(to) && from <= to)
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));

  const gaps: AddressGap[] = [];
  const gap = (from: number, to: number) =>
    gaps.push({
      from_date: isoOf(from),
      to_date: isoOf(to),
      message: MESSAGES.missingAddressInformation,
    });
  let cursor = windowStart;
  for (const [from = 0, to = 0] of spans) {
    if (from > cursor) gap(cursor, from - 1);
    cursor = Math.max(cursor, to + 1);
  }
  if (cursor <= windowEnd) gap(cursor, windowEnd);
  return gaps;
}

/** True when the addresses cover the whole 60-month window. */
export function isAddressHistoryComplete(
  addresses: readonly AddressPeriod[],
  today: Date | string,
): boolean {
  return addressGaps(addresses, today).length === 0;
}
