import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver from a domain (or contract) Zod schema: the form keeps what was
 * typed (strings), the schema says what is wrong with the same messages as the server. The
 * payload is the schema's output, taken at submit time (`parsePayload`).
 */
export function schemaResolver<V extends FieldValues>(
  schema: () => z.ZodType,
  extra?: (values: V) => Record<string, string>,
): Resolver<V> {
  return async (values) => {
    const result = schema().safeParse(values);
    const messages: Record<string, string> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = issue.path.map(String).join('.');
        if (key && !(key in messages)) messages[key] = issue.message;
      }
    }
    for (const [key, message] of Object.entries(extra?.(values) ?? {})) {
      if (!(key in messages)) messages[key] = message;
    }
    const keys = Object.keys(messages);
    if (keys.length === 0) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const key of keys) errors[key] = { type: 'validation', message: messages[key] ?? '' };
    return { values: {}, errors: errors as FieldErrors<V> };
  };
}

/**
 * The schema's output for the API, with blank optional fields sent as null (a PUT clears them).
 */
export function parsePayload(schema: z.ZodType, values: object, keys: readonly string[]): object {
  const parsed: unknown = schema.parse(values);
  const out: Record<string, unknown> =
    typeof parsed === 'object' && parsed !== null ? { ...parsed } : {};
  for (const key of keys) if (out[key] === undefined) out[key] = null;
  return out;
}

/** A value as an input's text: strings and numbers as they are, anything else (null) as ''. */
export const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';
