// PostgreSQL through node-postgres: the `Database` over the serving and owner pools, the pools.
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { channelName, PgListener } from './listener.js';
import { releaseAfter, withClient } from './pg-exec.js';
import { ReadBatcher } from './read-batch.js';
import { ReadCache, tracked } from './read-cache.js';
import { LOGIN_ROLE } from './roles.js';
import { isRecord, lastRows } from './rows.js';
import { beginSql } from './settings.js';
import { drizzleOver, notNested, openTransaction } from './tx.js';
import type { Database, Queryable, TxSettings } from './types.js';

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
    caughtUp() {
      return listener.sync();
    },
    async close() {
      await listener.close();
      await pool.end();
      if (ownerPool !== pool) await ownerPool.end();
    },
  };
}

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

/**
 * How long a request waits for a connection (a free one of the pool, or a new one to open)
 * before it answers 503: a database behind a network that drops packets, rather than refusing
 * them, would otherwise leave requests waiting for minutes.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

export function openPgPool(
  url: string,
  max = 20,
  idleTimeoutMillis = 10_000,
  connectionTimeoutMillis = CONNECT_TIMEOUT_MS,
): pg.Pool {
  // Generic plans for prepared statements: every query is tenant-scoped by row-level security and
  // served by (customer_id, ...) indexes, so a plan made once fits every tenant; re-planning per
  // execution (the default's custom plans) cost more than executing a page. No JIT: a generic
  // plan's estimates (every customer's rows, the row-level security subplans) pass
  // jit_above_cost, and compiling the case list's expressions took 250-600 ms per execution
  // against 0.1-2 ms without (issue 28); these short statements never gain from it.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis,
    connectionTimeoutMillis,
    // TCP keep-alive probes find a connection whose peer vanished without a word (a host or
    // network gone) while it waits idle in the pool, so it is dropped rather than handed out.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options: '-c TimeZone=UTC -c plan_cache_mode=force_generic_plan -c jit=off',
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
