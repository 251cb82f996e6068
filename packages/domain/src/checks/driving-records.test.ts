import { describe, expect, it } from 'vitest';
import { driverDataResultDataSchema } from './driver-data.js';
import { currentPoints, endorsementRow, withRemovalDates } from './driving-records.js';
import {
  licenceChanges,
  licenceCheckResultDataSchema,
  licenceRisk,
  nextCheckDate,
} from './licence-check.js';

describe('driving records', () => {
  const record = withRemovalDates([
    {
      offence_code: 'SP30',
      offence_date: '2024-03-01',
      conviction_date: '2024-05-01',
      penalty_points: 3,
    },
    {
      offence_code: 'DR10',
      offence_date: '2020-01-10',
      conviction_date: '2020-02-20',
      penalty_points: 6,
    },
    { offence_code: 'ZZ99', offence_date: '2023-07-07', conviction_date: null, penalty_points: 2 },
    { offence_code: 'CU80', offence_date: null, conviction_date: null, penalty_points: 3 },
  ]);

  it('computes each removal date by the endorsement rules', () => {
    expect(record.map((e) => e.removal_date)).toEqual([
      '2028-03-01', // 4 years from the offence
      '2031-02-20', // drink driving: 11 years from the conviction
      '2027-07-07', // unknown code: 4 years from the offence
      null, // neither date
    ]);
  });

  it('lists an unknown code as Unrecognised code with dashes', () => {
    const [sp30, dr10, zz99] = record;
    if (!sp30 || !dr10 || !zz99) throw new Error('four endorsements');
    expect(endorsementRow(zz99)).toEqual({
      code: 'ZZ99',
      description: 'Unrecognised code',
      tablePoints: '—',
      period: '—',
    });
    expect(endorsementRow(sp30)).toMatchObject({ code: 'SP30', period: '4 years' });
  });

  it('counts the points still on the record', () => {
    expect(currentPoints(record, '2026-11-27')).toBe(14);
    expect(currentPoints(record, '2028-06-01')).toBe(9);
  });

  it('rates the risk and sets the next check by it', () => {
    const today = '2026-11-27';
    expect(licenceRisk({ licenceStatus: 'Valid', endorsements: [], today })).toBe('low');
    expect(licenceRisk({ licenceStatus: 'Valid', endorsements: record.slice(0, 1), today })).toBe(
      'low',
    );
    expect(
      licenceRisk({
        licenceStatus: 'Valid',
        endorsements: [record[0], record[2]].flatMap((e) => (e ? [e] : [])),
        today,
      }),
    ).toBe('medium');
    expect(licenceRisk({ licenceStatus: 'Valid', endorsements: record, today })).toBe('high');
    expect(licenceRisk({ licenceStatus: 'Disqualified', endorsements: [], today })).toBe('high');
    expect(nextCheckDate('2026-01-31', 'low')).toBe('2027-01-31');
    expect(nextCheckDate('2026-01-31', 'medium')).toBe('2026-07-31');
    expect(nextCheckDate('2026-01-31', 'high')).toBe('2026-04-30');
  });

  it('words what a re-check found changed', () => {
    const before = { licence: { status: 'Valid', points: 3 }, endorsements: record.slice(0, 1) };
    expect(licenceChanges(before, before)).toEqual([]);
    expect(
      licenceChanges(before, {
        licence: { status: 'Disqualified', points: 9 },
        endorsements: record.slice(0, 2),
      }),
    ).toEqual([
      'Licence status changed from Valid to Disqualified',
      'New endorsement DR10 2020-01-10',
      'Penalty points changed from 3 to 9',
    ]);
  });

  it('reads empty result data as a result with nothing in it', () => {
    expect(driverDataResultDataSchema.parse({})).toEqual({});
    expect(licenceCheckResultDataSchema.parse({})).toEqual({});
    expect(driverDataResultDataSchema.safeParse({ enquiry_code: 'ENQ999' }).success).toBe(false);
    expect(licenceCheckResultDataSchema.safeParse({ status: 'Whatever' }).success).toBe(false);
  });
});
