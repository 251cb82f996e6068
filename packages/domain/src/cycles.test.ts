import { describe, expect, it } from 'vitest';
import {
  addCyclePeriod,
  cycleTexts,
  nextDueAfter,
  SUBSCRIPTION_STATE_LABELS,
  subscriptionTransition,
} from './cycles.js';

const d = (s: string) => new Date(s);

describe('addCyclePeriod', () => {
  it('adds weeks, calendar months (clamped to the month end) and years', () => {
    expect(addCyclePeriod(d('2026-01-01T09:00:00Z'), 2, 'weekly').toISOString()).toBe(
      '2026-01-15T09:00:00.000Z',
    );
    expect(addCyclePeriod(d('2026-01-31T09:00:00Z'), 1, 'monthly').toISOString()).toBe(
      '2026-02-28T09:00:00.000Z',
    );
    expect(addCyclePeriod(d('2026-03-01T00:00:00Z'), 6, 'monthly').toISOString()).toBe(
      '2026-09-01T00:00:00.000Z',
    );
    expect(addCyclePeriod(d('2024-02-29T00:00:00Z'), 1, 'yearly').toISOString()).toBe(
      '2025-02-28T00:00:00.000Z',
    );
  });
});

describe('nextDueAfter', () => {
  it('is the start while it is ahead', () => {
    const start = d('2026-06-01T00:00:00Z');
    expect(nextDueAfter(start, d('2026-05-01T00:00:00Z'), 6, 'monthly')).toEqual(start);
  });
  it('counts whole periods from the start, past now', () => {
    const start = d('2026-01-31T00:00:00Z');
    expect(nextDueAfter(start, d('2026-01-31T00:00:00Z'), 1, 'monthly').toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    // from the start, not from February's clamped day
    expect(nextDueAfter(start, d('2026-03-01T00:00:00Z'), 1, 'monthly').toISOString()).toBe(
      '2026-03-31T00:00:00.000Z',
    );
    expect(nextDueAfter(start, d('2027-12-01T00:00:00Z'), 1, 'yearly').toISOString()).toBe(
      '2028-01-31T00:00:00.000Z',
    );
  });
});

describe('subscriptionTransition', () => {
  it.each([
    ['active', 'pause', 'paused'],
    ['paused', 'pause', null],
    ['ended', 'pause', null],
    ['paused', 'resume', 'active'],
    ['active', 'resume', null],
    ['ended', 'resume', null],
    ['active', 'end', 'ended'],
    ['paused', 'end', 'ended'],
    ['ended', 'end', null],
  ] as const)('%s + %s → %s', (state, action, to) => {
    expect(subscriptionTransition(state, action)).toBe(to);
  });
  it('labels every state', () => {
    expect(SUBSCRIPTION_STATE_LABELS).toEqual({
      active: 'Active',
      paused: 'Paused',
      ended: 'Ended',
    });
  });
});

describe('cycleTexts', () => {
  it('shows both periods as spec point 9 says', () => {
    expect(
      cycleTexts({
        repeat_interval: 6,
        repeat_unit: 'monthly',
        billing_interval: 1,
        billing_triggered: 'yearly',
      }),
    ).toEqual({ repeat_text: 'Every 6 months', billing_text: 'Every year' });
  });
});
