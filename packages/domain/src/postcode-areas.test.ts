import { describe, expect, it } from 'vitest';
import { fakeOsAddresses } from './address-lookup.js';
import { isUkPostcode } from './postcode.js';
import { POSTCODE_AREA_TOWNS, postTownOf } from './postcode-areas.js';

describe('the UK postcode areas', () => {
  it('holds every area of the UK and the Crown Dependencies, each with its post town', () => {
    const areas = Object.keys(POSTCODE_AREA_TOWNS);
    // 121 areas in Great Britain and Northern Ireland, plus Guernsey, Jersey and the Isle of Man.
    expect(areas).toHaveLength(124);
    for (const area of areas) {
      expect(area).toMatch(/^[A-Z]{1,2}$/);
      expect(POSTCODE_AREA_TOWNS[area]).toMatch(/^[A-Z][A-Z -]+$/);
      // Every area takes a well-formed postcode (no letter in a position the format refuses).
      expect(isUkPostcode(`${area}1 1AA`), area).toBe(true);
    }
  });

  it.each([
    ['M3 3HN', 'MANCHESTER'],
    ['m33hn', 'MANCHESTER'],
    ['ME1 1AA', 'ROCHESTER'],
    ['BA1 1AA', 'BATH'],
    ['B1 1AA', 'BIRMINGHAM'],
    ['BT1 1AA', 'BELFAST'],
    ['EC1A 1BB', 'LONDON'],
    ['SW1A 1AA', 'LONDON'],
    ['W1A 1AA', 'LONDON'],
    ['G2 1DU', 'GLASGOW'],
    ['LS1 4AP', 'LEEDS'],
    ['YO1 7HH', 'YORK'],
    ['JE2 3QQ', 'JERSEY'],
  ])('%s is in %s', (postcode, town) => {
    expect(postTownOf(postcode)).toBe(town);
  });

  it('knows no town for an area that does not exist', () => {
    expect(postTownOf('AA1 1AA')).toBeNull();
    expect(postTownOf('')).toBeNull();
    expect(postTownOf('12345')).toBeNull();
  });
});

describe('the fake address lookup', () => {
  it("answers the postcode's own post town (M3 3HN is in Manchester, not Bath)", () => {
    const found = fakeOsAddresses('M3 3HN');
    expect(found.length).toBeGreaterThanOrEqual(6);
    for (const a of found) {
      expect(a.POST_TOWN).toBe('MANCHESTER');
      expect(a.ADDRESS.endsWith('MANCHESTER, M3 3HN')).toBe(true);
    }
    for (const [postcode, town] of [
      ['BA1 1AA', 'BATH'],
      ['EH1 1YZ', 'EDINBURGH'],
      ['CF10 1AA', 'CARDIFF'],
    ] as const) {
      expect(new Set(fakeOsAddresses(postcode).map((a) => a.POST_TOWN))).toEqual(new Set([town]));
    }
  });

  it('finds nothing in a postcode area that does not exist', () => {
    expect(fakeOsAddresses('AA1 1AA')).toEqual([]);
  });
});
