// Drizzle handles over a driver's queries: one per transaction, and `compileDb` to prepare on.
import { AsyncLocalStorage } from 'node:async_hooks';
import { fillPlaceholders } from 'drizzle-orm';
import { drizzle as drizzleProxy } from 'drizzle-orm/pg-proxy';
import { isRecord } from './rows.js';
import type { Queryable, Tx } from './types.js';

/** Set while a transaction's callback runs (see `notNested`). */
export const openTransaction = new AsyncLocalStorage<true>();

/**
 * Refuses a transaction opened inside another: PGlite has one connection and would wait for
 * ever, and on PostgreSQL the inner one would commit independently. Pass the open `tx` instead.
 */
export function notNested<T>(fn: () => Promise<T>): Promise<T> {
  if (openTransaction.getStore()) {
    return Promise.reject(new Error('Nested database transaction: use the open tx instead'));
  }
  return openTransaction.run(true, fn);
}

/** The driver queries behind each transaction handle. */
const queryableOf = new WeakMap<Tx, Queryable>();

/** A Drizzle handle whose queries run on `q` (one open transaction). */
export function drizzleOver(q: Queryable): Tx {
  const tx = drizzleProxy(async (text, params, method) =>
    q.query(text, params, method === 'all' ? 'array' : 'object'),
  );
  queryableOf.set(tx, q);
  return tx;
}

const preparedRunsOn = new AsyncLocalStorage<Queryable>();

/**
 * A Drizzle handle bound to no transaction, to build queries once and `.prepare()` them (values
 * as `sql.placeholder`s): building a query's SQL costs more Node time than a hot read's
 * execution. Run the prepared query with `executePrepared(tx, ...)`; alone it refuses to run.
 */
export const compileDb: Tx = drizzleProxy(async (text, params, method) => {
  const q = preparedRunsOn.getStore();
  if (!q) throw new Error('A query prepared on compileDb runs only through executePrepared');
  return q.query(text, params, method === 'all' ? 'array' : 'object');
});

/**
 * Runs a query prepared on `compileDb` in `tx` and returns its raw rows (arrays in select
 * order, driver values: timestamps as PostgreSQL's text), skipping Drizzle's row mapping: for
 * hot lists whose presenter writes the JSON itself.
 */
export async function executePreparedRows(
  tx: Tx,
  prepared: { getQuery(): { sql: string; params: unknown[] } },
  values: Record<string, unknown>,
): Promise<unknown[][]> {
  const q = queryableOf.get(tx);
  if (!q) throw new Error('executePreparedRows needs an open transaction handle');
  const { sql: text, params } = prepared.getQuery();
  const { rows } = await q.query(text, fillPlaceholders(params, values), 'array');
  return rows.filter((r): r is unknown[] => Array.isArray(r));
}

/**
 * Runs raw SQL text with positional parameters in the open transaction `tx` (rows as objects):
 * for a library that brings its own SQL, such as the job queue's insert.
 */
export async function txQuery(
  tx: Tx,
  text: string,
  values: readonly unknown[],
): Promise<{ rows: Record<string, unknown>[] }> {
  const q = queryableOf.get(tx);
  if (!q) throw new Error('txQuery needs an open transaction handle');
  const { rows } = await q.query(text, [...values], 'object');
  return { rows: rows.filter(isRecord) };
}

/** Runs a query prepared on `compileDb` in the open transaction `tx`, with these values. */
export function executePrepared<T>(
  tx: Tx,
  prepared: { execute(values?: Record<string, unknown>): Promise<T> },
  values: Record<string, unknown>,
): Promise<T> {
  const q = queryableOf.get(tx);
  if (!q) throw new Error('executePrepared needs an open transaction handle');
  return preparedRunsOn.run(q, () => prepared.execute(values));
}
