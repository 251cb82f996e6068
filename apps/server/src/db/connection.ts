// The database's public entry: what a transaction runs as and the `Database` both drivers offer
// (PGlite embedded, or PostgreSQL through node-postgres), opened from the configuration. The
// drivers themselves live in ./driver/ (one concern a file); other code imports from here.
import { openPgPool, pgDatabase, servingUrl } from './driver/pg.js';
import { openPglite, pgliteDatabase } from './driver/pglite.js';
import type { Database } from './driver/types.js';

export { isDatabaseUnavailable } from './driver/errors.js';
export { inlineParams } from './driver/inline-params.js';
export { LISTENER_APPLICATION_NAME } from './driver/listener.js';
export { openPgPool, pgDatabase, servingUrl } from './driver/pg.js';
export { openPglite, pgliteDatabase } from './driver/pglite.js';
export {
  APP_ROLE,
  LOGIN_ROLE,
  OPS_ROLE,
  SEED_ROLE,
  SUBJECT_ROLE,
  SYSTEM_ROLE,
} from './driver/roles.js';
export { compileDb, executePrepared, executePreparedRows, txQuery } from './driver/tx.js';
export type { Database, RowMode, Tx, TxSettings } from './driver/types.js';

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
