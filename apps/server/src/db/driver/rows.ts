// Rows out of the drivers' results.

/** A row as an object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The rows of the last result that has columns (a multi-statement text's answer). */
export function lastRows(results: unknown): Record<string, unknown>[] {
  const list = Array.isArray(results) ? results : [results];
  for (let i = list.length - 1; i >= 0; i--) {
    const r: unknown = list[i];
    if (r && typeof r === 'object' && 'rows' in r && Array.isArray(r.rows) && 'fields' in r) {
      const fields = r.fields;
      if (Array.isArray(fields) && fields.length > 0) return r.rows;
    }
  }
  return [];
}
