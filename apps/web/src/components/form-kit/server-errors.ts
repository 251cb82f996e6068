import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import type { ApiErrorBody } from '../../api/client';
import { backendErrorLines } from '../../api/messages';
import { flattenServerErrors } from './form-errors';

/** What of a form the server's field errors are put on. */
export type ServerErrorTarget<T extends FieldValues> = Pick<
  UseFormReturn<T>,
  'getValues' | 'setError'
>;

/**
 * The one place a 400's `{field: [messages]}` (nested objects and arrays flattened to dotted
 * paths) is put on a form's fields. The fields are `fields` when given, else every path the
 * form's values have. Returns the lines for everything else ('detail', `non_field_errors`,
 * fields the form lacks) in plain words, for the form's summary or alert.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  form: ServerErrorTarget<T>,
  body: ApiErrorBody,
  fields?: readonly Path<T>[],
): string[] {
  const values = form.getValues();
  const rest: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(flattenServerErrors(body))) {
    const field = fields
      ? fields.find((f) => f === path)
      : get(values, path) !== undefined
        ? (path as Path<T>)
        : undefined;
    if (field) form.setError(field, { type: 'server', message: messages.join(' ') });
    else rest[path] = messages;
  }
  return backendErrorLines(rest);
}
