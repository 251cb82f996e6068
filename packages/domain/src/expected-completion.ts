import { z } from 'zod';

/**
 * Expected completion dates of open checks (issue 33): each check in the provider's or
 * operations' hands shows when it should be done, from its kind's typical duration and what the
 * provider said of its progress: the DBS tracking stages (the time left shrinks with each stage
 * done), the DVLA's manual answer (DQ3: 14-28 working days, the later date kept), adult first's
 * 72 hours from the request. A check past its date is escalated to operations and flagged to
 * the customer. Working days skip weekends only (bank holidays are not known here).
 */

/** Typical durations by kind: calendar days, or working days (`working: true`). */
export const TYPICAL_DURATIONS: Readonly<Record<string, { days: number; working: boolean }>> = {
  'dbs-basic': { days: 14, working: false },
  'dbs-standard': { days: 14, working: false },
  'dbs-enhanced': { days: 28, working: false },
  'dbs-update': { days: 1, working: true },
  'licence-check': { days: 2, working: true },
  'driver-data': { days: 2, working: true },
  'adult-first': { days: 3, working: false },
  'online-idv': { days: 2, working: true },
  rtw: { days: 2, working: true },
  'knowledge-test': { days: 14, working: false },
  'trust-to-ride': { days: 28, working: false },
};
/** Any other kind: five working days. */
export const DEFAULT_DURATION = { days: 5, working: true } as const;
/** DVLA's manual answer (DQ3): up to 28 working days. */
export const DVLA_MANUAL_WORKING_DAYS = 28;
/** The DBS stages an application passes (received to printed). */
export const DBS_STAGE_COUNT = 5;
/** Once the last stage is done, the certificate is in the post: this many days more. */
export const DBS_POSTAL_DAYS = 3;

/** The states a check's clock runs in: with the provider or with operations. */
export const EXPECTED_DATE_STATES = ['ca-in-progress', 'ca-awaiting-ops'] as const;

export interface OpenCheck {
  /** The activity kind's code (dbs-basic, licence-check...). */
  code: string;
  state: string;
  /** When the check started (the case activity's creation), YYYY-MM-DD. */
  startedOn: string;
  /** Its result data as the provider filled it in so far. */
  result: Readonly<Record<string, unknown>>;
}

export interface ExpectedCompletion {
  /** YYYY-MM-DD. */
  date: string;
  /** Why this date, in words. */
  basis: string;
}

const DAY_MS = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}$/;

function parse(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
const fmt = (d: Date) => d.toISOString().slice(0, 10);

/** `day` plus `n` calendar days. */
export function addDays(day: string, n: number): string {
  return fmt(new Date(parse(day).getTime() + n * DAY_MS));
}

/** `day` plus `n` working days (Monday to Friday). */
export function addWorkingDays(day: string, n: number): string {
  let d = parse(day);
  let left = n;
  while (left > 0) {
    d = new Date(d.getTime() + DAY_MS);
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6) left -= 1;
  }
  return fmt(d);
}

const isoOf = (v: unknown): string | null => (typeof v === 'string' && ISO.test(v) ? v : null);
const record = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The DBS tracking stages done (status complete or a completion date) and the latest date. */
function dbsProgress(result: Readonly<Record<string, unknown>>): {
  done: number;
  total: number;
  last: string | null;
} {
  const stages = Array.isArray(result.tracking) ? result.tracking : [];
  let done = 0;
  let last: string | null = null;
  for (const s of stages) {
    const stage = record(s);
    const date = isoOf(stage?.completed_date);
    if (stage?.status === 'complete' || date) done += 1;
    if (date && (last === null || date > last)) last = date;
  }
  return { done, total: Math.max(stages.length, DBS_STAGE_COUNT), last };
}

/**
 * The expected completion date of an open check, or null when its clock is not running (waiting
 * for the subject or the customer, done, cancelled).
 */
export function expectedCompletion(check: OpenCheck): ExpectedCompletion | null {
  if (!(EXPECTED_DATE_STATES as readonly string[]).includes(check.state)) return null;
  const typical = TYPICAL_DURATIONS[check.code] ?? DEFAULT_DURATION;
  const { result } = check;

  if (check.code.startsWith('dbs-') && check.code !== 'dbs-update') {
    const received = isoOf(record(result.application)?.received_date) ?? check.startedOn;
    const { done, total, last } = dbsProgress(result);
    if (done === 0 || last === null) {
      return {
        date: addDays(received, typical.days),
        basis: `Typically ${typical.days} days from the DBS receiving the application.`,
      };
    }
    if (done >= total) {
      return {
        date: addDays(last, DBS_POSTAL_DAYS),
        basis: 'Every DBS stage is complete: the certificate is on its way.',
      };
    }
    const left = Math.ceil((typical.days * (total - done)) / total);
    return {
      date: addDays(last, left),
      basis: `DBS stage ${done} of ${total} complete: about ${left} days for the rest.`,
    };
  }

  if (check.code === 'licence-check' && result.status === 'DQ3') {
    const from = isoOf(result.last_check_date) ?? check.startedOn;
    return {
      date: addWorkingDays(from, DVLA_MANUAL_WORKING_DAYS),
      basis: 'The DVLA answers this licence by hand: 14 to 28 working days.',
    };
  }

  if (check.code === 'adult-first') {
    const from = isoOf(result.requested_date) ?? check.startedOn;
    return {
      date: addDays(from, typical.days),
      basis: 'An adult first result can take up to 72 hours from the request.',
    };
  }

  return {
    date: typical.working
      ? addWorkingDays(check.startedOn, typical.days)
      : addDays(check.startedOn, typical.days),
    basis: `Typically ${typical.days} ${typical.working ? 'working day' : 'day'}${typical.days === 1 ? '' : 's'}.`,
  };
}

/** Whether a check expected on `expected` is overdue on `today` (the day after it). */
export function isOverdue(expected: string, today: string): boolean {
  return today > expected;
}

/** The flag raised on the customer's case when a check is overdue. */
export function overdueFlagMessage(checkName: string, expected: string): string {
  return `${checkName} is taking longer than expected (expected by ${expected}). Our operations team is looking into it.`;
}

/** GET /api/cases/{id}/expected-dates/: each open check's expected date. */
export const expectedDateOut = z.strictObject({
  activity_id: z.number(),
  expected_on: z.string(),
  basis: z.string(),
  overdue: z.boolean(),
  escalated: z.boolean(),
});
export const expectedDatesOut = z.array(expectedDateOut);
export type ExpectedDateOut = z.output<typeof expectedDateOut>;

/** The escalations operations list: open (the default), resolved, or both. */
export const ESCALATION_STATUSES = ['open', 'resolved', 'all'] as const;
export type EscalationStatus = (typeof ESCALATION_STATUSES)[number];

/** One escalation in operations' list (GET /api/ops/escalations/). */
export const escalationOut = z.strictObject({
  id: z.number(),
  customer_id: z.number(),
  customer_name: z.string(),
  case_id: z.number(),
  subject_id: z.number(),
  /** The subject's name as the customer holds it ('' when none was given). */
  subject_name: z.string(),
  activity_id: z.number(),
  check: z.string(),
  state: z.string(),
  expected_on: z.string(),
  /** Whole days past expected_on: to today while open, to the day it was resolved after. */
  days_overdue: z.number(),
  escalated_at: z.string(),
  resolved_at: z.string().nullable(),
});
export type EscalationOut = z.output<typeof escalationOut>;
export const escalationPageOut = z.strictObject({
  count: z.number(),
  results: z.array(escalationOut),
});
