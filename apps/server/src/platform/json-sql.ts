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

/** `{count, count_capped?, next, previous, results}` with the results already JSON texts. */
export function pageJson(
  count: number,
  next: string | null,
  previous: string | null,
  results: readonly string[],
  capped = false,
): string {
  return `{"count":${count},${capped ? '"count_capped":true,' : ''}"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":[${results.join(',')}]}`;
}

const DIGITS = /^\d+$/;

/**
 * A timestamptz as PostgreSQL writes it in UTC ('2026-03-04 05:06:07.891234+00') turned into what
 * `toISOString()` writes (milliseconds, truncated, as a Date would hold them), without a Date.
 * Positions are checked rather than matched with a regular expression: the case list converts
 * 75 of these per page. Any other form (another zone, a year past 9999) goes through Date.
 */
export function isoFromPg(text: string): string {
  const n = text.length;
  if (
    (n === 22 || (n >= 24 && n <= 29 && text.charCodeAt(19) === 46)) && // '.' before a fraction
    text.charCodeAt(n - 3) === 43 && // '+00'
    text.charCodeAt(n - 2) === 48 &&
    text.charCodeAt(n - 1) === 48 &&
    text.charCodeAt(4) === 45 && // 'YYYY-MM-DD HH:MM:SS'
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 32 &&
    text.charCodeAt(13) === 58 &&
    text.charCodeAt(16) === 58
  ) {
    const fraction = n === 22 ? '' : text.slice(20, n - 3);
    if (fraction === '' || DIGITS.test(fraction)) {
      const ms = fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0');
      return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
    }
  }
  return new Date(text).toISOString();
}
