import { describe, expect, it } from 'vitest';
import { composeIntlAddress, composeOsAddress, titleCase } from './address-lookup.js';

describe('composeOsAddress', () => {
  it('puts a building name on line one and the street on line two', () => {
    expect(
      composeOsAddress({
        SUB_BUILDING_NAME: 'FLAT 2',
        BUILDING_NAME: 'ROSE HOUSE',
        BUILDING_NUMBER: 10,
        THOROUGHFARE_NAME: 'HIGH STREET',
        DEPENDENT_LOCALITY: 'HEADINGLEY',
        POST_TOWN: 'LEEDS',
        POSTCODE: 'LS61AA',
      }),
    ).toEqual({
      country: 'GBR',
      line_one: 'Flat 2 Rose House',
      line_two: '10 High Street Headingley',
      town: 'Leeds',
      postcode: 'LS6 1AA',
    });
  });

  it('puts the number and street parts on line one without a name', () => {
    expect(
      composeOsAddress({
        BUILDING_NUMBER: '5',
        DEPENDENT_THOROUGHFARE_NAME: 'MILL LANE',
        THOROUGHFARE_NAME: 'STATION ROAD',
        POST_TOWN: 'STOKE-ON-TRENT',
        POSTCODE: 'ST4 2AA',
      }),
    ).toEqual({
      country: 'GBR',
      line_one: '5 Mill Lane Station Road',
      line_two: '',
      town: 'Stoke-On-Trent',
      postcode: 'ST4 2AA',
    });
  });

  it('copes with missing fields', () => {
    expect(composeOsAddress({})).toEqual({
      country: 'GBR',
      line_one: '',
      line_two: '',
      town: '',
      postcode: '',
    });
  });
});

describe('composeIntlAddress', () => {
  it('uses structured fields for format 2', () => {
    expect(
      composeIntlAddress({
        country_iso: 'GB',
        address_format: 2,
        building: 'Rose House',
        street: 'High Street',
        locality: 'Headingley',
        town_city: 'Leeds',
        postal_code: 'ls61aa',
      }),
    ).toEqual({
      country: 'GBR',
      line_one: 'Rose House',
      line_two: 'High Street Headingley',
      town: 'Leeds',
      postcode: 'LS6 1AA',
    });
    expect(
      composeIntlAddress({
        country_iso: 'FRA',
        address_format: '2',
        street: '1 Rue X',
        locality: 'Y',
      }),
    ).toMatchObject({ line_one: '1 Rue X', line_two: 'Y', postcode: '' });
  });

  it('uses the address lines otherwise and leaves foreign postcodes alone', () => {
    expect(
      composeIntlAddress({
        country_iso: 'deu',
        address_line1: 'Hauptstraße 1',
        address_line2: 'Hinterhaus',
        address_line4: '2. OG',
        town_city: 'Berlin',
        postal_code: ' 10115 ',
      }),
    ).toEqual({
      country: 'DEU',
      line_one: 'Hauptstraße 1',
      line_two: 'Hinterhaus 2. OG',
      town: 'Berlin',
      postcode: '10115',
    });
    expect(composeIntlAddress({}).country).toBe('');
  });

  it('title-cases only upper-case text', () => {
    expect(titleCase("ST JOHN'S (NORTH)")).toBe("St John's (North)");
    expect(titleCase('McDonald Road')).toBe('McDonald Road');
  });
});
