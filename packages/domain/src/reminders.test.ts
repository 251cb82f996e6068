import { describe, expect, it } from 'vitest';
import {
  describeReminderSchedule,
  invitationExpiresAt,
  isReminderTooSoon,
  mobileNumber,
  nextReminderAt,
  REMINDER_QUIET_HOURS,
  reminderScheduleSchema,
  scheduledReminderAt,
} from './reminders.js';

const H = 60 * 60 * 1000;
const D = 24 * H;
const t0 = new Date('2026-03-02T09:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const schedule = { daily_days: 3, then_every_days: 7, max_reminders: 5 };

describe('scheduledReminderAt', () => {
  it.each([
    [1, 1 * D],
    [2, 2 * D],
    [3, 3 * D],
    [4, 10 * D],
    [5, 17 * D],
  ])('reminder %i falls %i ms after the invitation', (n, ms) => {
    expect(scheduledReminderAt(t0, schedule, n)).toEqual(at(ms));
  });
  it('none past the limit or before the first', () => {
    expect(scheduledReminderAt(t0, schedule, 6)).toBeNull();
    expect(scheduledReminderAt(t0, schedule, 0)).toBeNull();
  });
  it('weekly from the start without daily days', () => {
    const weekly = { daily_days: 0, then_every_days: 7, max_reminders: 3 };
    expect(scheduledReminderAt(t0, weekly, 1)).toEqual(at(7 * D));
    expect(scheduledReminderAt(t0, weekly, 3)).toEqual(at(21 * D));
  });
});

describe('nextReminderAt', () => {
  const base = {
    invitedAt: t0,
    lastActivityAt: null,
    lastReminderAt: null,
    remindersSent: 0,
    schedule,
  };
  it('follows the cadence when the subject is quiet', () => {
    expect(nextReminderAt(base)).toEqual(at(D));
    expect(nextReminderAt({ ...base, remindersSent: 3, lastReminderAt: at(3 * D) })).toEqual(
      at(10 * D),
    );
  });
  it('waits 24 hours after the subject last acted in the portal', () => {
    expect(nextReminderAt({ ...base, lastActivityAt: at(20 * H) })).toEqual(at(44 * H));
    expect(REMINDER_QUIET_HOURS).toBe(24);
  });
  it('never within 24 hours of the last reminder, a manual one included', () => {
    expect(nextReminderAt({ ...base, lastReminderAt: at(23 * H) })).toEqual(at(47 * H));
  });
  it('none without a schedule or past the limit', () => {
    expect(nextReminderAt({ ...base, schedule: null })).toBeNull();
    expect(nextReminderAt({ ...base, remindersSent: 5 })).toBeNull();
  });
});

describe('the 24-hour rule and expiry', () => {
  it('a reminder is too soon within 24 hours of the last', () => {
    expect(isReminderTooSoon(null, t0)).toBe(false);
    expect(isReminderTooSoon(at(-23 * H), t0)).toBe(true);
    expect(isReminderTooSoon(at(-24 * H), t0)).toBe(false);
  });
  it('an invitation expires after its days, or never with 0', () => {
    expect(invitationExpiresAt(t0, 14)).toEqual(at(14 * D));
    expect(invitationExpiresAt(t0, 0)).toBeNull();
  });
});

describe('reminderScheduleSchema', () => {
  it('bounds every field', () => {
    expect(reminderScheduleSchema.safeParse(schedule).success).toBe(true);
    expect(reminderScheduleSchema.safeParse({ ...schedule, max_reminders: 0 }).success).toBe(false);
    expect(reminderScheduleSchema.safeParse({ ...schedule, then_every_days: 0 }).success).toBe(
      false,
    );
    expect(reminderScheduleSchema.safeParse({ ...schedule, extra: 1 }).success).toBe(false);
  });
  it('reads in words', () => {
    expect(describeReminderSchedule(schedule)).toBe(
      'Daily for 3 days, then every 7 days, at most 5 reminders',
    );
    expect(describeReminderSchedule(null)).toBe('No automatic reminders');
  });
});

describe('mobileNumber', () => {
  it.each([
    ['07911 123456', '+447911123456'],
    ['+44 7911 123456', '+447911123456'],
    ['020 7946 0000', null],
    ['not a number', null],
    ['', null],
    [null, null],
    ['+33 6 12 34 56 78', '+33612345678'],
  ])('%s → %s', (raw, want) => {
    expect(mobileNumber(raw)).toBe(want);
  });
});
