import { describe, expect, it } from 'vitest';
import { CYCLE_IN_USE, cycleCreate, cycleUpdate } from './cycles.js';
import {
  SUBSCRIPTION_MESSAGES,
  subscriptionBulkCreate,
  subscriptionCreate,
} from './subscriptions.js';

const cycle = {
  name: ' Update service ',
  requirements: ['dbs-update'],
  repeat_interval: 6,
  repeat_unit: 'monthly',
  billing_interval: 1,
  billing_triggered: 'yearly',
};

describe('cycle contracts', () => {
  it('trims the name and makes it active by default', () => {
    expect(cycleCreate.parse(cycle)).toEqual({ ...cycle, name: 'Update service', is_active: true });
  });
  it('refuses a repeated requirement, none, a zero interval and an unknown unit', () => {
    const issues = (v: unknown) =>
      cycleCreate.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ ...cycle, requirements: ['dbs-update', 'dbs-update'] })).toEqual([
      ['requirements', 'Each requirement may be chosen once.'],
    ]);
    expect(issues({ ...cycle, requirements: [] })).toEqual([
      ['requirements', 'Choose at least one requirement.'],
    ]);
    expect(issues({ ...cycle, repeat_interval: 0, billing_triggered: 'daily' })).toEqual([
      ['repeat_interval', 'Ensure this value is greater than or equal to 1.'],
      ['billing_triggered', 'Choose weekly, monthly or yearly.'],
    ]);
    expect(cycleUpdate.partial().parse({ is_active: false })).toEqual({ is_active: false });
    expect(CYCLE_IN_USE).toMatch(/active subscriptions/);
  });
});

describe('subscription contracts', () => {
  it('takes a cycle and an optional first due date', () => {
    expect(subscriptionCreate.parse({ cycle: 3 })).toEqual({ cycle: 3 });
    expect(subscriptionCreate.safeParse({ cycle: 3, starts_at: 'soon' }).success).toBe(false);
    expect(
      subscriptionCreate.parse({ cycle: 3, starts_at: '2026-12-01T09:00:00Z' }).starts_at,
    ).toBe('2026-12-01T09:00:00Z');
  });
  it('subscribes at least one subject in bulk', () => {
    expect(
      subscriptionBulkCreate.safeParse({ cycle: 1, subjects: [] }).error?.issues[0]?.message,
    ).toBe('Choose at least one subject.');
    expect(subscriptionBulkCreate.parse({ cycle: 1, subjects: [4, 5] })).toEqual({
      cycle: 1,
      subjects: [4, 5],
    });
  });
  it('says which action a state refuses', () => {
    expect(SUBSCRIPTION_MESSAGES.notAllowed('resume', 'ended')).toBe(
      'A subscription that is ended cannot resume.',
    );
  });
});
