// The SQL literal inliner: a query's `$n` parameters as literals, for the simple protocol.
import pg from 'pg';

const IDENT_CHAR = /[A-Za-z0-9_$]/;

/** A parameter as an SQL literal (unknown-typed, as an untyped text parameter is), or null. */
export function sqlLiteral(v: unknown): string | null {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return pg.escapeLiteral(v);
  if (typeof v === 'number') return Number.isFinite(v) ? `'${v}'` : null;
  if (typeof v === 'bigint') return `'${v}'`;
  if (typeof v === 'boolean') return v ? "'true'" : "'false'";
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : `'${v.toISOString()}'`;
  return null; // arrays, objects, buffers: left to the driver's own serialisation
}

/**
 * The query text with `$n` replaced by literals, skipping string literals, quoted identifiers,
 * dollar-quoted strings and comments; null when a value or the text is not plainly inlinable
 * (the caller then sends the query with parameters as usual).
 */
export function inlineParams(text: string, values: readonly unknown[]): string | null {
  const literals: string[] = [];
  for (const v of values) {
    const l = sqlLiteral(v);
    if (l === null) return null;
    literals.push(l);
  }
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charAt(i);
    const prevIdent = i > 0 && IDENT_CHAR.test(text.charAt(i - 1));
    if (c === "'") {
      const escapes = /[eE]/.test(text.charAt(i - 1)) && !IDENT_CHAR.test(text.charAt(i - 2));
      let j = i + 1;
      while (j < n) {
        const d = text.charAt(j);
        if (escapes && d === '\\') j += 2;
        else if (d === "'" && text.charAt(j + 1) === "'") j += 2;
        else if (d === "'") break;
        else j += 1;
      }
      if (j >= n) return null;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '"') {
      const j = text.indexOf('"', i + 1);
      if (j < 0) return null;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && text.charAt(i + 1) === '-') {
      const j = text.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += text.slice(i, end);
      i = end;
    } else if (c === '/' && text.charAt(i + 1) === '*') {
      return null; // block comments may nest: not worth parsing
    } else if (c === '$' && !prevIdent) {
      const param = /^\$(\d+)/.exec(text.slice(i, i + 12));
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 66));
      if (param?.[1]) {
        const lit = literals[Number(param[1]) - 1];
        if (lit === undefined) return null;
        out += lit;
        i += param[0].length;
      } else if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        if (end < 0) return null;
        out += text.slice(i, end + tag[0].length);
        i = end + tag[0].length;
      } else {
        out += c;
        i += 1;
      }
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}
