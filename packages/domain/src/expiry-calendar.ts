import { z } from 'zod';

/**
 * The expiry calendar (issue 33): what runs out for a customer's subjects, by date. The DVLA
 * mandate (a driving licence consent lasts 3 years: the subject is asked to re-consent before it
 * lapses), passports and driving licences with an expiry date, a time-limited right to work, and
 * the licences a council issued. Reminders go to the subject and to the customer before each
 * date, once per step.
 */

export const EXPIRY_KINDS = [
  'dvla-consent',
  'passport',
  'driving-licence',
  'right-to-work',
  'licence',
] as const;
export type ExpiryKind = (typeof EXPIRY_KINDS)[number];

export const EXPIRY_KIND_LABELS: Record<ExpiryKind, string> = {
  'dvla-consent': 'Driving licence check consent (DVLA mandate)',
  passport: 'Passport',
  'driving-licence': 'Driving licence',
  'right-to-work': 'Right to work (time-limited)',
  licence: 'Issued licence',
};

/** The calendar's default window, in days from today. */
export const EXPIRY_WINDOW_DAYS = 90;
/** The longest window a customer may ask for: ten years (a passport's life), with leap days. */
export const EXPIRY_WINDOW_MAX_DAYS = 3653;
/**
 * Three years ahead in days, leap day included: the window that shows a renewed DVLA mandate
 * (3 years from its renewal) the day it is renewed.
 */
export const EXPIRY_THREE_YEARS_DAYS = 1096;

/** The windows the calendar offers, nearest first. */
export const EXPIRY_WINDOWS: readonly { days: number; label: string }[] = [
  { days: 30, label: 'Next 30 days' },
  { days: 60, label: 'Next 60 days' },
  { days: EXPIRY_WINDOW_DAYS, label: 'Next 90 days' },
  { days: 180, label: 'Next 6 months' },
  { days: 365, label: 'Next 12 months' },
  { days: EXPIRY_THREE_YEARS_DAYS, label: 'Next 3 years' },
  { days: EXPIRY_WINDOW_MAX_DAYS, label: 'Next 10 years' },
];

/** The window's last day (YYYY-MM-DD): `today` plus `days`. */
export function expiryWindowEnd(today: string, days: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
/** Reminders go this many days before the date (the first at the widest still ahead). */
export const EXPIRY_REMINDER_DAYS = [90, 30, 7] as const;

const DAY_MS = 86_400_000;

/** Whole days from `today` to `day` (both YYYY-MM-DD): 0 on the day, negative after it. */
export function daysUntil(today: string, day: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
}

/**
 * The reminder step due today for a date (YYYY-MM-DD), or null: the narrowest step the date is
 * within (90, 30 or 7 days), unless that step was already sent. A date found late gets only its
 * nearest step (never three at once); nothing after the date.
 */
export function dueExpiryReminder(
  expiresOn: string,
  today: string,
  sent: readonly number[],
): number | null {
  const left = daysUntil(today, expiresOn);
  if (left < 0) return null;
  const within = EXPIRY_REMINDER_DAYS.filter((d) => left <= d);
  const step = within[within.length - 1];
  if (step === undefined || sent.includes(step)) return null;
  return step;
}

/** GET /api/expiry-calendar/'s query. */
export const expiryCalendarQuery = z.object({
  days: z.coerce
    .number({ error: 'Enter a number of days.' })
    .int('Enter a whole number of days.')
    .min(1, 'Enter at least 1 day.')
    .max(EXPIRY_WINDOW_MAX_DAYS, `Enter at most ${EXPIRY_WINDOW_MAX_DAYS} days.`)
    .default(EXPIRY_WINDOW_DAYS),
  kind: z.enum(EXPIRY_KINDS, { error: `Choose one of: ${EXPIRY_KINDS.join(', ')}.` }).optional(),
  search: z.string().trim().max(100).optional(),
});
export type ExpiryCalendarQuery = z.output<typeof expiryCalendarQuery>;

/** One thing that expires, as the calendar lists it. */
export const expiryItemOut = z.strictObject({
  kind: z.enum(EXPIRY_KINDS),
  kind_label: z.string(),
  subject_id: z.number(),
  subject_name: z.string(),
  subject_email: z.string(),
  /** The case it belongs to (none for an issued licence). */
  case_id: z.number().nullable(),
  /** What it is: a licence's number, a document's number's last digits, a consent's id. */
  reference: z.string(),
  expires_on: z.string(),
  days_left: z.number(),
});
export type ExpiryItemOut = z.output<typeof expiryItemOut>;

export const expiryCalendarOut = z.strictObject({
  days: z.number(),
  /** The window's last day (YYYY-MM-DD), today plus `days`. */
  until: z.string(),
  count: z.number(),
  results: z.array(expiryItemOut),
});
export type ExpiryCalendarOut = z.output<typeof expiryCalendarOut>;

/** Items sorted by date, then subject, then kind (the calendar's order). */
export function sortExpiryItems<
  T extends Pick<ExpiryItemOut, 'expires_on' | 'subject_name' | 'kind'>,
>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) =>
      a.expires_on.localeCompare(b.expires_on) ||
      a.subject_name.localeCompare(b.subject_name) ||
      a.kind.localeCompare(b.kind),
  );
}

const CSV_HEADER = ['Expires on', 'Days left', 'What', 'Subject', 'Email', 'Case', 'Reference'];

/** A CSV cell: quoted when it holds a comma, quote or line break; a formula start neutralised. */
export function csvCell(value: string | number | null): string {
  let s = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s) && typeof value === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The calendar as a CSV file (a header row, CRLF line ends). */
export function expiryCalendarCsv(items: readonly ExpiryItemOut[]): string {
  const rows = items.map((i) =>
    [
      i.expires_on,
      i.days_left,
      i.kind_label,
      i.subject_name,
      i.subject_email,
      i.case_id,
      i.reference,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

/** The last four characters of a document number (the calendar never shows it whole). */
export function maskedNumber(n: string): string {
  const t = n.trim();
  if (t.length <= 4) return t;
  return `…${t.slice(-4)}`;
}
