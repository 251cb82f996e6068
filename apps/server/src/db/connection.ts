import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from './driver/errors.js';
import { inlineParams, sqlLiteral } from './driver/inline-params.js';
import { channelName, PgListener } from './driver/listener.js';
import { pgliteParsers, pgTypes } from './driver/parsers.js';
import { ReadCache, tracked } from './driver/read-cache.js';
import { LOGIN_ROLE } from './driver/roles.js';
import { isRecord, lastRows } from './driver/rows.js';
import { beginSql, pgliteSettingsSql } from './driver/settings.js';
import { drizzleOver, notNested, openTransaction } from './driver/tx.js';
import type { Database, Queryable, RowMode, TxSettings } from './driver/types.js';

export { isDatabaseUnavailable } from './driver/errors.js';
export { inlineParams } from './driver/inline-params.js';
export { APP_ROLE, LOGIN_ROLE, OPS_ROLE, SUBJECT_ROLE } from './driver/roles.js';
export { compileDb, executePrepared, executePreparedRows, txQuery } from './driver/tx.js';
export type { Database, RowMode, Tx, TxSettings } from './driver/types.js';

// ---------------------------------------------------------------- PGlite

function pgliteQueryable(tx: PgliteTransaction | PGlite): Queryable {
  return {
    async query(text, params, rowMode) {
      const r = await tx.query(text, params, { rowMode, parsers: pgliteParsers });
      return { rows: r.rows };
    },
  };
}

/** Wraps an open PGlite instance. */
export function pgliteDatabase(client: PGlite): Database {
  const cache = new ReadCache();
  const readInline = (settings: TxSettings, sqlText: string) =>
    notNested(() =>
      client.transaction(async (tx) => {
        const results = await tx.exec(`${pgliteSettingsSql(settings)}; ${sqlText}`);
        return lastRows(results);
      }),
    );
  return {
    kind: 'pglite',
    transaction(settings, fn) {
      return tracked(cache, settings, () =>
        notNested(() =>
          client.transaction(async (tx) => {
            await tx.exec(pgliteSettingsSql(settings));
            return fn(drizzleOver(pgliteQueryable(tx)));
          }),
        ),
      );
    },
    readInline,
    readCached(settings, sqlText, ttlMs) {
      return cache.read(settings, sqlText, ttlMs, () => readInline(settings, sqlText));
    },
    ownerTransaction(fn) {
      return notNested(() =>
        client.transaction(async (tx) => fn(drizzleOver(pgliteQueryable(tx)))),
      ).finally(() => cache.written('owner'));
    },
    async ownerExec(sqlText) {
      await client.exec(sqlText).finally(() => cache.written('owner'));
    },
    async ownerQuery(text, values) {
      if (openTransaction.getStore()) throw new Error('ownerQuery inside a transaction');
      // PGlite's query and exec take the same lock as a transaction: they never run inside one.
      if (values && values.length > 0) {
        const r = await client.query(text, [...values]);
        return { rows: r.rows.filter(isRecord) };
      }
      try {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows.filter(isRecord) ?? [] };
      } catch (err) {
        // A failed BEGIN ... COMMIT block leaves the one session in an aborted transaction.
        if (client.isInTransaction()) await client.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
    async migrate(folder) {
      await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
      cache.written('owner');
    },
    servingLogin: () => null,
    async ping() {
      await client.query('select 1');
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channelName(channel), payload]);
    },
    async listen(channel, fn) {
      await client.listen(channelName(channel), (payload) => fn(payload));
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/** Opens the embedded database: on disk under `dataDir`, or in memory when null. */
export async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<PGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the trigram indexes of free-text search (migration 0001 creates the extension).
  const extensions = { pg_trgm };
  const client = await PGlite.create(
    dataDir ?? undefined,
    loadDataDir ? { loadDataDir, extensions } : { extensions },
  );
  await client.exec(`SET TIME ZONE 'UTC'`);
  return client;
}

// ---------------------------------------------------------------- node-postgres

/**
 * Server-side prepared statements, so PostgreSQL plans a hot query once per connection rather
 * than on every request (planning costs more than executing a 25-row page). Each distinct query
 * text gets one name for the process; a connection PREPAREs it the first time it needs it (one
 * extra round trip, outside any transaction), then runs `EXECUTE name(literals)` inside the
 * transaction's single message. PostgreSQL re-plans by itself when the role changes (row-level
 * security) or a table changes. Texts PostgreSQL cannot prepare (a parameter of undeterminable
 * type) are remembered and sent inlined, as before.
 */
const MAX_PREPARED = 500;
const statementNames = new Map<string, string>();
const unpreparable = new Set<string>();
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

function statementName(text: string, prefix: string): string | null {
  if (unpreparable.has(text)) return null;
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= MAX_PREPARED) return null;
    name = String(statementNames.size + 1);
    statementNames.set(text, name);
  }
  return `${prefix}${name}`;
}

