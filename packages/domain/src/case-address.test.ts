import { describe, expect, it } from 'vitest';
import { addressSchema } from './case-address.js';
import { issuesByField } from './first-message.js';

const address = {
  country: 'GBR',
  line_one: '10 High Street',
  town: 'Leeds',
  postcode: 'ls1 1aa',
  from_date: '2020-01-01',
  to_date: '2022-01-01',
};
const errors = (value: unknown) => {
  const r = addressSchema.safeParse(value);
  return r.success ? {} : issuesByField(r.error);
};

describe('addressSchema', () => {
  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['valid', {}, {}],
    ['GBR postcode required', { postcode: '' }, { postcode: ['Required'] }],
    ['GBR postcode checked', { postcode: 'LS11AA' }, { postcode: ['Invalid format'] }],
    ['postcode optional elsewhere', { country: 'FRA', postcode: '' }, {}],
    ['foreign postcode kept to safe characters', { country: 'PRT', postcode: '1000-001' }, {}],
    [
      'foreign postcode with a dot',
      { country: 'FRA', postcode: '75.001' },
      {
        postcode: ['Contains invalid characters'],
      },
    ],
    [
      'to before from',
      { to_date: '2019-12-31' },
      { to_date: ['To date cannot be before from date.'] },
    ],
    ['historical address needs an end', { to_date: '' }, { to_date: ['Required'] }],
    ['current address needs no end', { to_date: '', current: true }, {}],
    [
      'comma asks for a DBS line',
      { line_one: 'Flat 2, Rose House' },
      { line_one_dbs: ['Required'] },
    ],
    ['DBS line given', { line_one: 'Flat 2, Rose House', line_one_dbs: 'Flat 2 Rose House' }, {}],
    ['dotted town', { town: 'St. Albans' }, { town_dbs: ['Required'] }],
    ['unsupported country', { country: 'ATA', postcode: '' }, { country_dbs: ['Required'] }],
    ['line required', { line_one: ' ' }, { line_one: ['Required'] }],
  ])('%s', (_name, change, expected) => {
    expect(errors({ ...address, ...change })).toEqual(expected);
  });

  it('normalises the postcode and clears the end date of a current address', () => {
    const parsed = addressSchema.parse({ ...address, current: true });
    expect(parsed.postcode).toBe('LS1 1AA');
    expect(parsed.to_date).toBeNull();
    expect(parsed.source).toBe('manual');
  });
});
