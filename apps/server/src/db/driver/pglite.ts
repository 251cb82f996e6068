// The embedded database (PGlite): opening it and the `Database` over it.
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { channelName } from './listener.js';
import { pgliteParsers } from './parsers.js';
import { ReadCache, tracked } from './read-cache.js';
import { isRecord, lastRows } from './rows.js';
import { pgliteSettingsSql } from './settings.js';
import { drizzleOver, notNested, openTransaction } from './tx.js';
import type { Database, Queryable, TxSettings } from './types.js';

function pgliteQueryable(tx: PgliteTransaction | PGlite): Queryable {
  return {
    async query(text, params, rowMode) {
      const r = await tx.query(text, params, { rowMode, parsers: pgliteParsers });
      return { rows: r.rows };
    },
  };
}

/**
 * A turn of the event loop. PGlite runs each statement synchronously on this thread and answers
 * through promises alone, so a loop of transactions (an import's batches, a job's steps) would
 * run from one to the next without Node ever reading a socket: requests that arrived meanwhile
 * waited for the whole loop (a 1,000-row import held check-session for 10 s). Each transaction
 * first lets pending I/O in, so a request queues its own transaction behind at most one.
 */
const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Wraps an open PGlite instance. */
export function pgliteDatabase(client: PGlite): Database {
  const cache = new ReadCache();
  const readInline = (settings: TxSettings, sqlText: string) =>
    notNested(async () => {
      await ioTurn();
      return client.transaction(async (tx) => {
        const results = await tx.exec(`${pgliteSettingsSql(settings)}; ${sqlText}`);
        return lastRows(results);
      });
    });
  return {
    kind: 'pglite',
    transaction(settings, fn) {
      return tracked(cache, settings, () =>
        notNested(async () => {
          await ioTurn();
          return client.transaction(async (tx) => {
            await tx.exec(pgliteSettingsSql(settings));
            return fn(drizzleOver(pgliteQueryable(tx)));
          });
        }),
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
    // One instance in this process: a notification reaches its listeners as its COMMIT answers.
    async caughtUp() {},
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
