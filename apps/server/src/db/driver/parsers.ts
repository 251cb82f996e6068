// How column values are parsed: the same JavaScript values on both drivers.
import pg from 'pg';

const ident = (v: string) => v; // timestamps, dates and intervals stay text: Drizzle maps them
const int8 = (v: string) => Number(v);
/** OIDs whose text form Drizzle expects raw (as its own node-postgres driver does). */
const RAW_TYPES = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);

/** PGlite's parsers: bigint counts as numbers, timestamps, dates and intervals as text. */
export const pgliteParsers = {
  20: int8,
  1184: ident,
  1114: ident,
  1082: ident,
  1186: ident,
};

/** node-postgres's parsers: the same values as on PGlite (see `pgliteParsers`). */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return int8;
    if (RAW_TYPES.has(oid)) return ident;
    return format === 'binary'
      ? pg.types.getTypeParser(oid, 'binary')
      : pg.types.getTypeParser(oid, 'text');
  },
};
