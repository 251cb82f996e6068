import { describe, expect, it } from 'vitest';
import { basicDetailsSchema, birthDetailsSchema, showsCounty } from './case-details.js';
import { issuesByField } from './first-message.js';

const errors = (schema: typeof basicDetailsSchema | typeof birthDetailsSchema, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : issuesByField(r.error);
};

const basic = {
  gender: 'female',
  title: 'Ms',
  forename: ' Ann ',
  middlename: '',
  surname: 'Lee',
  email: 'ann@example.com',
  dob: '1990-04-01',
  phone_number: '07911 123456',
  nin: 'ab123456c',
  nationality: 'GBR',
};

describe('basicDetailsSchema', () => {
  it('accepts and normalises valid details', () => {
    const parsed = basicDetailsSchema.parse(basic);
    expect(parsed.forename).toBe('Ann');
    expect(parsed.nin).toBe('AB123456C');
    expect(parsed.middlename).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    [
      'required fields',
      { gender: undefined, forename: '', dob: '', nationality: '' },
      {
        gender: ['Required'],
        forename: ['Required'],
        dob: ['Required'],
        nationality: ['Required'],
      },
    ],
    [
      'phone and email',
      { phone_number: '123', email: 'ann' },
      {
        phone_number: ['Invalid number'],
        email: ['Invalid email'],
      },
    ],
    ['title must fit the gender', { title: 'Mr' }, { title: ['Required'] }],
    ['accented name asks for a DBS value', { forename: 'Zoë' }, { forename_dbs: ['Required'] }],
    ['DBS value given', { forename: 'Zoë', forename_dbs: 'Zoe' }, {}],
    ['bad DBS surname', { surname_dbs: 'Lée' }, { surname_dbs: ['Contains invalid characters'] }],
    ['optional NI number checked', { nin: 'QQ123456A' }, { nin: ['Invalid number'] }],
    ['email may be left out (read-only)', { email: undefined }, {}],
    ['unknown nationality', { nationality: 'XYZ' }, { nationality: ['Invalid format'] }],
  ])('%s', (_name, change, expected) => {
    expect(errors(basicDetailsSchema, { ...basic, ...change })).toEqual(expected);
  });
});

describe('birthDetailsSchema', () => {
  const birth = { country: 'GBR', town: 'Leeds', county: 'West Yorkshire' };
  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['valid', {}, {}],
    ['town required', { town: '' }, { town: ['Required'] }],
    [
      'unsupported country needs an alternative',
      { country: 'ATA', county: '' },
      {
        country_dbs: ['Required'],
      },
    ],
    ['alternative given', { country: 'ATA', country_dbs: 'GBR' }, {}],
    [
      'unknown alternative',
      { country: 'ATA', country_dbs: 'gbr' },
      { country_dbs: ['Invalid format'] },
    ],
    [
      'accented town needs a DBS value',
      { country: 'FRA', town: 'Saint-Étienne' },
      {
        town_dbs: ['Required'],
      },
    ],
    ['county ignored outside GBR', { country: 'FRA', county: "Côte-d'Or" }, {}],
    ['GBR county checked', { county: "Côte-d'Or" }, { county_dbs: ['Required'] }],
  ])('%s', (_name, change, expected) => {
    expect(errors(birthDetailsSchema, { ...birth, ...change })).toEqual(expected);
  });

  it('shows county for GBR only', () => {
    expect(showsCounty('GBR')).toBe(true);
    expect(showsCounty('IRL')).toBe(false);
  });
});
