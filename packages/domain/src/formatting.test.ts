import { describe, expect, it } from 'vitest';
import { billingCycleText, formatDate, formatPence, isoDate } from './formatting.js';

describe('formatPence', () => {
  it.each([
    [1250, '£12.50'],
    [0, '£0.00'],
    [5, '£0.05'],
    [123456, '£1,234.56'],
    [-1250, '-£12.50'],
  ])('%i → %s', (pence, expected) => {
    expect(formatPence(pence)).toBe(expected);
  });
});

describe('billingCycleText', () => {
  it.each([
    [1, 'weekly', 'Every week'],
    [2, 'weekly', 'Every 2 weeks'],
    [1, 'monthly', 'Every month'],
    [3, 'monthly', 'Every 3 months'],
    [1, 'yearly', 'Every year'],
    [5, 'yearly', 'Every 5 years'],
  ] as const)('%i %s', (interval, triggered, expected) => {
    expect(billingCycleText(interval, triggered)).toBe(expected);
  });
});

describe('formatDate', () => {
  it.each([
    ['2024-01-01', '1st Jan 2024'],
    ['2023-03-22', '22nd Mar 2023'],
    ['2023-11-13', '13th Nov 2023'],
    ['2024-02-29T10:00:00Z', '29th Feb 2024'],
    [new Date(Date.UTC(2020, 6, 3)), '3rd Jul 2020'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    ['not a date', ''],
  ])('%s → %s', (date, expected) => {
    expect(formatDate(date)).toBe(expected);
  });

  it('gives an ISO date', () => {
    expect(isoDate(new Date(Date.UTC(2021, 0, 9)))).toBe('2021-01-09');
  });
});
