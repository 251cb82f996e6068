import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { ApiErrorBody } from '../api/client';
import { backendErrorLines } from '../api/messages';

/**
 * Puts a 400's `{field: [messages]}` on the matching form fields; returns the lines for fields
 * the form does not have (and `detail`/`non_field_errors`) as 'field: messages' text.
 */
export function applyServerErrors<T extends FieldValues>(
  body: ApiErrorBody,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): string[] {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const field = fields.find((f) => f === key);
    const messages = Array.isArray(value) ? value.filter((m) => typeof m === 'string') : [];
    if (field && messages.length) setError(field, { type: 'server', message: messages.join(' ') });
    else rest[key] = value;
  }
  return backendErrorLines(rest);
}
