import { type ActivityKindCode, isActivityKindCode } from './activity-kinds.js';

/*
 * Operations' work queue and morning dashboard (issue 29): how long a check may wait for
 * operations (its target), the age buckets of the dashboard, the assignee filter, and the
 * refusal of a second claim.
 */

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** A check waiting for operations longer than this (hours) is past its target, unless its kind says otherwise. */
export const DEFAULT_OPS_TARGET_HOURS = 48;

/**
 * Each kind's target, in hours from the moment it started waiting for operations: the
 * criminal-record checks and the identity checks are promised within a working day, the
 * document and licence checks within two, the rest within the default.
 */
export const OPS_TARGET_HOURS: Readonly<Partial<Record<ActivityKindCode, number>>> = {
  'dbs-basic': 24,
  'dbs-standard': 24,
  'dbs-enhanced': 24,
  'dbs-update': 24,
  'online-idv': 24,
  'document-collection': 48,
  'licence-check': 48,
  'driver-data': 48,
  'knowledge-test': 72,
};

/** A kind's target in hours (the default for a kind without one, or a code not known). */
export function opsTargetHours(code: string): number {
  return (
    (isActivityKindCode(code) ? OPS_TARGET_HOURS[code] : undefined) ?? DEFAULT_OPS_TARGET_HOURS
  );
}

/** Whether a check of this kind, waiting since `since`, is past its target at `now`. */
export function isPastOpsTarget(code: string, since: Date, now: Date): boolean {
  return now.getTime() - since.getTime() > opsTargetHours(code) * HOUR_MS;
}

/** The dashboard's age buckets, oldest first: `minDays` inclusive, `maxDays` exclusive. */
export const OPS_AGE_BUCKETS = [
  { key: 'over-7-days', label: 'Over 7 days', minDays: 7, maxDays: null },
  { key: '3-7-days', label: '3 to 7 days', minDays: 3, maxDays: 7 },
  { key: '1-3-days', label: '1 to 3 days', minDays: 1, maxDays: 3 },
  { key: 'under-1-day', label: 'Under a day', minDays: 0, maxDays: 1 },
] as const;
export type OpsAgeBucket = (typeof OPS_AGE_BUCKETS)[number]['key'];

/** The bucket of a check waiting since `since` at `now`. */
export function opsAgeBucket(since: Date, now: Date): OpsAgeBucket {
  const days = (now.getTime() - since.getTime()) / DAY_MS;
  const bucket = OPS_AGE_BUCKETS.find((b) => days >= b.minDays);
  return bucket?.key ?? 'under-1-day';
}

/** The work queue's assignee filter: claimed by me, by no one, or by anyone. */
export const OPS_ASSIGNEE_FILTERS = ['me', 'unassigned', 'anyone'] as const;
export type OpsAssigneeFilter = (typeof OPS_ASSIGNEE_FILTERS)[number];

export function isOpsAssigneeFilter(value: string): value is OpsAssigneeFilter {
  return (OPS_ASSIGNEE_FILTERS as readonly string[]).includes(value);
}

/** The 409 of a claim on an activity another ops user holds. */
export function alreadyClaimedMessage(holder: string): string {
  return `Already claimed by ${holder}.`;
}

/** The list's "Assigned to …" text, or "Unassigned". */
export function assignedToText(holder: string | null | undefined): string {
  return holder ? `Assigned to ${holder}` : 'Unassigned';
}

/** The Mondays (UTC, 00:00) starting the last `weeks` weeks up to the one holding `now`, oldest first. */
export function weekStarts(now: Date, weeks: number): Date[] {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const monday = day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS;
  return Array.from({ length: weeks }, (_, i) => new Date(monday - (weeks - 1 - i) * 7 * DAY_MS));
}
