import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { fillPlaceholders } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzleProxy, type PgRemoteDatabase } from 'drizzle-orm/pg-proxy';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

/** The application's database role: not a superuser, cannot bypass RLS, owns no tables. */
export const APP_ROLE = 'kestrel_app';
/** The role of the explicit cross-tenant context; equally unprivileged, policies allow all rows. */
export const OPS_ROLE = 'kestrel_ops';
/** The role of a subject user's requests: the tenant, further limited to the subject's own rows. */
export const SUBJECT_ROLE = 'kestrel_subject';
/**
 * The login the server serves requests through on PostgreSQL when DATABASE_APP_URL is not set:
 * DATABASE_URL's server and database as this role (created by the migrations, see
 * `loginRoleSql`). It owns nothing and may only become the three roles above.
 */
export const LOGIN_ROLE = 'kestrel_login';

/** A Drizzle handle bound to one open transaction. Every repository takes one as first argument. */
export type Tx = PgRemoteDatabase<Record<string, never>>;

/**
 * What a transaction runs as. `tenant` sees only `customerId`'s rows (none when null);
 * `all` is the explicit cross-tenant context for ops lists, login look-ups and sessions.
 */
export interface TxSettings {
  scope: 'tenant' | 'all';
  customerId: number | null;
  /** Set for subject users: the transaction runs as kestrel_subject, limited to their own rows. */
  subjectId?: number | null;
  /** The acting user (product or subject), for policies and triggers that want it. */
  userId?: number | null;
  /**
   * READ ONLY. On PostgreSQL each statement then runs in its own read-only transaction with the
   * same role and settings, BEGIN and COMMIT in the statement's round trip (READ COMMITTED gives
   * each statement its own snapshot anyway), sent in one message with the read-only statements
   * of concurrent requests (ReadBatcher): pure reads only.
   */
  readOnly?: boolean;
}

export type RowMode = 'array' | 'object';

/** The minimum both drivers offer inside a transaction. */
interface Queryable {
  query(text: string, params: unknown[], rowMode: RowMode): Promise<{ rows: unknown[] }>;
}

