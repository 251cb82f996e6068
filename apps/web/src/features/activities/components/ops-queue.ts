import { ACTIVITY_KIND_CODES, ACTIVITY_KINDS, assignedToText } from '@kestrel/domain';
import type { Activity } from '../../../api/activities';
import { request } from '../../../api/client';
import { buildQuery } from '../../../api/query-string';
import { href } from '../../../config/paths';

/** The work queue's filters, as the URL and the API both name them (issue 29). */
export const QUEUE_FILTERS = [
  'customer',
  'activity_type',
  'state',
  'assignee',
  'past_target',
  'older_than_days',
  'newer_than_days',
] as const;

/** The queue's filters from a URL's search (only the known ones, non-empty). */
export function queueFiltersOf(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of QUEUE_FILTERS) {
    const value = search.get(name);
    if (value) out[name] = value;
  }
  return out;
}

/** The queue's URL with these filters (the list, or one activity of it). */
export function queueUrl(filters: Record<string, string>, id?: number): string {
  const path =
    id === undefined
      ? href('ops:outstanding-activities')
      : href('ops:outstanding-activity', { id });
  return `${path}${buildQuery(filters)}`;
}

/** The age choices: a key of the URL's age filters and its label, oldest first. */
export const AGE_CHOICES: { value: string; label: string; filters: Record<string, string> }[] = [
  { value: 'past_target', label: 'Past target', filters: { past_target: 'true' } },
  { value: 'over-7', label: 'Over 7 days', filters: { older_than_days: '7' } },
  { value: 'over-3', label: 'Over 3 days', filters: { older_than_days: '3' } },
  { value: 'over-1', label: 'Over a day', filters: { older_than_days: '1' } },
  { value: 'under-1', label: 'Under a day', filters: { newer_than_days: '1' } },
];

const AGE_KEYS = ['past_target', 'older_than_days', 'newer_than_days'] as const;

/** The age choice the filters hold, or a choice made for them (a dashboard bucket's link). */
export function ageChoiceOf(filters: Record<string, string>): {
  value: string;
  label: string;
} | null {
  const own = Object.fromEntries(AGE_KEYS.flatMap((k) => (filters[k] ? [[k, filters[k]]] : [])));
  if (Object.keys(own).length === 0) return null;
  const found = AGE_CHOICES.find((c) => JSON.stringify(c.filters) === JSON.stringify(own));
  if (found) return found;
  const older = own.older_than_days;
  const newer = own.newer_than_days;
  const label =
    older && newer
      ? `${older} to ${newer} days`
      : older
        ? `Over ${older} days`
        : newer
          ? `Under ${newer} days`
          : 'Past target';
  return { value: buildQuery(own), label };
}

/** The filters with the age choice `value` (null: none) in place of the age filters. */
export function withAge(filters: Record<string, string>, value: string | null) {
  const rest = Object.fromEntries(
    Object.entries(filters).filter(([k]) => !(AGE_KEYS as readonly string[]).includes(k)),
  );
  const choice = AGE_CHOICES.find((c) => c.value === value);
  return choice ? { ...rest, ...choice.filters } : rest;
}

export const KIND_OPTIONS = ACTIVITY_KIND_CODES.map((code) => ({
  value: code,
  label: ACTIVITY_KINDS[code].name,
}));

export const ASSIGNEE_OPTIONS = [
  { value: 'me', label: 'Assigned to me' },
  { value: 'unassigned', label: 'Unassigned' },
  { value: 'anyone', label: 'Anyone' },
];

/** "Assigned to …" or "Unassigned". */
export const assignedTo = (a: Activity) => assignedToText(a.claim?.name);

export type ClaimResult = { id: number; claim: Activity['claim'] };

/** POST /api/ops/outstanding-activities/{id}/claim/ or .../release/. */
export const claimAction = (id: number, action: 'claim' | 'release') =>
  request<ClaimResult>('POST', `/api/ops/outstanding-activities/${id}/${action}/`, { body: {} });

/**
 * The next unclaimed activity of the same filtered list after `current` (oldest first), or
 * null when there is none.
 */
export async function nextUnclaimed(
  filters: Record<string, string>,
  current: number,
): Promise<number | null> {
  const r = await request<{ results: { id: number }[] }>(
    'GET',
    '/api/ops/outstanding-activities/',
    { params: { ...filters, assignee: 'unassigned', page_size: 5 } },
  );
  if (!r.ok) return null;
  return r.data.results.find((a) => a.id !== current)?.id ?? null;
}
