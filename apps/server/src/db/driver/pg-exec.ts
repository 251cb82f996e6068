// Statement execution on a pooled node-postgres client: lazy BEGIN, one round trip, COMMIT.
import type pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';
import { inlineParams } from './inline-params.js';
import { pgTypes } from './parsers.js';
import { executeStatement, statementName } from './prepared.js';
import type { Queryable, RowMode } from './types.js';

/** The BEGIN (and settings) of a transaction whose first query has not been sent yet. */
interface LazyBegin {
  sql: string | null;
}

/** The rows of the result `fromEnd` from the end (0: `results` is that one result). */
export function resultRows(results: unknown, fromEnd: number): unknown[] {
  const r: unknown =
    Array.isArray(results) && fromEnd > 0 ? results[results.length - fromEnd] : results;
  return r && typeof r === 'object' && 'rows' in r && Array.isArray(r.rows) ? r.rows : [];
}

/**
 * Gives a client back after `err`: a lost connection is dropped at once (a ROLLBACK would only
 * wait for the socket to close); otherwise the transaction is rolled back, and the client
 * dropped if even that fails.
 */
export async function releaseAfter(client: pg.PoolClient, err: unknown): Promise<void> {
  if (isDatabaseUnavailable(err)) {
    client.release(true);
    return;
  }
  await client.query('ROLLBACK').then(
    () => client.release(),
    () => client.release(true),
  );
}

export async function queryPg(
  client: pg.PoolClient,
  text: string,
  values: unknown[] | undefined,
  rowMode: RowMode,
): Promise<unknown> {
  // With parameters, a named (extended-protocol) statement: parsed and planned once per
  // connection by the driver, like the EXECUTE path above.
  const name = values?.length ? statementName(text, 'kestrel_n') : null;
  const config = name === null ? { text, values } : { name, text, values };
  return rowMode === 'array'
    ? client.query({ ...config, rowMode: 'array', types: pgTypes })
    : client.query({ ...config, types: pgTypes });
}

/**
 * Queries on one pooled client. The transaction's BEGIN and settings travel with its first
 * query, in one round trip (simple protocol, parameters inlined as literals); when the query's
 * parameters cannot be inlined, BEGIN goes first on its own.
 */
function pgQueryable(client: pg.PoolClient, begin: LazyBegin): Queryable {
  return {
    async query(text, values, rowMode) {
      const prefix = begin.sql;
      if (prefix !== null) {
        begin.sql = null;
        const inlined =
          (await executeStatement(client, text, values)) ?? inlineParams(text, values);
        if (inlined !== null) {
          const results = await queryPg(client, `${prefix}; ${inlined}`, undefined, rowMode);
          return { rows: resultRows(results, 1) };
        }
        await client.query(prefix);
      }
      const r = await queryPg(client, text, values, rowMode);
      return { rows: resultRows(r, 1) };
    },
  };
}

/**
 * Queries of a READ ONLY transaction: each statement runs in its own transaction with the same
 * role and settings, BEGIN and COMMIT in the same round trip as the statement. Under READ
 * COMMITTED every statement takes its own snapshot anyway, and nothing is written, so this reads
 * exactly what one transaction would, without a separate COMMIT.
 */
export function pgReadQueryable(client: pg.PoolClient, beginSql: string): Queryable {
  return {
    async query(text, values, rowMode) {
      const inlined = (await executeStatement(client, text, values)) ?? inlineParams(text, values);
      try {
        if (inlined !== null) {
          const results = await queryPg(
            client,
            `${beginSql}; ${inlined}; COMMIT`,
            undefined,
            rowMode,
          );
          return { rows: resultRows(results, 2) };
        }
        await client.query(beginSql);
        const r = await queryPg(client, text, values, rowMode);
        await client.query('COMMIT');
        return { rows: resultRows(r, 1) };
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
  };
}

export async function withClient<T>(
  pool: pg.Pool,
  beginSql: string,
  fn: (q: Queryable) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const begin: LazyBegin = { sql: beginSql };
  let result: T;
  try {
    result = await fn(pgQueryable(client, begin));
  } catch (err) {
    if (begin.sql !== null) {
      client.release(); // nothing was sent
      throw err;
    }
    await releaseAfter(client, err);
    throw err;
  }
  if (begin.sql !== null) {
    // No query ran: no transaction was opened.
    client.release();
    return result;
  }
  let commit: pg.QueryResult;
  try {
    commit = await client.query('COMMIT');
  } catch (err) {
    // Not committed, or not known to be: never answered as done.
    client.release(true);
    throw err;
  }
  client.release();
  // A transaction a failed statement aborted (its error caught and ignored) answers COMMIT with
  // ROLLBACK, not an error: nothing was kept, so it must not be answered as done either.
  if (commit.command === 'ROLLBACK')
    throw new Error('The transaction was rolled back, not committed');
  return result;
}