export interface Database {
  readonly kind: 'pglite' | 'pg';
  /**
   * Runs `fn` in one transaction as the application role with the tenant set. BEGIN, SET LOCAL
   * ROLE and the settings travel in one round trip; the settings are transaction-local so they
   * never leak into the next transaction on the same connection.
   */
  transaction<T>(settings: TxSettings, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs trusted SQL text (no parameters: only integers and hex may be inlined) in one round trip
   * inside a transaction with the settings applied; returns the rows of the last statement.
   */
  readInline(settings: TxSettings, sqlText: string): Promise<Record<string, unknown>[]>;
  /**
   * `readInline` whose answer is reused in this process for up to `ttlMs` (hot polled reads such
   * as check-session's active flag count). A write transaction of the same customer, of a user
   * in the cross-tenant context, or of the owner, once finished in this process, drops the
   * cached answers it could change; writes made by other processes show within `ttlMs`.
   * `ttlMs` 0 reads every time.
   */
  readCached(
    settings: TxSettings,
    sqlText: string,
    ttlMs: number,
  ): Promise<Record<string, unknown>[]>;
  /** Runs `fn` in a transaction as the connecting (owner) role: migrations, seeds, tests only. */
  ownerTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs multi-statement SQL as the owner (migrations' companion SQL). */
  ownerExec(sqlText: string): Promise<void>;
  /**
   * Runs one statement with parameters, or parameterless text of several statements (which may
   * hold its own BEGIN/COMMIT), as the owner outside any transaction the app opens, and returns
   * the rows of the last one. Not tracked by the read cache: only for tables no cached read
   * depends on (the job queue's pgboss schema). On PGlite it waits for the open transaction,
   * as a transaction does.
   */
  ownerQuery(
    text: string,
    values?: readonly unknown[],
  ): Promise<{ rows: Record<string, unknown>[] }>;
  /** Applies the generated SQL migrations in `folder` (as the owner). */
  migrate(folder: string): Promise<void>;
  /**
   * The login that serves requests when it is not the owner's (PostgreSQL with two pools): the
   * migrations create it. Null on PGlite and when requests are served through the owner's URL.
   */
  servingLogin(): { user: string; password: string | null } | null;
  ping(): Promise<void>;
  /**
   * Sends `payload` on `channel` to every server process on this database, this one included
   * (PostgreSQL NOTIFY, outside any transaction). Cache invalidation between processes.
   */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Calls `fn` with every payload sent on `channel` (LISTEN, on a connection of its own). `fn(null)`
   * means messages may have been missed (the listening connection was lost and is back): drop
   * whatever the messages keep fresh.
   */
  listen(channel: string, fn: (payload: string | null) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * SQLSTATEs of a connection that is lost or refused: class 08 (connection exception), the server
 * shutting down, crashed, starting up or its database dropped (57P01-57P04), session timeouts
 * that end the connection (57P05, 25P03), and too many connections (53300).
 */
const UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[1-5]|25P03|53300)$/;
/** Socket errors of a server that cannot be reached. */
const UNAVAILABLE_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own errors for a connection that broke, or a pool that is closing. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end)/;

/**
 * True when `err` (or what it wraps: Drizzle's query error, an AggregateError of connection
 * attempts) says the database cannot be reached or the connection was lost, rather than that
 * the database refused the statement: the request may succeed later (503).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  const code = 'code' in err ? err.code : undefined;
  if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || UNAVAILABLE_SOCKET.has(code))) {
    return true;
  }
  if (UNAVAILABLE_MESSAGE.test(err.message)) return true;
  if (
    err instanceof AggregateError &&
    err.errors.some((e) => isDatabaseUnavailable(e, depth + 1))
  ) {
    return true;
  }
  return isDatabaseUnavailable(err.cause, depth + 1);
}

const CHANNEL = /^[a-z_]{1,63}$/;
function channelName(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notification channel ${channel}`);
  return channel;
}

/**
 * LISTEN on a dedicated connection (never a pooled one: a pooled connection is shared by
 * transactions), with TCP keepalive and a heartbeat query every `heartbeatMs`, so that a link
 * dropped silently (a firewall, a failover) is noticed. When it is lost, idle or in the middle of
 * a query, every listener hears `null` and it reconnects after a second, for as long as it takes.
 * A `listen` while the database cannot be reached does not fail: the channel is listened to once
 * the connection is back.
 */
class PgListener {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly handlers = new Map<string, Set<(payload: string | null) => void>>();
  private closed = false;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retrying = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly heartbeatMs = 30_000,
  ) {}

  async listen(channel: string, fn: (payload: string | null) => void): Promise<void> {
    const name = channelName(channel);
    const known = this.handlers.get(name);
    if (known) known.add(fn);
    else this.handlers.set(name, new Set([fn]));
    try {
      const client = this.client ?? (await this.connect());
      if (!known) await client.query(`LISTEN ${name}`);
    } catch (err) {
      // Lost on the way: the reconnection listens to every channel known by then.
      if (this.closed || !isDatabaseUnavailable(err)) throw err;
      this.retry();
    }
  }

  private connect(): Promise<pg.Client> {
    this.connecting ??= (async () => {
      const client = new pg.Client({ ...this.config, keepAlive: true });
      client.on('notification', (m) => {
        for (const h of this.handlers.get(m.channel) ?? []) h(m.payload ?? '');
      });
      client.on('error', () => this.lost(client));
      client.on('end', () => this.lost(client));
      try {
        await client.connect();
        for (const name of this.handlers.keys()) await client.query(`LISTEN ${name}`);
      } catch (err) {
        client.end().catch(() => undefined);
        throw err;
      } finally {
        this.connecting = null;
      }
      if (this.closed) {
        // closed while connecting: this connection is nobody's
        client.end().catch(() => undefined);
        throw new Error('listener closed');
      }
      this.client = client;
      this.heartbeat ??= setInterval(() => {
        const c = this.client;
        c?.query('select 1').catch(() => this.lost(c));
      }, this.heartbeatMs);
      this.heartbeat.unref();
      return client;
    })();
    return this.connecting;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    for (const set of this.handlers.values()) for (const h of set) h(null);
    if (!this.closed) this.retry();
  }

  private retry(): void {
    if (this.retrying) return;
    this.retrying = true;
    setTimeout(() => {
      this.retrying = false;
      if (this.closed || this.client) return;
      this.connect().then(
        () => {
          // Anything sent while it was away is lost: the listeners drop what they keep.
          for (const set of this.handlers.values()) for (const h of set) h(null);
        },
        () => {
          if (!this.closed) this.retry();
        },
      );
    }, 1000).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

const ident = (v: string) => v; // timestamps, dates and intervals stay text: Drizzle maps them
const int8 = (v: string) => Number(v);
/** OIDs whose text form Drizzle expects raw (as its own node-postgres driver does). */
const RAW_TYPES = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);

function settingsSql(s: TxSettings): string {
  const int = (v: number | null | undefined) => {
    if (v === null || v === undefined) return '';
    if (!Number.isSafeInteger(v)) throw new Error('tenant settings must be integers');
    return String(v);
  };
  // The cross-tenant context is a separate role whose policies allow every row (see security.ts).
  const role =
    s.scope === 'all'
      ? OPS_ROLE
      : s.subjectId !== null && s.subjectId !== undefined
        ? SUBJECT_ROLE
        : APP_ROLE;
  // SET LOCAL rather than one SELECT set_config(...): the same transaction-local settings, but
  // the answer is command tags, not a row the driver must describe and parse. Only what the
  // policies read (security.ts) and, in a writing transaction, the acting user for triggers:
  // each statement is a command PostgreSQL parses and answers, per transaction. A setting left
  // out reads as '' (every app.* setting is only ever SET LOCAL), which the policies take as null.
  const set = (name: string, v: number | null | undefined) =>
    v === null || v === undefined ? '' : `; SET LOCAL app.${name} = '${int(v)}'`;
  return (
    `SET LOCAL ROLE ${role}${set('customer_id', s.customerId)}${set('subject_id', s.subjectId)}` +
    (s.readOnly ? '' : set('user_id', s.userId))
  );
}

/** BEGIN (READ ONLY when the transaction only reads) and the settings, for one message. */
function beginSql(s: TxSettings): string {
  return `${s.readOnly ? 'BEGIN READ ONLY' : 'BEGIN'}; ${settingsSql(s)}`;
}

/** The settings inside a transaction PGlite has begun. */
function pgliteSettingsSql(s: TxSettings): string {
  return `${s.readOnly ? 'SET TRANSACTION READ ONLY; ' : ''}${settingsSql(s)}`;
}

const openTransaction = new AsyncLocalStorage<true>();

/**
 * Refuses a transaction opened inside another: PGlite has one connection and would wait for
 * ever, and on PostgreSQL the inner one would commit independently. Pass the open `tx` instead.
 */
function notNested<T>(fn: () => Promise<T>): Promise<T> {
  if (openTransaction.getStore()) {
    return Promise.reject(new Error('Nested database transaction: use the open tx instead'));
  }
  return openTransaction.run(true, fn);
}

const queryableOf = new WeakMap<Tx, Queryable>();

function drizzleOver(q: Queryable): Tx {
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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

function lastRows(results: unknown): Record<string, unknown>[] {
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

const MAX_CACHED_READS = 10_000;

/**
 * The cache behind `readCached`. Every finished write bumps a generation (the customer's, or
 * all of them); an answer is reused only while both generations it was read under are unchanged,
 * so a write that ends while a read is in flight also invalidates that read.
 */
class ReadCache {
  private all = 0;
  private readonly byCustomer = new Map<number, number>();
  private readonly entries = new Map<
    string,
    { rows: Record<string, unknown>[]; at: number; all: number; customer: number }
  >();

  /** A write transaction with these settings has finished (committed or not). */
  written(s: TxSettings | 'owner'): void {
    if (s === 'owner' || (s.scope === 'all' && s.userId !== null && s.userId !== undefined)) {
      this.all += 1;
      this.byCustomer.clear();
      this.entries.clear();
    } else if (s.customerId !== null) {
      this.byCustomer.set(s.customerId, (this.byCustomer.get(s.customerId) ?? 0) + 1);
    }
  }

  async read(
    settings: TxSettings,
    sqlText: string,
    ttlMs: number,
    load: () => Promise<Record<string, unknown>[]>,
  ): Promise<Record<string, unknown>[]> {
    if (ttlMs <= 0) return load();
    const key = `${settingsSql(settings)}\n${sqlText}`;
    const cid = settings.customerId;
    const gen = () => (cid === null ? 0 : (this.byCustomer.get(cid) ?? 0));
    const hit = this.entries.get(key);
    if (
      hit &&
      performance.now() - hit.at <= ttlMs &&
      hit.all === this.all &&
      hit.customer === gen()
    ) {
      return hit.rows;
    }
    const before = { all: this.all, customer: gen(), at: performance.now() };
    const rows = await load();
    if (this.entries.size >= MAX_CACHED_READS) this.entries.clear();
    this.entries.set(key, { rows, ...before });
    return rows;
  }
}

/** Runs a transaction and tells the cache when a write one has finished. */
function tracked<T>(cache: ReadCache, s: TxSettings, run: () => Promise<T>): Promise<T> {
  if (s.readOnly) return run();
  return run().finally(() => cache.written(s));
}

// ---------------------------------------------------------------- PGlite

const pgliteParsers = {
  20: int8,
  1184: ident,
  1114: ident,
  1082: ident,
  1186: ident,
};

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

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return int8;
    if (RAW_TYPES.has(oid)) return ident;
    return format === 'binary'
      ? pg.types.getTypeParser(oid, 'binary')
      : pg.types.getTypeParser(oid, 'text');
  },
};

const IDENT_CHAR = /[A-Za-z0-9_$]/;

/** A parameter as an SQL literal (unknown-typed, as an untyped text parameter is), or null. */
function sqlLiteral(v: unknown): string | null {
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