/**
 * `EXECUTE name(literals)` for `text` on this connection, preparing it first when needed; null
 * when a value is not plainly inlinable or the text cannot be prepared (send it another way).
 * Call only while the connection is outside a transaction.
 */
async function executeStatement(
  client: pg.PoolClient,
  text: string,
  values: readonly unknown[],
): Promise<string | null> {
  const literals: string[] = [];
  for (const v of values) {
    const l = sqlLiteral(v);
    if (l === null) return null;
    literals.push(l);
  }
  const name = statementName(text, 'kestrel_s');
  if (name === null) return null;
  let done = preparedOn.get(client);
  if (!done) {
    done = new Set();
    preparedOn.set(client, done);
  }
  if (!done.has(name)) {
    try {
      await client.query(`PREPARE ${name} AS ${text}`);
    } catch (err) {
      // PostgreSQL refused the text (an SQLSTATE code): send it inlined from now on. Anything
      // else (a broken connection, even one with an SQLSTATE such as 57P01) is the caller's error.
      if (!(err instanceof Error && 'code' in err && typeof err.code === 'string')) throw err;
      if (isDatabaseUnavailable(err)) throw err;
      unpreparable.add(text);
      return null;
    }
    done.add(name);
  }
  return literals.length ? `EXECUTE ${name}(${literals.join(', ')})` : `EXECUTE ${name}`;
}

/** The BEGIN (and settings) of a transaction whose first query has not been sent yet. */
interface LazyBegin {
  sql: string | null;
}

/** The rows of the result `fromEnd` from the end (0: `results` is that one result). */
function resultRows(results: unknown, fromEnd: number): unknown[] {
  const r: unknown =
    Array.isArray(results) && fromEnd > 0 ? results[results.length - fromEnd] : results;
  return r && typeof r === 'object' && 'rows' in r && Array.isArray(r.rows) ? r.rows : [];
}

/**
 * Gives a client back after `err`: a lost connection is dropped at once (a ROLLBACK would only
 * wait for the socket to close); otherwise the transaction is rolled back, and the client
 * dropped if even that fails.
 */
async function releaseAfter(client: pg.PoolClient, err: unknown): Promise<void> {
  if (isDatabaseUnavailable(err)) {
    client.release(true);
    return;
  }
  await client.query('ROLLBACK').then(
    () => client.release(),
    () => client.release(true),
  );
}

