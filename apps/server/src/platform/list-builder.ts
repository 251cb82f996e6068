import { type AnyColumn, asc, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Page, pageOf, pageUrl } from './pagination.js';

// The one list builder: what every paginated list (registerResource's and the custom ones: cases,
// activities, subjects) shares. The query string's page and page size, `?ordering=` over a field
// map, the total as a scalar count beside the page, prepared queries cached by shape, and the DRF
// page body. Filters are read with the parsers of query-params.ts (booleans, ids, dates) or, for
// registerResource's declared filters, by filterConditions (resource-query.ts) on the same parsers.

/** At most this many `?ordering=` terms are used (more could only repeat a column). */
export const MAX_ORDERING_TERMS = 8;

/** A list's ORDER BY and its shape key (the recognised terms, e.g. `-created_at,-id`). */
export interface Ordering {
  order: SQL[];
  key: string;
}

export interface OrderingRule {
  /** `?ordering` name → column; only own keys count (`__proto__`, `toString` name none). */
  fields: Readonly<Record<string, AnyColumn>>;
  /** The id column: always orderable as `id`, and the last term (a stable order). */
  id: AnyColumn;
  /** The ordering when none (or an empty one) is asked for. */
  fallback: string;
  /**
   * The id tiebreaker's direction: `follow` (default) that of the first requested term,
   * `asc` always ascending.
   */
  tiebreak?: 'follow' | 'asc';
}

/**
 * `?ordering=-a,b` over the rule's fields (unknown names ignored, as DRF does), id as the
 * tiebreaker: the one ordering parser of every list.
 */
export function parseOrdering(requested: string | undefined, rule: OrderingRule): Ordering {
  const spec = requested || rule.fallback;
  const order: SQL[] = [];
  const key: string[] = [];
  for (const part of spec.split(',')) {
    if (key.length >= MAX_ORDERING_TERMS) break;
    const descending = part.startsWith('-');
    const name = descending ? part.slice(1) : part;
    const column =
      name === 'id' ? rule.id : Object.hasOwn(rule.fields, name) ? rule.fields[name] : undefined;
    if (column) {
      order.push(descending ? desc(column) : asc(column));
      key.push(part);
    }
  }
  const last = rule.tiebreak !== 'asc' && spec.startsWith('-');
  order.push(last ? desc(rule.id) : asc(rule.id));
  key.push(last ? '-id' : 'id');
  return { order, key: key.join(',') };
}

/** `?page=` and `?page_size=` (≤100) as the page, its size and the rows to skip. */
export function listPage(query: { page?: number | undefined; page_size?: number | undefined }): {
  page: number;
  pageSize: number;
  offset: number;
} {
  const { page, pageSize } = pageOf(query);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/**
 * A list's total as a column of its page query: `count` (a `select count(*) ...` with the list's
 * conditions) as an uncorrelated scalar subquery, computed once per statement. Not
 * `count(*) over()`: the window would fetch every matching row (and its joins) to number them,
 * while the subquery can count from an index and the page reads just its rows. The page and
 * its total stay one statement (one round trip); an empty page reads a total of 0.
 */
export function totalColumn(count: SQLWrapper) {
  return sql<number>`(${count})`.mapWith(Number);
}

/**
 * Where a list's total is counted only up to here (issue 28): counting every match of a big
 * customer's audit log or a broad search costs as much as reading them all. Past it the page says
 * `count: COUNT_CAP` and `count_capped: true` (shown as "10,000+").
 */
export const COUNT_CAP = 10_000;

/**
 * `select count(*)` of at most COUNT_CAP + 1 of `rows` (a select of the list's matching rows, its
 * columns unused): the total for `totalColumn`, read with `pageResponse(..., capped = true)`.
 */
export function cappedCount(rows: SQLWrapper): SQL {
  return sql`select count(*) from (${rows} limit ${sql.raw(String(COUNT_CAP + 1))}) capped`;
}

/**
 * Prepared list queries by shape (which filters, how many values, ordering: never the values),
 * built and prepared once each (decision 006); capped so odd shapes cannot grow it for ever.
 */
export class PreparedShapes<P> {
  private readonly byShape = new Map<string, P>();
  constructor(
    private readonly name: string,
    private readonly max = 256,
  ) {}

  /** The prepared query of `shape`; `prepare(name)` builds it the first time. */
  get(shape: string, prepare: (name: string) => P): P {
    let prepared = this.byShape.get(shape);
    if (!prepared) {
      prepared = prepare(`${this.name}${this.byShape.size}`);
      if (this.byShape.size < this.max) this.byShape.set(shape, prepared);
    }
    return prepared;
  }
}

/** The DRF list body. */
export function pageResponse<R>(
  request: FastifyRequest,
  path: string,
  page: number,
  pageSize: number,
  count: number,
  results: R[],
  /** `count` was counted up to COUNT_CAP + 1 (`cappedCount`): above the cap it says so. */
  capped = false,
): Page<R> {
  const over = capped && count > COUNT_CAP;
  return {
    count: over ? COUNT_CAP : count,
    ...(over ? { count_capped: true as const } : {}),
    next: page * pageSize < count ? pageUrl(request, path, page + 1) : null,
    previous: page > 1 ? pageUrl(request, path, page - 1) : null,
    results,
  };
}
