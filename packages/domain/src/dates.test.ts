import { describe, expect, it } from 'vitest';
import {
  isIsoDate,
  isoDateSchema,
  isoDateTimeSchema,
  minusMonths,
  optionalIsoDateSchema,
  plusMonths,
  plusYears,
  toIsoDate,
} from './dates.js';
import { firstIssueMessage } from './first-message.js';

describe('ISO dates', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2023-13-01', false],
    ['2023-1-01', false],
    ['yesterday', false],
    ['0000-01-01', false],
    ['0001-01-01', true],
    ['9999-12-31', true],
  ])('%s valid: %s', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });

  it.each([
    [isoDateSchema, '2024-01-31', null],
    [isoDateSchema, '', 'Required'],
    [isoDateSchema, undefined, 'Required'],
    [isoDateSchema, '2024-02-30', 'Invalid date'],
    [optionalIsoDateSchema, '', null],
    [optionalIsoDateSchema, null, null],
    [optionalIsoDateSchema, '2024-02-30', 'Invalid date'],
    [isoDateTimeSchema, '2030-01-01T09:00:00Z', null],
    [isoDateTimeSchema, '2030-01-01T09:00:00+01:00', null],
    [isoDateTimeSchema, '0000-01-01T00:00:00Z', 'Invalid date'],
    // a moment in year 0 once moved to UTC
    [isoDateTimeSchema, '0001-01-01T00:00:00+01:00', 'Invalid date'],
    [isoDateTimeSchema, '2030-01-01', 'Invalid date'],
  ])('%#', (schema, value, expected) => {
    expect(firstIssueMessage(schema, value)).toBe(expected);
  });

  it('maps empty optional dates to undefined', () => {
    expect(optionalIsoDateSchema.parse('')).toBeUndefined();
  });

  it('shifts dates', () => {
    expect(plusYears('2024-02-29', 100)).toBe('2124-02-29');
    expect(plusYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(plusMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(minusMonths('2024-08-31', 6)).toBe('2024-02-29');
    expect(toIsoDate('2024-05-06T10:00:00Z')).toBe('2024-05-06');
    expect(toIsoDate(new Date(Date.UTC(2024, 4, 6)))).toBe('2024-05-06');
  });
});
