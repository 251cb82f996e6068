import { describe, expect, it } from 'vitest';
import {
  dateSelectorDays,
  dateSelectorDefaults,
  dateSelectorMonths,
  dateSelectorSchema,
  dateSelectorYears,
  daysInMonth,
  tomorrow,
} from './date-selector.js';
import { firstIssueMessage } from './first-message.js';

describe('daysInMonth', () => {
  it.each([
    [2024, 2, 29],
    [2023, 2, 28],
    [2000, 2, 29],
    [1900, 2, 28],
    [2023, 4, 30],
    [2023, 12, 31],
  ])('%i-%i has %i days', (year, month, days) => {
    expect(daysInMonth(year, month)).toBe(days);
  });
});

describe('date selector lists', () => {
  const wide = { min: '1900-01-01', max: '2100-12-31' };

  it('offers 29 days in February of a leap year, 28 otherwise', () => {
    expect(dateSelectorDays({ year: 2024, month: 2, ...wide })).toHaveLength(29);
    expect(dateSelectorDays({ year: 2023, month: 2, ...wide })).toHaveLength(28);
  });

  it('cuts the days at the min and max dates', () => {
    expect(
      dateSelectorDays({ year: 2024, month: 5, min: '2024-05-28', max: '2030-01-01' }),
    ).toEqual([28, 29, 30, 31]);
    expect(
      dateSelectorDays({ year: 2024, month: 5, min: '2000-01-01', max: '2024-05-02' }),
    ).toEqual([1, 2]);
    expect(
      dateSelectorDays({ year: 2025, month: 5, min: '2000-01-01', max: '2024-05-02' }),
    ).toEqual([]);
  });

  it('offers the months and years in range', () => {
    expect(dateSelectorMonths({ year: 2024, min: '2024-03-15', max: '2024-06-01' })).toEqual([
      3, 4, 5, 6,
    ]);
    expect(dateSelectorYears({ min: '2020-05-01', max: '2023-01-01' }, '2023-01-01')).toEqual([
      2023, 2022, 2021, 2020,
    ]);
  });

  it('lists the years from the end nearest the current year', () => {
    // Dates of birth and issue dates: this year first, then back.
    expect(dateSelectorYears(dateSelectorDefaults('2026-11-27'), '2026-11-27').slice(0, 3)).toEqual(
      [2026, 2025, 2024],
    );
    // Expiry dates (tomorrow up to 100 years ahead): this year first, then forward, not 2126 first.
    const expiry = dateSelectorYears({ min: '2026-11-28', max: '2126-11-27' }, '2026-11-27');
    expect(expiry.slice(0, 3)).toEqual([2026, 2027, 2028]);
    expect(expiry.at(-1)).toBe(2126);
    expect(expiry).toHaveLength(101);
    // A GBR passport may have expired up to 6 months ago: from last year, forward.
    expect(
      dateSelectorYears({ min: '2026-08-27', max: '2127-02-27' }, '2027-02-27').slice(0, 3),
    ).toEqual([2026, 2027, 2028]);
    // A range entirely ahead starts at its first year; one entirely behind at its last.
    expect(dateSelectorYears({ min: '2030-01-01', max: '2032-12-31' }, '2026-11-27')).toEqual([
      2030, 2031, 2032,
    ]);
    expect(dateSelectorYears({ min: '2001-01-01', max: '2003-12-31' }, '2026-11-27')).toEqual([
      2003, 2002, 2001,
    ]);
  });

  it('defaults to 100 years back to today', () => {
    expect(dateSelectorDefaults('2024-02-29')).toEqual({ min: '1924-02-29', max: '2024-02-29' });
    expect(dateSelectorDefaults(new Date(Date.UTC(2023, 5, 1)))).toEqual({
      min: '1923-06-01',
      max: '2023-06-01',
    });
  });

  it('gives tomorrow', () => {
    expect(tomorrow('2024-02-28')).toBe('2024-02-29');
    expect(tomorrow(new Date(Date.UTC(2023, 11, 31)))).toBe('2024-01-01');
  });
});

describe('dateSelectorSchema', () => {
  it.each([
    [{ year: 2024, month: 2, day: 29 }, null],
    [{ month: 2, day: 1 }, 'Required'],
    [{ year: 2024, day: 1 }, 'Required'],
    [{ year: 2024, month: 2 }, 'Required'],
    [{ year: 2023, month: 2, day: 29 }, 'Invalid date'],
  ])('%o', (value, expected) => {
    expect(firstIssueMessage(dateSelectorSchema, value)).toBe(expected);
  });

  it('joins the parts', () => {
    expect(dateSelectorSchema.parse({ year: 2024, month: 3, day: 7 })).toBe('2024-03-07');
  });
});
