import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  isDbsAddressLine,
  isDbsName,
  isDbsPlace,
  isDbsPostcode,
  needsCountryAlternative,
  needsDbsAlternative,
  refineCountryAlternative,
  refineDbsAlternative,
} from './dbs-checks.js';
import { issuesByField } from './first-message.js';

describe('criminal-record service checks', () => {
  it.each([
    [isDbsName, "O'Brien-Smith", true],
    [isDbsName, 'Anne Marie', true],
    [isDbsName, 'Zoë', false],
    [isDbsName, 'St. John', false],
    [isDbsName, 'J0hn', false],
    [isDbsPlace, 'Stoke-on-Trent', true],
    [isDbsPlace, 'Saint-Étienne', false],
    [isDbsPlace, 'St. Albans', false],
    [isDbsAddressLine, 'Flat 2/3 (rear) 10 High Street', true],
    [isDbsAddressLine, '10 High St.', false],
    [isDbsAddressLine, 'Flat 2, Rose House', false],
    [isDbsAddressLine, '   ', false],
    [isDbsPostcode, 'SW1A 1AA', true],
    [isDbsPostcode, '1234-567', true],
    [isDbsPostcode, 'SW1A.1AA', false],
  ])('%#: %s', (check, value, expected) => {
    expect(check(value)).toBe(expected);
  });

  it('needs an alternative only for a filled-in failing value', () => {
    expect(needsDbsAlternative('Zoë', 'name')).toBe(true);
    expect(needsDbsAlternative('Zoe', 'name')).toBe(false);
    expect(needsDbsAlternative('', 'name')).toBe(false);
    expect(needsDbsAlternative(null, 'addressLine')).toBe(false);
    expect(needsCountryAlternative('ATA')).toBe(true);
    expect(needsCountryAlternative('GBR')).toBe(false);
    expect(needsCountryAlternative('')).toBe(false);
  });
});

describe('(for DBS) alternative refinements', () => {
  const schema = z
    .object({
      forename: z.string(),
      forename_dbs: z.string().nullish(),
      country: z.string().nullish(),
      country_dbs: z.string().nullish(),
    })
    .superRefine((data, ctx) => {
      refineDbsAlternative(ctx, data, 'forename', 'name');
      refineCountryAlternative(ctx, data);
    });
  const errors = (value: unknown) => {
    const r = schema.safeParse(value);
    return r.success ? {} : issuesByField(r.error);
  };

  it.each([
    [{ forename: 'Zoe' }, {}],
    [{ forename: 'Zoë' }, { forename_dbs: ['Required'] }],
    [{ forename: 'Zoë', forename_dbs: 'Zoe' }, {}],
    [{ forename: 'Zoë', forename_dbs: 'Zoë' }, { forename_dbs: ['Contains invalid characters'] }],
    [{ forename: 'Zoe', forename_dbs: 'Z.' }, { forename_dbs: ['Contains invalid characters'] }],
    [{ forename: 'Zoe', country: 'ATA' }, { country_dbs: ['Required'] }],
    [{ forename: 'Zoe', country: 'ATA', country_dbs: 'GBR' }, {}],
    [{ forename: 'Zoe', country: 'FRA' }, {}],
  ])('%o', (value, expected) => {
    expect(errors(value)).toEqual(expected);
  });
});
