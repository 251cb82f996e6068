import { z } from 'zod';
import { formatDate } from '../formatting.js';
import { MESSAGES } from '../messages.js';

/*
 * Trust-to-ride (spec point 2, Trust-to-ride panel; ops route /ops/trust-2-ride): operations
 * run sessions (a date, a time, a place and a number of places) for a customer's subjects; a
 * subject books a place (or operations book one for them), and operations record whether they
 * attended. The panel says 'Attended the session on {date}' or 'Did not attend the session on
 * {date}'.
 */

export const TRUST_TO_RIDE_ATTENDANCE = ['attended', 'did-not-attend'] as const;
export type TrustToRideAttendance = (typeof TRUST_TO_RIDE_ATTENDANCE)[number];
export const TRUST_TO_RIDE_ATTENDANCE_LABELS: Record<TrustToRideAttendance, string> = {
  attended: 'Attended',
  'did-not-attend': 'Did not attend',
};

export const TRUST_TO_RIDE_MESSAGES = {
  full: 'This session is full.',
  past: 'This session has already taken place.',
  alreadyBooked: 'A place is already booked for this trust-to-ride.',
  notBookable: 'This trust-to-ride activity cannot be booked.',
  notBooked: 'No place is booked on this session for that activity.',
  notYet: 'Attendance can be recorded once the session has started.',
  recorded: 'Attendance has already been recorded.',
  capacityBelowBooked: 'The capacity cannot be below the places already booked.',
  otherCustomer: 'The session and the activity belong to different customers.',
  noSession: 'No session booked yet',
  invalidTime: 'Invalid time',
} as const;

/** The session an activity is booked on, as its result keeps it. */
export const trustToRideSessionRefSchema = z.strictObject({
  id: z.number().int(),
  date: z.string().max(10),
  time: z.string().max(5),
  place: z.string().max(200),
});

/** The trust-to-ride activity's result_data. */
export const trustToRideResultDataSchema = z.strictObject({
  session: trustToRideSessionRefSchema.nullish(),
  booked_at: z.string().max(40).nullish(),
  attendance: z.enum(TRUST_TO_RIDE_ATTENDANCE).nullish(),
  recorded_at: z.string().max(40).nullish(),
});
export type TrustToRideResultData = z.infer<typeof trustToRideResultDataSchema>;

/** The panel's words: attended, did not attend (on the session's date), booked, or nothing yet. */
export function trustToRideOutcome(d: TrustToRideResultData): string {
  const s = d.session;
  if (!s) return TRUST_TO_RIDE_MESSAGES.noSession;
  const day = formatDate(s.date);
  if (d.attendance === 'attended') return `Attended the session on ${day}`;
  if (d.attendance === 'did-not-attend') return `Did not attend the session on ${day}`;
  return `Booked on the session on ${day} at ${s.time}, ${s.place}`;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** POST/PUT /api/ops/trust-to-ride/sessions/: a session's date, time, place and capacity. */
export const trustToRideSessionIn = z.object({
  customer: z.number({ error: MESSAGES.required }).int().positive(),
  date: z.string({ error: MESSAGES.required }).regex(DATE, MESSAGES.invalidFormat),
  time: z.string({ error: MESSAGES.required }).regex(TIME, TRUST_TO_RIDE_MESSAGES.invalidTime),
  place: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(200, 'Max 200 characters'),
  capacity: z
    .number({ error: MESSAGES.required })
    .int()
    .min(1, 'At least 1 place')
    .max(500, 'At most 500 places'),
});
export type TrustToRideSessionIn = z.infer<typeof trustToRideSessionIn>;
/** PUT: the customer of a session does not change. */
export const trustToRideSessionUpdate = trustToRideSessionIn.omit({ customer: true });
export type TrustToRideSessionUpdate = z.infer<typeof trustToRideSessionUpdate>;

export const trustToRideSessionOut = z.strictObject({
  id: z.number(),
  customer: z.strictObject({ id: z.number(), name: z.string() }),
  date: z.string(),
  time: z.string(),
  starts_at: z.string(),
  place: z.string(),
  capacity: z.number(),
  booked: z.number(),
  places_left: z.number(),
});
export type TrustToRideSessionOut = z.infer<typeof trustToRideSessionOut>;

/** One line of a session's attendance register. */
export const trustToRideBookingOut = z.strictObject({
  id: z.number(),
  session: z.number(),
  case: z.number(),
  case_activity: z.number(),
  subject: z.strictObject({ id: z.number(), name: z.string(), email: z.string() }),
  booked_at: z.string(),
  attendance: z.enum(TRUST_TO_RIDE_ATTENDANCE).nullable(),
  recorded_at: z.string().nullable(),
});
export type TrustToRideBookingOut = z.infer<typeof trustToRideBookingOut>;

/** GET /api/ops/trust-to-ride/sessions/{id}/: the session with its register. */
export const trustToRideSessionDetailOut = trustToRideSessionOut.extend({
  bookings: z.array(trustToRideBookingOut),
});
export type TrustToRideSessionDetailOut = z.infer<typeof trustToRideSessionDetailOut>;

/** POST .../bookings/: a place for one trust-to-ride activity on a session. */
export const trustToRideBookingIn = z.object({
  session: z.number({ error: MESSAGES.required }).int().positive(),
  case_activity: z.number({ error: MESSAGES.required }).int().positive(),
});
export type TrustToRideBookingIn = z.infer<typeof trustToRideBookingIn>;

/** POST /api/ops/trust-to-ride/bookings/{id}/attendance/. */
export const trustToRideAttendanceIn = z.object({
  attendance: z.enum(TRUST_TO_RIDE_ATTENDANCE, { error: MESSAGES.required }),
});
export type TrustToRideAttendanceIn = z.infer<typeof trustToRideAttendanceIn>;

/** The 'HH:MM' and 'YYYY-MM-DD' of a session's start (UTC, as entered). */
export function sessionDateTime(startsAt: Date): { date: string; time: string } {
  const iso = startsAt.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** The start of a session entered as a date and a time. */
export function sessionStartsAt(date: string, time: string): Date {
  return new Date(`${date}T${time}:00.000Z`);
}
