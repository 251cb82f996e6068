import { describe, expect, it } from 'vitest';
import {
  drivingLicenceSchema,
  licenceExpiryRange,
  NO_SURNAME_LABEL,
  passportExpiryRange,
  passportSchema,
} from './case-documents.js';
import { issuesByField } from './first-message.js';

const today = '2024-08-31';
const errorsOf = (r: { success: boolean; error?: unknown }) =>
  r.success || !(r.error && typeof r.error === 'object' && 'issues' in r.error)
    ? {}
    : issuesByField(r.error as Parameters<typeof issuesByField>[0]);

describe('passportSchema', () => {
  const schema = passportSchema(today);
  const passport = { number: 'ab1234567', country: 'FRA', expiry_date: '2030-01-01' };

  it('uppercases the number', () => {
    expect(schema.parse(passport).number).toBe('AB1234567');
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['valid', {}, {}],
    ['expires tomorrow', { expiry_date: '2024-09-01' }, {}],
    ['expires today', { expiry_date: '2024-08-31' }, { expiry_date: ['Date out of range'] }],
    ['100 years ahead', { expiry_date: '2124-08-31' }, {}],
    ['over 100 years ahead', { expiry_date: '2124-09-01' }, { expiry_date: ['Date out of range'] }],
    ['GBR expired 6 months ago', { country: 'GBR', expiry_date: '2024-02-29' }, {}],
    [
      'GBR expired over 6 months ago',
      { country: 'GBR', expiry_date: '2024-02-28' },
      {
        expiry_date: ['Date out of range'],
      },
    ],
    [
      'other country expired',
      { expiry_date: '2024-08-01' },
      { expiry_date: ['Date out of range'] },
    ],
    ['issued in the future', { issue_date: '2024-09-01' }, { issue_date: ['Date out of range'] }],
    ['number required', { number: '' }, { number: ['Required'] }],
    ['number characters', { number: 'AB-12' }, { number: ['Invalid format'] }],
    ['unsupported country', { country: 'BVT' }, { country_dbs: ['Required'] }],
  ])('%s', (_name, change, expected) => {
    expect(errorsOf(schema.safeParse({ ...passport, ...change }))).toEqual(expected);
  });

  it('gives the expiry range', () => {
    expect(passportExpiryRange('GBR', today)).toEqual({ min: '2024-02-29', max: '2124-08-31' });
    expect(passportExpiryRange('USA', new Date(Date.UTC(2024, 7, 31)))).toEqual({
      min: '2024-09-01',
      max: '2124-08-31',
    });
  });
});

describe('drivingLicenceSchema', () => {
  const schema = drivingLicenceSchema(today);
  const licence = {
    licence_type: 'photo',
    number: 'smith 807145 ja9aa',
    country: 'GBR',
    expiry_date: '2030-01-01',
  };

  it('uppercases and compacts the number', () => {
    const parsed = schema.parse(licence);
    expect(parsed.number).toBe('SMITH807145JA9AA');
    expect(parsed.no_surname).toBe(false);
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['valid', {}, {}],
    ['18 characters', { number: 'SMITH807145JA9AA01' }, {}],
    ['19 characters', { number: 'SMITH807145JA9AA012' }, { number: ['Max 18 characters'] }],
    ['number required', { number: '' }, { number: ['Required'] }],
    ['type required', { licence_type: undefined }, { licence_type: ['Required'] }],
    ['photo licence needs an expiry', { expiry_date: '' }, { expiry_date: ['Required'] }],
    ['paper licence may have none', { licence_type: 'paper', expiry_date: '' }, {}],
    ['expired', { expiry_date: '2024-08-31' }, { expiry_date: ['Date out of range'] }],
    ['no surname option', { no_surname: true }, {}],
  ])('%s', (_name, change, expected) => {
    expect(errorsOf(schema.safeParse({ ...licence, ...change }))).toEqual(expected);
  });

  it('gives the expiry range and the option label', () => {
    expect(licenceExpiryRange(today)).toEqual({ min: '2024-09-01', max: '2124-08-31' });
    expect(NO_SURNAME_LABEL).toBe("Subject doesn't have a surname");
  });
});
