import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  addressLookupQuery,
  caseAddressCreate,
  caseAddressIn,
  caseAddressListOut,
  caseAddressPatch,
  caseBasicDetailsIn,
  caseBasicDetailsPatch,
  caseBirthDetailsIn,
  caseDataListQuery,
  caseDbsUpdateDetailsIn,
  caseDrivingLicenceIn,
  caseOtherNameIn,
  casePassportCreate,
  casePassportIn,
  countryMapOut,
  dbsUpdateDetailsSchema,
  fakeOsAddresses,
  licenceNumberReference,
} from '../index.js';

const today = '2026-11-24';
const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : z.flattenError(r.error).fieldErrors;
};

const basic = {
  gender: 'female',
  title: 'Ms',
  forename: 'Zoë',
  forename_dbs: 'Zoe',
  surname: 'Lee',
  dob: '1990-04-01',
  phone_number: '07911 123456',
  nationality: 'GBR',
};

describe('case data contracts', () => {
  it('PATCH bodies take any subset and add no defaults', () => {
    expect(caseAddressPatch.parse({ line_one: ' 1 High St ' })).toEqual({ line_one: '1 High St' });
    expect(caseAddressPatch.parse({})).toEqual({});
    expect(messages(caseAddressPatch, { source: 'idsp' })).toHaveProperty('source');
    expect(caseBasicDetailsPatch.parse({ nin: 'ab 12 34 56 c' })).toEqual({ nin: 'AB123456C' });
    expect(messages(caseBasicDetailsPatch, { forename: '' })).toEqual({ forename: ['Required'] });
  });

  it('creates carry the case; a client cannot claim idsp', () => {
    expect(
      messages(casePassportCreate, { number: 'x1', country: 'GBR', expiry_date: today }),
    ).toEqual({ case: ['Required'] });
    const address = {
      case: 1,
      country: 'GBR',
      line_one: '1 High St.',
      line_one_dbs: '1 High St',
      town: 'Leeds',
      postcode: 'ls1 4ap',
      from_date: '2020-01-01',
      current: true,
    };
    expect(caseAddressCreate.parse(address)).toMatchObject({
      source: 'manual',
      postcode: 'LS1 4AP',
    });
    expect(messages(caseAddressCreate, { ...address, source: 'idsp' })).toHaveProperty('source');
  });

  it('apply the date selector ranges and the cross-field rules on a day', () => {
    expect(messages(caseBasicDetailsIn(today), { ...basic, dob: '2026-11-25' })).toEqual({
      dob: ['Date out of range'],
    });
    expect(messages(caseBasicDetailsIn(today), { ...basic, forename_dbs: '' })).toEqual({
      forename_dbs: ['Required'],
    });
    expect(
      messages(caseOtherNameIn(today), {
        forename: 'Ann',
        surname: 'Lee',
        from_date: '2010-01-01',
        to_date: '2009-01-01',
      }),
    ).toEqual({ to_date: ['To date cannot be before from date.'] });
    expect(
      caseAddressIn(today).parse({
        country: 'FRA',
        country_dbs: '',
        line_one: '3 Rue Cler',
        town: 'Paris',
        from_date: '2020-01-01',
        to_date: '2021-01-01',
        current: true,
      }).to_date,
    ).toBeNull();
    expect(
      messages(casePassportIn(today), { number: 'ab1', country: 'FRA', expiry_date: today }),
    ).toEqual({ expiry_date: ['Date out of range'] });
    expect(
      messages(caseDbsUpdateDetailsIn(today), {
        certificate_number: '0012 3456 7890',
        surname: 'Lee',
        dob: '1990-01-01',
      }),
    ).toEqual({});
    expect(
      messages(caseBirthDetailsIn(), { country: 'ATA', town: 'Zürich', town_dbs: 'Zurich' }),
    ).toEqual({ country_dbs: ['Required'] });
    expect(
      messages(dbsUpdateDetailsSchema(today), {
        certificate_number: '001234567890',
        surname: 'Lee',
        dob: '1900-01-01',
      }),
    ).toEqual({ dob: ['Date out of range'] });
    expect(
      messages(caseDbsUpdateDetailsIn(today), {
        certificate_number: '123',
        surname: 'Lee',
        dob: '',
      }),
    ).toEqual({ certificate_number: ['Invalid number'], dob: ['Required'] });
  });

  it('check a GBR licence number against the holder', () => {
    const holder = { forename: 'Ann', middlename: 'May', surname: 'Lee', dob: '1990-04-01' };
    const number = licenceNumberReference(holder).slice(0, 13) + '9AB';
    const licence = { licence_type: 'photo', country: 'GBR', number, expiry_date: '2030-01-01' };
    expect(messages(caseDrivingLicenceIn(today, holder), licence)).toEqual({});
    expect(messages(caseDrivingLicenceIn(today, { ...holder, surname: 'Smith' }), licence)).toEqual(
      {
        number: ['Surname mismatch'],
      },
    );
    expect(
      messages(caseDrivingLicenceIn(today, holder), { ...licence, number: 'A'.repeat(19) }),
    ).toEqual({ number: ['Max 18 characters'] });
    expect(
      messages(caseDrivingLicenceIn(today, holder), { ...licence, country: 'FRA', number: 'X1' }),
    ).toEqual({});
  });

  it('read the list and lookup queries', () => {
    expect(caseDataListQuery.parse({ case: '12' })).toEqual({ case: 12 });
    expect(messages(caseDataListQuery, {})).toEqual({ case: ['Required'] });
    expect(messages(caseDataListQuery, { case: 'x' })).toEqual({ case: ['Enter a whole number.'] });
    expect(addressLookupQuery.parse({ postcode: 'ls14ap' })).toEqual({ postcode: 'LS1 4AP' });
    expect(messages(addressLookupQuery, { postcode: 'LS1' })).toEqual({
      postcode: ['Min 5 characters'],
    });
    expect(messages(addressLookupQuery, { postcode: 'QQ1 1QQ' })).toEqual({
      postcode: ['Invalid format'],
    });
  });

  it('describe the list with gaps and the country map strictly', () => {
    const page = { count: 0, next: null, previous: null, results: [], gaps: [] };
    expect(caseAddressListOut.safeParse(page).success).toBe(true);
    expect(caseAddressListOut.safeParse({ ...page, gaps: undefined }).success).toBe(false);
    expect(
      countryMapOut.safeParse({
        GBR: {
          name: 'United Kingdom',
          nationality: 'British',
          deprecated: false,
          ebulk_missing: false,
        },
      }).success,
    ).toBe(true);
  });
});

describe('fakeOsAddresses', () => {
  it('gives the same addresses for the same postcode, in the DPA shape', () => {
    const a = fakeOsAddresses('ls14ap');
    expect(a).toEqual(fakeOsAddresses('LS1 4AP'));
    expect(a.length).toBeGreaterThanOrEqual(6);
    expect(a.every((d) => d.POSTCODE === 'LS1 4AP' && d.ADDRESS.endsWith('LS1 4AP'))).toBe(true);
    expect(a.some((d) => d.BUILDING_NAME)).toBe(true);
    expect(new Set(a.map((d) => d.UPRN)).size).toBe(a.length);
    expect(fakeOsAddresses('SW1A 1AA')).not.toEqual(a);
  });
});
