import { formatDate } from '@kestrel/domain';

/** '23rd Nov 2026 10:57' (UTC, like the audit log); with seconds for the email itself. */
export function receivedAt(iso: string, { seconds = false } = {}): string {
  const date = formatDate(iso);
  if (!date) return '';
  return `${date} ${iso.slice(11, seconds ? 19 : 16)}`;
}
