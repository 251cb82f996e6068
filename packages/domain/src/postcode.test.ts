import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstIssueMessage } from './first-message.js';
import {
  formatGbrPostcode,
  isUkPostcode,
  postcodeLookupSchema,
  postcodeSchema,
} from './postcode.js';

describe('postcodeSchema', () => {
  it.each([
    ['GIR 0AA', null],
    ['gir 0aa', null],
    ['SW1A 1AA', null],
    ['M1 1AE', null],
    ['B33 8TH', null],
    ['CR2 6XH', null],
    ['DN55 1PT', null],
    ['W1A 0AX', null],
    ['EC1A 1BB', null],
    ['  ec1a 1bb ', null],
    ['', 'Required'],
    ['SW1A1AA', 'Invalid format'],
    ['SW1A  1AA', 'Invalid format'],
    ['123 456', 'Invalid format'],
    ['QA1 1AA', 'Invalid format'],
    ['VA1 1AA', 'Invalid format'],
    ['XA1 1AA', 'Invalid format'],
    ['AI1 1AA', 'Invalid format'],
    ['AJ1 1AA', 'Invalid format'],
    ['AZ1 1AA', 'Invalid format'],
    ['W1I 1AA', 'Invalid format'],
    ['W1L 1AA', 'Invalid format'],
    ['EC1C 1AA', 'Invalid format'],
    ['EC1Z 1AA', 'Invalid format'],
    ['M1 1AC', 'Invalid format'],
    ['M1 1IA', 'Invalid format'],
    ['M1 1KM', 'Invalid format'],
    ['M1 1OV', 'Invalid format'],
  ])('%s', (value, expected) => {
    expect(firstIssueMessage(postcodeSchema, value)).toBe(expected);
  });

  it('uppercases', () => {
    expect(postcodeSchema.parse('sw1a 1aa')).toBe('SW1A 1AA');
  });
});

describe('postcodeLookupSchema', () => {
  it.each([
    ['', 'Required'],
    ['SW1', 'Min 5 characters'],
    [' SW1A ', 'Min 5 characters'],
    ['SW1A1', null],
  ])('%s', (value, expected) => {
    expect(firstIssueMessage(postcodeLookupSchema, value)).toBe(expected);
  });
});

describe('formatGbrPostcode', () => {
  it.each([
    ['sw1a1aa', 'SW1A 1AA'],
    ['M11AE', 'M1 1AE'],
    ['M1 1AE', 'M1 1AE'],
    ['M1', 'M1'],
  ])('%s', (value, expected) => {
    expect(formatGbrPostcode(value)).toBe(expected);
  });
});

describe('postcode properties', () => {
  const postcodeArb = fc
    .stringMatching(/^[A-Z](?:\d|\d\d|\d[A-Z]|[A-Z]\d|[A-Z]\d\d|[A-Z]\d[A-Z]) \d[A-Z]{2}$/)
    .filter(isUkPostcode);

  it('a valid postcode typed without its space is restored by GBR spacing', () => {
    fc.assert(
      fc.property(postcodeArb, (postcode) => {
        expect(formatGbrPostcode(postcode.replace(' ', '').toLowerCase())).toBe(postcode);
        expect(postcodeSchema.parse(postcode.toLowerCase())).toBe(postcode);
      }),
    );
  });
});
