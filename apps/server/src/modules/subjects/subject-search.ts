import { type AnyColumn, or, type SQL, sql } from 'drizzle-orm';
import { subjects } from './subjects.table.js';

/**
 * Free text on a subject: a case-insensitive prefix of the first name, last name, "first last",
 * email or the email's domain (a leading `@` searches the domain only). Range conditions with the
 * leakproof ~>=~ / ~<~ operators so that, under RLS, the `(customer_id, search_* text_pattern_ops)`
 * indexes serve them (see the subjects table).
 */
export function subjectSearchCondition(
  term: string,
  bind: (
    name: 'search_lo' | 'search_hi' | 'search_dlo' | 'search_dhi',
    value: string,
  ) => unknown = (_, v) => v,
): SQL {
  const t = term.trim().toLowerCase();
  const range = (col: AnyColumn, lo: unknown, hi: unknown) =>
    sql`(${col} ~>=~ ${lo} and ${col} ~<~ ${hi})`;
  const domain = t.startsWith('@') ? t.slice(1) : t;
  const byDomain = range(
    subjects.searchDomain,
    bind('search_dlo', domain),
    bind('search_dhi', `${domain}\u{10FFFF}`),
  );
  if (t.startsWith('@')) return byDomain;
  const lo = bind('search_lo', t);
  const hi = bind('search_hi', `${t}\u{10FFFF}`);
  return (
    or(
      ...[subjects.searchFirst, subjects.searchLast, subjects.searchFull, subjects.searchEmail].map(
        (col) => range(col, lo, hi),
      ),
      byDomain,
    ) ?? sql`false`
  );
}
