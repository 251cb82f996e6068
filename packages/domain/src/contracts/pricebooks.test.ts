import { describe, expect, it } from 'vitest';
import { parsePounds, penceToPounds } from '../formatting.js';
import {
  PRICE_NOT_SET,
  PRICEBOOK_DATES_ORDER,
  PRICEBOOK_DUPLICATE_PRICE,
  PRICEBOOK_LEVEL_INVALID,
  pricebookActiveOn,
  pricebookCreate,
  pricebookRangesOverlap,
  pricebookTopUp,
  pricebookUpdate,
  priceLevelsOf,
  pricePresent,
  quoteOf,
} from './pricebooks.js';

describe('money typed in', () => {
  it('reads pounds as pence', () => {
    expect(parsePounds('12.50')).toBe(1250);
    expect(parsePounds(' £12.5 ')).toBe(1250);
    expect(parsePounds('12')).toBe(1200);
    expect(parsePounds('1,200.05')).toBe(120005);
    expect(parsePounds('0.07')).toBe(7);
  });
  it('refuses what is not pounds', () => {
    for (const t of ['', 'abc', '-1', '12.505', '1,20', '£', '12.'])
      expect(parsePounds(t)).toBeNull();
  });
  it('shows pence for an input', () => {
    expect(penceToPounds(1250)).toBe('12.50');
    expect(penceToPounds(7)).toBe('0.07');
  });
});

describe('pricebook input', () => {
  const base = { name: 'Standard 2026', valid_from: '2026-01-01' };
  it('takes prices per kind and level, the end open by default', () => {
    const v = pricebookCreate.parse({
      ...base,
      prices: [
        { activity_type: 'dbs-basic', level: 'online', amount_pence: 2100 },
        { activity_type: 'rtw', amount_pence: 500 },
      ],
    });
    expect(v.valid_to).toBeNull();
    expect(v.prices[1]).toEqual({ activity_type: 'rtw', level: null, amount_pence: 500 });
  });
  it('refuses an end before the start, a level a kind lacks, a price twice, negative pence', () => {
    const r = pricebookCreate.safeParse({
      ...base,
      valid_to: '2025-12-31',
      prices: [
        { activity_type: 'rtw', level: 'online', amount_pence: 1 },
        { activity_type: 'dbs-basic', level: 'online', amount_pence: 1 },
        { activity_type: 'dbs-basic', level: 'online', amount_pence: 2 },
      ],
    });
    expect(r.success).toBe(false);
    const messages = r.error?.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        PRICEBOOK_DATES_ORDER,
        PRICEBOOK_LEVEL_INVALID,
        PRICEBOOK_DUPLICATE_PRICE,
      ]),
    );
    expect(
      pricebookCreate.safeParse({ ...base, prices: [{ activity_type: 'rtw', amount_pence: -1 }] })
        .success,
    ).toBe(false);
    expect(
      pricebookCreate.safeParse({ ...base, prices: [{ activity_type: 'rtw', amount_pence: 1.5 }] })
        .success,
    ).toBe(false);
  });
  it('updates in part', () => {
    expect(pricebookUpdate.parse({ name: 'New' })).toEqual({ name: 'New' });
    expect(
      pricebookUpdate.safeParse({ valid_from: '2026-02-01', valid_to: '2026-01-01' }).success,
    ).toBe(false);
  });
  it('prices the DBS kinds per level, the others once', () => {
    expect(priceLevelsOf('dbs-enhanced')).toEqual(['online', 'paper-certificate']);
    expect(priceLevelsOf('rtw')).toEqual([null]);
  });
});

describe('validity', () => {
  it('is active on the days of its range, both ends included', () => {
    const r = { valid_from: '2026-01-01', valid_to: '2026-01-31' };
    expect(pricebookActiveOn(r, '2026-01-01')).toBe(true);
    expect(pricebookActiveOn(r, '2026-01-31')).toBe(true);
    expect(pricebookActiveOn(r, '2026-02-01')).toBe(false);
    expect(pricebookActiveOn(r, '2025-12-31')).toBe(false);
    expect(pricebookActiveOn({ valid_from: '2026-01-01', valid_to: null }, '2099-01-01')).toBe(
      true,
    );
  });
  it('overlaps when the ranges share a day', () => {
    const jan = { valid_from: '2026-01-01', valid_to: '2026-01-31' };
    expect(pricebookRangesOverlap(jan, { valid_from: '2026-01-31', valid_to: null })).toBe(true);
    expect(pricebookRangesOverlap(jan, { valid_from: '2026-02-01', valid_to: null })).toBe(false);
    expect(pricebookRangesOverlap({ valid_from: '2026-02-01', valid_to: null }, jan)).toBe(false);
    expect(
      pricebookRangesOverlap(
        { valid_from: '2025-01-01', valid_to: null },
        { valid_from: '2027-01-01', valid_to: null },
      ),
    ).toBe(true);
  });
});

describe('prices the checks read', () => {
  const prices = [
    { activity_type: 'dbs-basic', level: 'online' as const, amount_pence: 2000 },
    { activity_type: 'dbs-basic', level: 'paper-certificate' as const, amount_pence: 2600 },
    { activity_type: 'dbs-standard', level: 'online' as const, amount_pence: 3000 },
    { activity_type: 'rtw', level: null, amount_pence: 450 },
  ];
  it('a top-up is the paper level above the online one', () => {
    expect(pricebookTopUp('dbs-basic', { paper_cert: true }, prices)).toEqual({
      amount_pence: 600,
      reason: 'Paper certificate by post',
    });
    expect(pricebookTopUp('dbs-basic', { paper_cert: false }, prices)).toBeNull();
    const cheaper = [
      { activity_type: 'dbs-basic', level: 'online' as const, amount_pence: 2000 },
      { activity_type: 'dbs-basic', level: 'paper-certificate' as const, amount_pence: 2000 },
    ];
    expect(pricebookTopUp('dbs-basic', { paper_cert: true }, cheaper)).toBeNull();
  });
  it('falls back to the default price list without a pricebook or both levels', () => {
    expect(pricebookTopUp('dbs-basic', { paper_cert: true }, null)?.amount_pence).toBe(350);
    expect(pricebookTopUp('dbs-standard', { paper_cert: true }, prices)?.amount_pence).toBe(350);
    expect(pricebookTopUp('rtw', {}, prices)).toBeNull();
  });
  it('quotes a case: a line per check, the total of the priced', () => {
    const q = quoteOf(7, 3, prices, [
      { code: 'dbs-basic', name: 'Basic DBS check', config: { paper_cert: true } },
      { code: 'rtw', name: 'Right to work', config: {} },
      { code: 'adult-first', name: 'Adult First', config: {} },
    ]);
    expect(q.total_pence).toBe(3050);
    expect(q.total_display).toBe('£30.50');
    expect(q.incomplete).toBe(true);
    expect(q.lines.map((l) => [l.level, l.amount_display])).toEqual([
      ['paper-certificate', '£26.00'],
      [null, '£4.50'],
      [null, PRICE_NOT_SET],
    ]);
    expect(pricePresent({ activity_type: 'rtw', level: null, amount_pence: 450 })).toMatchObject({
      amount_display: '£4.50',
    });
  });
});
