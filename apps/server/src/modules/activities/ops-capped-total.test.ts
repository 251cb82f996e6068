import { describe, expect, it } from 'vitest';
import { CappedTotals } from './ops-capped-total.js';

describe('CappedTotals (the ops list: a total at the cap, remembered briefly)', () => {
  it('remembers a total at the cap for its time, then counts again', () => {
    const totals = new CappedTotals(2_000);
    const key = CappedTotals.keyOf({ assignee: 'unassigned' }, 7);
    expect(totals.atCap(key, 0)).toBe(false);
    totals.found(key, true, 1_000);
    expect(totals.atCap(key, 1_000)).toBe(true);
    expect(totals.atCap(key, 3_000)).toBe(true);
    expect(totals.atCap(key, 3_001)).toBe(false);
    // expired: forgotten, not revived
    expect(totals.atCap(key, 1_500)).toBe(false);
  });

  it('never remembers a total under the cap, and a count under it forgets the cap', () => {
    const totals = new CappedTotals(2_000);
    const key = CappedTotals.keyOf({}, 7);
    totals.found(key, false, 0);
    expect(totals.atCap(key, 1)).toBe(false);
    totals.found(key, true, 0);
    totals.found(key, false, 10);
    expect(totals.atCap(key, 11)).toBe(false);
  });

  it('keys by filters and viewer, not by page, size or ordering', () => {
    const a = CappedTotals.keyOf({ page: '2', page_size: '25', ordering: '-updated_at' }, 7);
    expect(a).toBe(CappedTotals.keyOf({}, 7));
    expect(CappedTotals.keyOf({ customer: '3', assignee: 'me' }, 7)).toBe(
      CappedTotals.keyOf({ assignee: 'me', customer: '3' }, 7),
    );
    // `assignee=me` is someone else's list for another viewer
    expect(CappedTotals.keyOf({ assignee: 'me' }, 7)).not.toBe(
      CappedTotals.keyOf({ assignee: 'me' }, 8),
    );
    expect(CappedTotals.keyOf({ customer: '3' }, 7)).not.toBe(
      CappedTotals.keyOf({ customer: '4' }, 7),
    );
    expect(CappedTotals.keyOf(null, null)).toBe(CappedTotals.keyOf(undefined, null));
  });
});