async function queryPg(
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
function pgReadQueryable(client: pg.PoolClient, beginSql: string): Queryable {
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

/** One read-only statement on its own: a pooled client, BEGIN, the statement and COMMIT. */
async function readAlone(
  pool: pg.Pool,
  beginSql: string,
  text: string,
  values: unknown[],
  rowMode: RowMode,
): Promise<{ rows: unknown[] }> {
  const client = await pool.connect();
  try {
    const out = await pgReadQueryable(client, beginSql).query(text, values, rowMode);
    client.release();
    return out;
  } catch (err) {
    // pgReadQueryable rolled back; a broken connection is not reused.
    await releaseAfter(client, err);
    throw err;
  }
}

interface BatchItem {
  beginSql: string;
  /** How many statements `beginSql` holds (BEGIN and the settings). */
  beginStatements: number;
  text: string;
  values: unknown[];
  rowMode: RowMode;
  resolve: (out: { rows: unknown[] }) => void;
  reject: (err: unknown) => void;
}

/** At most this many transactions in one message (one backend runs them one after another). */
export const MAX_READ_BATCH = 8;

/**
 * Read-only statements of concurrent requests travel together: the statements queued while the
 * event loop handles one round of I/O go out in one message on one connection, each as its own
 * transaction (`BEGIN; settings; statement; COMMIT`, so each keeps its own role, tenant and
 * snapshot, and SET LOCAL ends with its COMMIT as ever), and the answers are split back by
 * position. Sending a message wakes a PostgreSQL backend, and on a loaded (virtual) machine that
 * system call was the largest single cost of a list request; a batch pays it once.
 *
 * A statement alone in its round goes as before. When any statement of a batch fails,
 * PostgreSQL skips the rest of the message: the connection is rolled back and each statement of
 * the batch runs again on its own, so each request gets exactly its own answer or error (they
 * are reads, so running one again changes nothing).
 */
class ReadBatcher {
  private queue: BatchItem[] = [];
  private scheduled = false;

  constructor(private readonly pool: pg.Pool) {}

  query(
    begin: { sql: string; statements: number },
    text: string,
    values: unknown[],
    rowMode: RowMode,
  ): Promise<{ rows: unknown[] }> {
    return new Promise((resolve, reject) => {
      const beginSql = begin.sql;
      const beginStatements = begin.statements;
      this.queue.push({ beginSql, beginStatements, text, values, rowMode, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const items = this.queue;
    this.queue = [];
    for (const mode of ['array', 'object'] as const) {
      const same = items.filter((i) => i.rowMode === mode);
      for (let i = 0; i < same.length; i += MAX_READ_BATCH) {
        const batch = same.slice(i, i + MAX_READ_BATCH);
        // send settles every item itself; should it throw, none is left waiting (settling a
        // promise twice changes nothing) and no rejection goes unhandled.
        this.send(batch).catch((err: unknown) => {
          for (const item of batch) item.reject(err);
        });
      }
    }
  }

  private alone(item: BatchItem): void {
    readAlone(this.pool, item.beginSql, item.text, item.values, item.rowMode).then(
      item.resolve,
      item.reject,
    );
  }

  private async send(batch: BatchItem[]): Promise<void> {
    const [only] = batch;
    if (only && batch.length === 1) {
      this.alone(only);
      return;
    }
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      for (const item of batch) item.reject(err);
      return;
    }
    const parts: string[] = [];
    const sent: BatchItem[] = [];
    let reached = 0;
    try {
      for (const item of batch) {
        reached += 1;
        const inlined =
          (await executeStatement(client, item.text, item.values)) ??
          inlineParams(item.text, item.values);
        if (inlined === null) this.alone(item);
        else {
          parts.push(`${item.beginSql}; ${inlined}; COMMIT`);
          sent.push(item);
        }
      }
    } catch {
      // The connection broke while preparing: every statement runs on its own elsewhere
      // (those not reached yet too).
      client.release(true);
      for (const item of [...sent, ...batch.slice(reached - 1)]) this.alone(item);
      return;
    }
    const mode = sent[0]?.rowMode;
    if (mode === undefined) {
      client.release();
      return;
    }
    let answers: unknown[][];
    try {
      const results = await queryPg(client, parts.join('; '), undefined, mode);
      const list: unknown[] = Array.isArray(results) ? results : [results];
      answers = [];
      let at = 0;
      for (const item of sent) {
        // BEGIN and the settings, then the statement, then COMMIT.
        answers.push(resultRows(list[at + item.beginStatements], 0));
        at += item.beginStatements + 2;
      }
      if (at !== list.length) throw new Error('read batch: answers out of step');
    } catch (err) {
      await releaseAfter(client, err);
      for (const item of sent) this.alone(item);
      return;
    }
    client.release();
    for (const [i, item] of sent.entries()) item.resolve({ rows: answers[i] ?? [] });
  }
}

async function withClient<T>(
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

/**
 * Wraps node-postgres pools: `pool` serves requests (every transaction sets a context role),
 * `ownerPool` (the owner of the tables, DATABASE_URL) runs migrations and owner work only.
 */
export function pgDatabase(pool: pg.Pool, ownerPool: pg.Pool = pool): Database {
  const cache = new ReadCache();
  const batcher = new ReadBatcher(pool);
  const listener = new PgListener(pool.options);
  const readInline = async (settings: TxSettings, sqlText: string) => {
    if (openTransaction.getStore()) throw new Error('Nested database transaction');
    const client = await pool.connect();
    let results: unknown;
    try {
      results = await client.query(`${beginSql(settings)}; ${sqlText}; COMMIT`);
    } catch (err) {
      await releaseAfter(client, err);
      throw err;
    }
    client.release();
    return lastRows(results);
  };
  return {
    kind: 'pg',
    transaction(settings, fn) {
      const sqlBegin = beginSql(settings);
      if (settings.readOnly) {
        // Each statement its own read-only transaction, sent with its concurrent peers. The
        // settings hold no ';' (integers and names only), so splitting counts their statements.
        const begin = { sql: sqlBegin, statements: sqlBegin.split(';').length };
        const q: Queryable = {
          query: (text, values, rowMode) => batcher.query(begin, text, values, rowMode),
        };
        return notNested(() => fn(drizzleOver(q)));
      }
      return tracked(cache, settings, () =>
        notNested(() => withClient(pool, sqlBegin, (q) => fn(drizzleOver(q)))),
      );
    },
    readInline,
    readCached(settings, sqlText, ttlMs) {
      return cache.read(settings, sqlText, ttlMs, () => readInline(settings, sqlText));
    },
    ownerTransaction(fn) {
      return notNested(() => withClient(ownerPool, 'BEGIN', (q) => fn(drizzleOver(q)))).finally(
        () => cache.written('owner'),
      );
    },
    async ownerExec(sqlText) {
      await ownerPool.query(sqlText).finally(() => cache.written('owner'));
    },
    async ownerQuery(text, values) {
      if (openTransaction.getStore()) throw new Error('ownerQuery inside a transaction');
      // A failed text (one holding BEGIN ... COMMIT included) never leaves an aborted
      // transaction on a pooled connection: pool.query discards a client whose query failed.
      // The owner's pool: the queue's schema is the owner's, and the serving login may only
      // become the context roles (the job handlers' own work runs in those, as requests do).
      const r: unknown = await ownerPool.query(text, values ? [...values] : undefined);
      const last: unknown = Array.isArray(r) ? r.at(-1) : r;
      const rows =
        last && typeof last === 'object' && 'rows' in last && Array.isArray(last.rows)
          ? last.rows.filter(isRecord)
          : [];
      return { rows };
    },
    async migrate(folder) {
      await migrateNodePg(drizzleNodePg(ownerPool), { migrationsFolder: folder });
      cache.written('owner');
    },
    servingLogin() {
      const serving = loginOf(pool);
      return ownerPool === pool || serving.user === loginOf(ownerPool).user ? null : serving;
    },
    async ping() {
      await pool.query('select 1');
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channelName(channel), payload]);
    },
    listen(channel, fn) {
      return listener.listen(channel, fn);
    },
    async close() {
      await listener.close();
      await pool.end();
      if (ownerPool !== pool) await ownerPool.end();
    },
  };
}

// ---------------------------------------------------------------- serving login

/** The user and password a pool logs in with (from its connection string). */
function loginOf(pool: pg.Pool): { user: string; password: string | null } {
  const url = new URL(pool.options.connectionString ?? 'postgres://localhost');
  const user = decodeURIComponent(url.username) || pool.options.user || process.env.PGUSER || '';
  return { user, password: url.password ? decodeURIComponent(url.password) : null };
}

/**
 * The URL requests are served through: DATABASE_APP_URL when set, otherwise DATABASE_URL's
 * server and database as LOGIN_ROLE, without a password (for trust or peer authentication;
 * set DATABASE_APP_URL to give one).
 */
export function servingUrl(ownerUrl: string, appUrl: string | null = null): string {
  if (appUrl) return appUrl;
  const url = new URL(ownerUrl);
  url.username = LOGIN_ROLE;
  url.password = '';
  return url.toString();
}

export function openPgPool(url: string, max = 20, idleTimeoutMillis = 10_000): pg.Pool {
  // Generic plans for prepared statements: every query is tenant-scoped by row-level security and
  // served by (customer_id, ...) indexes, so a plan made once fits every tenant; re-planning per
  // execution (the default's custom plans) cost more than executing a page.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis,
    options: '-c TimeZone=UTC -c plan_cache_mode=force_generic_plan',
  });
  pool.on('error', () => {
    // An idle client died (server restart); the pool replaces it. Queries report their own errors.
  });
  // pg-pool listens for a client's 'error' only while it is idle: one lost while checked out (a
  // terminated backend, a restart, mid-transaction or between two queries) would emit 'error'
  // with nobody listening, which ends the process. This listener stays for the client's whole
  // life (added once per connection, not per query). The query in flight fails on its own, and
  // the pool drops the client when it is released (it is no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

/**
 * Opens the database the configuration names. On PostgreSQL two pools: requests through the
 * serving login (`servingUrl`), migrations and the job queue's own statements through
 * DATABASE_URL (a small pool whose idle connections close after a few seconds).
 */
export async function openDatabase(opts: {
  databaseUrl: string | null;
  databaseAppUrl?: string | null;
  dataDir: string | null;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const serving = servingUrl(opts.databaseUrl, opts.databaseAppUrl ?? null);
    if (serving === opts.databaseUrl) return pgDatabase(openPgPool(opts.databaseUrl));
    return pgDatabase(openPgPool(serving), openPgPool(opts.databaseUrl, 4, 5_000));
  }
  return pgliteDatabase(await openPglite(opts.dataDir));
}
