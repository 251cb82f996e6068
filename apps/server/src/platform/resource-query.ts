import { eq, inArray, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { NotFoundError } from './errors.js';
import { INT4_MAX, maxOf, strictId } from './ids.js';
import { booleanValue, wholeValue } from './query-params.js';

export { pageResponse } from './list-builder.js';

// Query-string and body helpers of the resource router.

const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `{a_b: 1}` → `{aB: 1}`: the default mapping of a JSON body to Drizzle insert values. */
export function toColumns(data: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [camel(k), v]));
}

function parseFilterValue(column: PgColumn, raw: string, name: string): unknown {
  if (column.dataType === 'number') return wholeValue(raw, name, maxOf(column));
  if (column.dataType === 'boolean') return booleanValue(raw, name);
  return raw;
}

/**
 * How a list's values enter its query: as they are, or (a prepared list) as placeholders whose
 * names, with the marks, make the query's shape: one prepared statement per shape.
 */
export interface Binder {
  bind<V>(name: string, value: V): V | Placeholder;
  /** A choice that changes the query's text but binds no value (e.g. IS NULL). */
  mark(part: string): void;
}

/** Values inlined in the query (a query built for one request). */
export const inlineBinder: Binder = {
  bind: <V>(_: string, value: V) => value,
  mark: () => undefined,
};

/** Values as placeholders; `shape` and `values` describe the request. */
export function placeholderBinder(): Binder & { shape: string[]; values: Record<string, unknown> } {
  const shape: string[] = [];
  const values: Record<string, unknown> = {};
  return {
    shape,
    values,
    bind<V>(name: string, value: V): V | Placeholder {
      values[name] = value;
      shape.push(name);
      return sql.placeholder(name);
    },
    mark(part) {
      shape.push(`#${part}`);
    },
  };
}

/** `?name=a` is equality, `a,b` IN, an empty value or `null` IS NULL; typed by the column. */
export function filterConditions(
  filters: Record<string, PgColumn>,
  query: Record<string, unknown>,
  b: Binder = inlineBinder,
): SQL[] {
  const out: SQL[] = [];
  for (const [name, column] of Object.entries(filters)) {
    const raw = query[name];
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (value === '' || value === 'null') {
      b.mark(`${name}:null`);
      out.push(isNull(column));
    } else if (value.includes(',')) {
      out.push(
        inArray(
          column,
          value
            .split(',')
            .map((v, i) => b.bind(`f_${name}_${i}`, parseFilterValue(column, v, name))),
        ),
      );
    } else {
      out.push(eq(column, b.bind(`f_${name}`, parseFilterValue(column, value, name))));
    }
  }
  return out;
}

/** `:id` in resource paths (parsed by parseId so a malformed id is a 404). */
export const idParams = z.object({ id: z.string().max(20) });

/** A URL id: a positive decimal integer within `max` (see ids.ts), else 404: no such object. */
export function parseId(raw: string, max = INT4_MAX): number {
  const n = strictId(raw, max);
  if (n === null) throw new NotFoundError();
  return n;
}
