import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AddressPeriod,
  addressGaps,
  addressHistoryStart,
  isAddressHistoryComplete,
} from './address-history.js';

const today = '2024-06-15';
const span = (from: string, to: string) => ({
  from_date: from,
  to_date: to,
  message: 'Missing address information',
});

describe('addressGaps', () => {
  it('starts the window 60 months back', () => {
    expect(addressHistoryStart(today)).toBe('2019-06-15');
    expect(addressHistoryStart(new Date(Date.UTC(2024, 1, 29)))).toBe('2019-02-28');
  });

  it.each<[string, AddressPeriod[], ReturnType<typeof span>[]]>([
    ['no addresses: the whole window', [], [span('2019-06-15', '2024-06-15')]],
    ['one current address from long ago', [{ from_date: '2010-01-01', current: true }], []],
    ['no end date counts as current', [{ from_date: '2019-06-15', to_date: null }], []],
    [
      'current address too recent',
      [{ from_date: '2022-01-01', current: true }],
      [span('2019-06-15', '2021-12-31')],
    ],
    [
      'a hole between two addresses',
      [
        { from_date: '2015-01-01', to_date: '2020-03-31' },
        { from_date: '2020-05-01', current: true },
      ],
      [span('2020-04-01', '2020-04-30')],
    ],
    [
      'move-out and move-in on the same day leave no gap',
      [
        { from_date: '2015-01-01', to_date: '2020-03-31' },
        { from_date: '2020-03-31', current: true },
      ],
      [],
    ],
    [
      'history ends before today',
      [{ from_date: '2015-01-01', to_date: '2024-06-01' }],
      [span('2024-06-02', '2024-06-15')],
    ],
    [
      'overlapping and unordered addresses',
      [
        { from_date: '2021-01-01', to_date: '2023-01-01' },
        { from_date: '2018-01-01', to_date: '2021-06-01' },
        { from_date: '2023-06-01', current: true },
      ],
      [span('2023-01-02', '2023-05-31')],
    ],
    [
      'invalid and empty addresses are ignored',
      [
        { from_date: null, current: true },
        { from_date: '2020-01-01', to_date: '2019-01-01' },
        { from_date: 'bad', to_date: '2020-01-01' },
      ],
      [span('2019-06-15', '2024-06-15')],
    ],
  ])('%s', (_name, addresses, expected) => {
    expect(addressGaps(addresses, today)).toEqual(expected);
  });

  it('reports completeness', () => {
    expect(isAddressHistoryComplete([{ from_date: '2000-01-01', current: true }], today)).toBe(
      true,
    );
    expect(isAddressHistoryComplete([], today)).toBe(false);
  });

  it('gaps plus addresses always cover the 60 months exactly', () => {
    const DAY = 86_400_000;
    const start = Date.parse('2019-06-15T00:00:00Z') / DAY;
    const end = Date.parse('2024-06-15T00:00:00Z') / DAY;
    const iso = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);
    const num = (s: string) => Date.parse(`${s}T00:00:00Z`) / DAY;
    const addressArb = fc
      .tuple(
        fc.integer({ min: start - 400, max: end + 30 }),
        fc.integer({ min: 0, max: 900 }),
        fc.boolean(),
      )
      .map(([from, length, current]) => ({
        from_date: iso(from),
        to_date: current ? null : iso(from + length),
        current,
      }));
    fc.assert(
      fc.property(fc.array(addressArb, { maxLength: 6 }), (addresses) => {
        const gaps = addressGaps(addresses, '2024-06-15');
        const covered = (d: number) =>
          addresses.some(
            (a) =>
              num(a.from_date) <= d && (a.current || a.to_date === null || d <= num(a.to_date)),
          );
        const inGap = (d: number) =>
          gaps.filter((g) => num(g.from_date) <= d && d <= num(g.to_date)).length;
        for (let d = start; d <= end; d++) {
          expect(inGap(d) + (covered(d) ? 1 : 0)).toBe(1);
        }
        for (const g of gaps) {
          expect(num(g.from_date)).toBeGreaterThanOrEqual(start);
          expect(num(g.to_date)).toBeLessThanOrEqual(end);
        }
      }),
      { numRuns: 60 },
    );
  });
});
