import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDORSEMENT_CODES } from './endorsement-codes.js';
import {
  endorsementCode,
  endorsementEndDate,
  formatEndorsementPoints,
  UNRECOGNISED_CODE,
} from './endorsements.js';

describe('endorsement code table', () => {
  it('matches data/endorsement-codes.json exactly', () => {
    const json = JSON.parse(
      readFileSync(new URL('../data/endorsement-codes.json', import.meta.url), 'utf8'),
    ) as { codes: { code: string; years: number; counted_from: string }[] };
    expect(ENDORSEMENT_CODES.map((c) => c.code)).toEqual(json.codes.map((c) => c.code));
    expect(ENDORSEMENT_CODES.map((c) => [c.years, c.counted_from])).toEqual(
      json.codes.map((c) => [c.years, c.counted_from]),
    );
    expect(ENDORSEMENT_CODES.length).toBeGreaterThan(75);
  });

  it.each([
    ['SP30', 'SP30'],
    ['sp30', 'SP30'],
    ['LC22', 'LC20'],
    ['LC24', 'LC20'],
    ['DD46', 'DD40'],
    ['CD33', 'CD33'],
  ])('resolves %s to %s', (code, base) => {
    expect(endorsementCode(code)?.code).toBe(base);
  });

  it.each(['XX10', 'CD35', 'SP38', ''])('does not know %s', (code) => {
    expect(endorsementCode(code)).toBeUndefined();
  });

  it('formats points', () => {
    expect(formatEndorsementPoints({ value: 6 })).toBe('6');
    expect(formatEndorsementPoints({ min: 3, max: 9 })).toBe('3-9');
    expect(formatEndorsementPoints(null)).toBe('N/A');
    expect(UNRECOGNISED_CODE).toBe('Unrecognised code');
  });
});

describe('endorsementEndDate', () => {
  const o = '2020-03-10';
  const c = '2020-09-20';
  it.each<[string, string, string | null, string | null, string | null]>([
    ['drink driving: 11 years from conviction', 'DR10', o, c, '2031-09-20'],
    ['drug driving: 11 years from conviction', 'DG10', o, c, '2031-09-20'],
    ['causing death unfit through drink', 'CD40', o, c, '2031-09-20'],
    ['dangerous driving: 4 years from conviction', 'DD40', o, c, '2024-09-20'],
    ['causing death by careless driving', 'CD80', o, c, '2024-09-20'],
    ['totting up', 'TT99', o, c, '2024-09-20'],
    ['foreign code', 'MR09', o, c, '2024-09-20'],
    ['in charge: conviction date when known', 'DR40', o, c, '2024-09-20'],
    ['in charge: offence date otherwise', 'DR50', o, null, '2024-03-10'],
    ['specimen code without conviction', 'DR60', o, null, '2024-03-10'],
    ['speeding: 4 years from offence', 'SP30', o, c, '2024-03-10'],
    ['variant of an offence code', 'SP34', o, c, '2024-03-10'],
    ['unknown code: 4 years from offence', 'ZZ99', o, c, '2024-03-10'],
    ['offence code without offence date uses conviction', 'SP30', null, c, '2024-09-20'],
    ['conviction code without conviction date uses offence', 'DR10', o, null, '2031-03-10'],
    ['leap day', 'SP30', '2020-02-29', null, '2024-02-29'],
    ['leap day to non-leap year', 'DR10', null, '2020-02-29', '2031-02-28'],
    ['no dates', 'SP30', null, null, null],
    ['invalid dates', 'DR10', 'nonsense', '', null],
  ])('%s', (_name, code, offence, conviction, expected) => {
    expect(
      endorsementEndDate({
        offence_code: code,
        offence_date: offence,
        conviction_date: conviction,
      }),
    ).toBe(expected);
  });
});
