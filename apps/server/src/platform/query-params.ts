import { isIsoDate } from '@kestrel/domain';
import type { z } from 'zod';
import { API_MESSAGES, fieldErrorsOf, ValidationError } from './errors.js';
import { INT4_MAX, strictId, strictWhole } from './ids.js';

// The input parsers of custom routes (registerResource's lists use resource-query.ts): each
// answers 400 `{name: [message]}` for a value of another shape.

/** Parses a body with a (domain) schema; failures become 400 `{field.path: [messages]}`. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  throw new ValidationError(
    fieldErrorsOf(parsed.error.issues.map((i) => ({ key: i.path.join('.'), message: i.message }))),
  );
}

/** `?name=` as one string (a repeated key joins with commas), or undefined. */
export function queryString(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const raw: unknown = (query as Record<string, unknown>)[name];
  if (raw === undefined || raw === null) return undefined;
  return Array.isArray(raw) ? raw.map(String).join(',') : String(raw);
}

/** `?name=` as an id: null when absent or empty, 400 `{name: ['Invalid id.']}` otherwise. */
export function queryId(query: unknown, name: string): number | null {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return null;
  if (!/^\d{1,9}$/.test(raw)) throw ValidationError.of(name, 'Invalid id.');
  return Number(raw);
}

/** `?name=YYYY-MM-DD` → the UTC midnight of that day; 400 for another shape. */
export function queryDate(query: unknown, name: string): Date | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return undefined;
  if (!isIsoDate(raw)) throw ValidationError.of(name, API_MESSAGES.validDate);
  return new Date(`${raw}T00:00:00Z`);
}

/**
 * `?name=YYYY-MM-DD` as that day's string: null when absent or empty; 400 `{name: [message]}` for
 * another shape or no such day (0000-01-01, 1985-02-30: PostgreSQL refuses them).
 */
export function queryIsoDate(
  query: unknown,
  name: string,
  message: string = API_MESSAGES.validDate,
): string | null {
  const raw = queryString(query, name) ?? '';
  if (raw === '') return null;
  if (!isIsoDate(raw)) throw ValidationError.of(name, message);
  return raw;
}

/**
 * `?name=YYYY-MM-DD` as the end of an inclusive date range: the start of the next day (UTC), to
 * compare with `<`. Undefined when absent, or when that day is past the last representable date
 * (9999-12-31 includes everything: no bound); 400 for another shape.
 */
export function queryDateEnd(query: unknown, name: string): Date | undefined {
  const day = queryDate(query, name);
  if (day === undefined) return undefined;
  const end = new Date(day.getTime() + 86_400_000);
  return end.getUTCFullYear() > 9999 ? undefined : end;
}

/** `?name=1` / `1,2` → ids (strict, see ids.ts); 400 otherwise. */
export function queryIds(query: unknown, name: string): number[] | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return undefined;
  const ids = raw.split(',').map((v) => strictId(v));
  const valid = ids.filter((n) => n !== null);
  if (valid.length !== ids.length) throw ValidationError.of(name, API_MESSAGES.wholeNumber);
  return valid;
}

/** `?customer=ID` of an ops list: one customer, or null for all of them; 400 for another shape. */
export function opsCustomerFilter(q: unknown): number | null {
  const ids = queryIds(q, 'customer');
  if (!ids) return null;
  const [id] = ids;
  if (ids.length !== 1 || id === undefined) {
    throw ValidationError.of('customer', API_MESSAGES.oneCustomer);
  }
  return id;
}

/** `true|True|1` or `false|False|0` (DRF's BooleanField) given as `name`; 400 otherwise. */
export function booleanValue(raw: string, name: string): boolean {
  if (raw === 'true' || raw === 'True' || raw === '1') return true;
  if (raw === 'false' || raw === 'False' || raw === '0') return false;
  throw ValidationError.of(name, API_MESSAGES.validBoolean);
}

/** A whole number up to `max` (strict, see ids.ts) given as `name`; 400 otherwise. */
export function wholeValue(raw: string, name: string, max = INT4_MAX): number {
  const n = strictWhole(raw, max);
  if (n === null) throw ValidationError.of(name, API_MESSAGES.wholeNumber);
  return n;
}

/** `?name=true|false` → boolean; 400 otherwise. */
export function queryBool(query: unknown, name: string): boolean | undefined {
  const raw = queryString(query, name);
  if (raw === undefined || raw === '') return undefined;
  return booleanValue(raw, name);
}
