import { addMonths } from 'date-fns/addMonths';
import { addWeeks } from 'date-fns/addWeeks';
import { addYears } from 'date-fns/addYears';
import { type BillingTrigger, billingCycleText } from './formatting.js';

/**
 * Subscription cycles (issue 31): a cycle on a process repeats some of its checks (e.g.
 * `dbs-update` every 6 months) and bills the customer on a billing cycle (interval and
 * triggered: weekly, monthly or yearly; spec point 3 'Pricing'). Both periods are an interval
 * of a unit, shown as spec point 9 says (`billingCycleText`: 'Every 6 months', 'Every year').
 */
export const CYCLE_INTERVAL_MAX = 120;

/** The states of a subscription: active (comes due), paused (does not), ended (for good). */
export const SUBSCRIPTION_STATES = ['active', 'paused', 'ended'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
export const SUBSCRIPTION_STATE_LABELS: Record<SubscriptionState, string> = {
  active: 'Active',
  paused: 'Paused',
  ended: 'Ended',
};

/**
 * `from` moved on by `interval` weeks, months or years (calendar months: 31 Jan + 1 month is the
 * last day of February).
 */
export function addCyclePeriod(from: Date, interval: number, unit: BillingTrigger): Date {
  if (unit === 'weekly') return addWeeks(from, interval);
  if (unit === 'monthly') return addMonths(from, interval);
  return addYears(from, interval);
}

/**
 * The first due date after `now` of a schedule that started at `start` (whole periods from the
 * start, so a schedule paused or behind does not drift): `start` itself when still ahead.
 */
export function nextDueAfter(start: Date, now: Date, interval: number, unit: BillingTrigger): Date {
  let n = 0;
  let due = start;
  while (due.getTime() <= now.getTime()) {
    n += 1;
    due = addCyclePeriod(start, interval * n, unit);
  }
  return due;
}

/** What a subscription's state may become by an action, or null when it may not. */
export function subscriptionTransition(
  state: SubscriptionState,
  action: 'pause' | 'resume' | 'end',
): SubscriptionState | null {
  if (action === 'pause') return state === 'active' ? 'paused' : null;
  if (action === 'resume') return state === 'paused' ? 'active' : null;
  return state === 'ended' ? null : 'ended';
}

/** A cycle's two periods as the screens show them. */
export function cycleTexts(c: {
  repeat_interval: number;
  repeat_unit: BillingTrigger;
  billing_interval: number;
  billing_triggered: BillingTrigger;
}): { repeat_text: string; billing_text: string } {
  return {
    repeat_text: billingCycleText(c.repeat_interval, c.repeat_unit),
    billing_text: billingCycleText(c.billing_interval, c.billing_triggered),
  };
}
