import type { RegPortal } from '../api';

/** Whether a portal takes registrations now, in words (its closed, full or closing-date state). */
export function portalStateText(p: RegPortal, today: string): { label: string; open: boolean } {
  if (!p.open) return { label: 'Closed', open: false };
  if (p.registration_limit !== null && p.registration_count >= p.registration_limit)
    return { label: 'Full', open: false };
  if (p.closes_on !== null && p.closes_on < today)
    return { label: 'Past closing date', open: false };
  return { label: 'Open', open: true };
}

/** 'n' or 'n of limit' registrations. */
export function countText(p: Pick<RegPortal, 'registration_count' | 'registration_limit'>) {
  return p.registration_limit === null
    ? String(p.registration_count)
    : `${p.registration_count} of ${p.registration_limit}`;
}
