/**
 * A job's payload in a line for operations (/ops/jobs), without what must not be shown: only
 * numbers, booleans and a few plain fields (an email's recipient and subject, a text's number),
 * never a message's body (an email's holds a single-use link) nor anything nested.
 */
const SHOWN_TEXT = new Set(['to', 'subject', 'name', 'kind', 'reference', 'code', 'state']);
const HIDDEN = new Set(['text', 'html', 'body', 'token', 'secret', 'password', 'personalisation']);

export function summariseJobData(data: unknown): string {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (HIDDEN.has(key)) continue;
    if (typeof value === 'number' || typeof value === 'boolean') parts.push(`${key}=${value}`);
    else if (typeof value === 'string' && SHOWN_TEXT.has(key)) {
      parts.push(`${key}=${value.length > 60 ? `${value.slice(0, 59)}…` : value}`);
    }
    if (parts.length >= 6) break;
  }
  return parts.join(', ');
}
