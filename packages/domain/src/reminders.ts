import { z } from 'zod';
import { normalisePhone } from './phone.js';
import { LIMITS } from './session.js';

/**
 * The invitation lifecycle's rules (issue 33): a process's reminder cadence (daily for the first
 * days, then every few days, up to a limit), the 24-hour quiet rule (spec point 9: the case
 * reminder email threshold) and the invitation's expiry. Pure: the server's job and the manual
 * 'Send reminder' ask these, the web's process form edits the schedule.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Hours a subject must have been quiet in the portal, and between two reminders (point 9). */
export const REMINDER_QUIET_HOURS = LIMITS.caseReminderEmailThreshold;
export const REMINDER_QUIET_MS = REMINDER_QUIET_HOURS * HOUR_MS;

/** The manual reminder's refusal within the quiet window. */
export const REMINDER_TOO_SOON = `A reminder was sent less than ${REMINDER_QUIET_HOURS} hours ago. Try again later.`;

/** The manual reminder's refusal for a subject who turned the product's messages off. */
export const REMINDER_MESSAGES_OFF =
  'This person has turned off emails about their checks, so no reminder was sent.';

/** The resend's refusal when the case has no expired invitation. */
export const INVITATION_NOT_EXPIRED = 'The invitation has not expired.';

export const REMINDER_LIMIT_MAX = 30;

/** A process's automatic reminder cadence. */
export const reminderScheduleSchema = z.strictObject({
  /** One reminder a day for this many days after the invitation (0: none daily). */
  daily_days: z.number().int().min(0).max(14),
  /** Then one every this many days. */
  then_every_days: z.number().int().min(1).max(60),
  /** At most this many automatic reminders per invitation. */
  max_reminders: z.number().int().min(1).max(REMINDER_LIMIT_MAX),
});
export type ReminderSchedule = z.infer<typeof reminderScheduleSchema>;

/** A new process's cadence when it asks for one: daily for a week, then weekly, up to 10. */
export const DEFAULT_REMINDER_SCHEDULE: ReminderSchedule = {
  daily_days: 7,
  then_every_days: 7,
  max_reminders: 10,
};

/** Days an invitation stays valid (0: it never expires). */
export const invitationExpiryDaysSchema = z.number().int().min(0).max(365);

/**
 * When reminder number `n` (1-based) falls due by the cadence alone: `n` days after the
 * invitation while within the daily days, then every `then_every_days` after the last daily one;
 * null past the limit.
 */
export function scheduledReminderAt(
  invitedAt: Date,
  schedule: ReminderSchedule,
  n: number,
): Date | null {
  if (n < 1 || n > schedule.max_reminders) return null;
  const days =
    n <= schedule.daily_days
      ? n
      : schedule.daily_days + (n - schedule.daily_days) * schedule.then_every_days;
  return new Date(invitedAt.getTime() + days * DAY_MS);
}

export interface ReminderFacts {
  /** When the invitation (or its last resend) went. */
  invitedAt: Date;
  /** The subject's last action in the portal, if any. */
  lastActivityAt: Date | null;
  /** The last reminder of any kind (automatic or manual). */
  lastReminderAt: Date | null;
  /** Automatic reminders already sent for this invitation. */
  remindersSent: number;
  schedule: ReminderSchedule | null;
}

/**
 * When the next automatic reminder may go: its cadence's time, but never within 24 hours of the
 * subject's last action in the portal nor of the last reminder (manual ones included). Null when
 * the process sends none or the limit is reached.
 */
export function nextReminderAt(f: ReminderFacts): Date | null {
  if (!f.schedule) return null;
  const due = scheduledReminderAt(f.invitedAt, f.schedule, f.remindersSent + 1);
  if (!due) return null;
  const floors = [due.getTime()];
  if (f.lastActivityAt) floors.push(f.lastActivityAt.getTime() + REMINDER_QUIET_MS);
  if (f.lastReminderAt) floors.push(f.lastReminderAt.getTime() + REMINDER_QUIET_MS);
  return new Date(Math.max(...floors));
}

/** True when a reminder at `now` would come within 24 hours of the last one. */
export function isReminderTooSoon(lastReminderAt: Date | null, now: Date): boolean {
  return lastReminderAt !== null && now.getTime() - lastReminderAt.getTime() < REMINDER_QUIET_MS;
}

/** When an invitation sent at `invitedAt` expires (null: never). */
export function invitationExpiresAt(invitedAt: Date, expiryDays: number): Date | null {
  return expiryDays > 0 ? new Date(invitedAt.getTime() + expiryDays * DAY_MS) : null;
}

/** The cadence in words, for the process screens. */
export function describeReminderSchedule(s: ReminderSchedule | null): string {
  if (!s) return 'No automatic reminders';
  const daily =
    s.daily_days > 0
      ? `Daily for ${s.daily_days} day${s.daily_days === 1 ? '' : 's'}, then every`
      : 'Every';
  const every = s.then_every_days === 1 ? 'day' : `${s.then_every_days} days`;
  return `${daily} ${every}, at most ${s.max_reminders} reminder${s.max_reminders === 1 ? '' : 's'}`;
}

/**
 * The number a reminder text goes to: the stored number in E.164 when it is a mobile one (a UK
 * number must be an 07 mobile; other countries' valid numbers are taken as given), else null.
 */
export function mobileNumber(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const e164 = normalisePhone(raw);
  if (!e164) return null;
  if (e164.startsWith('+44') && !e164.startsWith('+447')) return null;
  return e164;
}

/** GET /api/cases/{id}/invitation/: the case's invitation, its reminders and expiry. */
export const invitationStatusOut = z.strictObject({
  invited_at: z.string(),
  /** How many times the customer resent it. */
  resends: z.number(),
  expires_at: z.string().nullable(),
  expired_at: z.string().nullable(),
  is_expired: z.boolean(),
  /** Automatic reminders of the current invitation. */
  reminders_sent: z.number(),
  last_reminder_at: z.string().nullable(),
  /** When the next automatic one may go (null: none planned). */
  next_reminder_at: z.string().nullable(),
});
export type InvitationStatusOut = z.infer<typeof invitationStatusOut>;
