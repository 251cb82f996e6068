// What a transaction runs as, and the `Database` both drivers offer.
import type { PgRemoteDatabase } from 'drizzle-orm/pg-proxy';

/** A Drizzle handle bound to one open transaction. Every repository takes one as first argument. */
export type Tx = PgRemoteDatabase<Record<string, never>>;

/**
 * What a transaction runs as. `tenant` sees only `customerId`'s rows (none when null); `all`
 * is the explicit cross-tenant context of operations staff (the ops role: only what the ops
 * screens do); `system` is the system's own work across every tenant (sessions, login, rate
 * limits, housekeeping, mail, provider callbacks, jobs of no customer: the system role).
 */
export interface TxSettings {
  scope: 'tenant' | 'all' | 'system';
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
export interface Queryable {
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
  /**
   * Resolves once every notification committed before the call has reached this process's
   * listeners (PostgreSQL: a round trip on the listening connection, shared by the calls waiting
   * for it, whose answer comes after the notifications queued before it). Rejects while the
   * listening connection is lost. What a cached copy of shared state waits for before it is used.
   */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}
