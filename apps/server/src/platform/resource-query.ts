import { asc, desc, eq, inArray, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from './errors.js';
import { INT4_MAX, maxOf, strictId } from './ids.js';
import { type Page, pageUrl } from './pagination.js';
import { booleanValue, wholeValue } from './query-params.js';

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

/**
 * The column an `?ordering` term names: `id`, or one of `columns`' own keys (so `__proto__`,
 * `constructor` or `toString` name none), else undefined (ignored, as DRF does).
 */
export function orderColumn<C>(
  columns: Readonly<Record<string, C>> | undefined,
  id: C,
  name: string,
): C | undefined {
  if (name === 'id') return id;
  return columns && Object.hasOwn(columns, name) ? columns[name] : undefined;
}

/** `?ordering=-a,b` over the declared columns (unknown names ignored), id as tiebreaker. */
export function orderBy(
  def: { ordering?: Record<string, PgColumn>; defaultOrdering?: string },
  id: PgColumn,
  requested: string | undefined,
  b: Binder = inlineBinder,
): SQL[] {
  const spec = requested || def.defaultOrdering || '-id';
  const out: SQL[] = [];
  for (const part of spec.split(',')) {
    const descending = part.startsWith('-');
    const name = descending ? part.slice(1) : part;
    const column = orderColumn(def.ordering, id, name);
    if (column && out.length < 8) {
      out.push(descending ? desc(column) : asc(column));
      b.mark(`order:${part}`);
    }
  }
  out.push(spec.startsWith('-') ? desc(id) : asc(id));
  b.mark(spec.startsWith('-') ? 'order:-id' : 'order:id');
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

/** The DRF list body. */
export function pageResponse<R>(
  request: FastifyRequest,
  path: string,
  page: number,
  pageSize: number,
  count: number,
  results: R[],
): Page<R> {
  return {
    count,
    next: page * pageSize < count ? pageUrl(request, path, page + 1) : null,
    previous: page > 1 ? pageUrl(request, path, page - 1) : null,
    results,
  };
}
