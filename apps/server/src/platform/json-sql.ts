import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * Responses rendered by PostgreSQL. A hot list selects each presented row as one JSON text
 * (`json_build_object`) and the route joins the texts into the page, so the rows are neither
 * parsed into objects nor serialised again here: on a 25-row page that is most of the server's
 * work per request. The SQL presenter must equal the TypeScript one (tests compare them).
 */
export type JsonFields = Record<string, SQL | AnyColumn | JsonFieldsNested>;
/** A nested object (e.g. `subject: {id, first_name}`). */
export interface JsonFieldsNested {
  readonly nested: JsonFields;
}

const KEY = /^[a-z][a-z0-9_]*$/;

export const nested = (fields: JsonFields): JsonFieldsNested => ({ nested: fields });

function objectSql(fields: JsonFields): SQL {
  const parts = Object.entries(fields).map(([key, value]) => {
    if (!KEY.test(key)) throw new Error(`Invalid JSON key ${key}`);
    const v =
      typeof value === 'object' && value !== null && 'nested' in value
        ? objectSql(value.nested)
        : value;
    return sql`${sql.raw(`'${key}'`)}, ${v}`;
  });
  return sql`json_build_object(${sql.join(parts, sql`, `)})`;
}

/** The row as JSON text. */
export function jsonText(fields: JsonFields): SQL<string> {
  return sql<string>`${objectSql(fields)}::text`;
}

/** A timestamptz as JavaScript's `toISOString()` writes it (UTC, milliseconds, `Z`); null stays null. */
export function isoTimestamp(column: SQL | AnyColumn): SQL<string | null> {
  return sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** `{count, next, previous, results}` with the results already JSON texts. */
export function pageJson(
  count: number,
  next: string | null,
  previous: string | null,
  results: readonly string[],
): string {
  return `{"count":${count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":[${results.join(',')}]}`;
}

const PG_UTC = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as PostgreSQL writes it in UTC ('2026-03-04 05:06:07.891234+00') turned into what
 * `toISOString()` writes (milliseconds, truncated, as a Date would hold them), without a Date.
 */
export function isoFromPg(text: string): string {
  const m = PG_UTC.exec(text);
  if (!m) return new Date(text).toISOString();
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}
