import { describe, expect, it } from 'vitest';
import {
  BRITISH_NATIONALITY_CODES,
  COUNTRIES,
  countryName,
  isBritishNationality,
  isEbulkSupported,
  nationalityName,
  sortedCountries,
} from './countries.js';

describe('COUNTRIES', () => {
  it('holds every current ISO 3166-1 code plus historic ones', () => {
    const current = Object.values(COUNTRIES).filter((c) => !c.deprecated);
    expect(current).toHaveLength(249);
    for (const code of Object.keys(COUNTRIES)) expect(code).toMatch(/^[A-Z]{3}$/);
    for (const entry of Object.values(COUNTRIES)) {
      expect(entry.name).not.toBe('');
      expect(entry.nationality).not.toBe('');
    }
  });

  it.each([
    ['GBR', 'United Kingdom', 'British', false, false],
    ['FRA', 'France', 'French', false, false],
    ['ANT', 'Netherlands Antilles', 'Dutch Antillean', true, false],
    ['SCG', 'Serbia and Montenegro', 'Serbian or Montenegrin', true, false],
    ['ATA', 'Antarctica', 'Antarctic', false, true],
    [
      'UMI',
      'United States Minor Outlying Islands',
      'American (US Minor Outlying Islands)',
      false,
      true,
    ],
  ])('%s', (code, name, nationality, deprecated, ebulkMissing) => {
    expect(COUNTRIES[code]).toEqual({ name, nationality, deprecated, ebulk_missing: ebulkMissing });
  });
});

describe('sortedCountries', () => {
  it('puts GBR first, hides deprecated codes and sorts the rest by name', () => {
    const list = sortedCountries();
    expect(list[0]?.code).toBe('GBR');
    expect(list.map((c) => c.code)).not.toContain('ANT');
    const names = list.slice(1).map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(names[0]).toBe('Afghanistan');
  });

  it('works on a map from the server', () => {
    const map = {
      ZZZ: { name: 'Zed', nationality: 'Zed', deprecated: false, ebulk_missing: false },
      AAA: { name: 'Aye', nationality: 'Aye', deprecated: false, ebulk_missing: false },
      OLD: { name: 'Old', nationality: 'Old', deprecated: true, ebulk_missing: false },
    };
    expect(sortedCountries(map).map((c) => c.code)).toEqual(['AAA', 'ZZZ']);
  });
});

describe('nationality and e-bulk support', () => {
  it('lists the British nationality codes', () => {
    expect(BRITISH_NATIONALITY_CODES).toEqual(['GBR', 'GGY', 'IMN', 'JEY']);
    expect(isBritishNationality('JEY')).toBe(true);
    expect(isBritishNationality('IRL')).toBe(false);
    expect(isBritishNationality(null)).toBe(false);
  });

  it.each([
    ['GBR', true],
    ['ATA', false],
    ['HMD', false],
    ['XYZ', false],
    [null, false],
  ])('isEbulkSupported(%s) = %s', (code, expected) => {
    expect(isEbulkSupported(code)).toBe(expected);
  });

  it('names a country', () => {
    expect(countryName('DEU')).toBe('Germany');
    expect(countryName('XYZ')).toBe('XYZ');
  });

  it('names the nationality of a code (what the person chose), not the country', () => {
    expect(nationalityName('GBR')).toBe('British');
    expect(nationalityName('DEU')).toBe('German');
    expect(nationalityName('XYZ')).toBe('XYZ');
    expect(nationalityName('')).toBe('');
  });
});
