// One server process of a bench part that drives the load from another process (parts/cluster.ts):
// serves the app on PostgreSQL (BENCH_DATABASE_URL) at BENCH_PORT with the ceiling routes, and
// nothing else. Several such processes share the port (`reusePort`, SO_REUSEPORT: the kernel
// spreads the connections over the processes), as several server processes share one database.
//
// BENCH_LOAD=1: the first process migrates the database and loads the bench data set unless an
// earlier run left it loaded (the database is kept), then serves. It tells its parent (IPC) when
// it listens: { type: 'ready', usernames } (the logins of the bench administrators).
import Fastify, { type FastifyListenOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import { openPgPool, pgDatabase, servingUrl } from '../src/db/connection.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { analyze, benchAdmin, LOGIN_TENANTS, seedPlatform, seedUsers } from './seed.js';
import { seedCases } from './seed-cases.js';

const HOST = '127.0.0.1';
const url = process.env.BENCH_DATABASE_URL;
const port = Number(process.env.BENCH_PORT);
const plainPort = Number(process.env.BENCH_PLAIN_PORT);
if (!url || !Number.isInteger(port) || !Number.isInteger(plainPort)) {
  throw new Error('BENCH_DATABASE_URL, BENCH_PORT and BENCH_PLAIN_PORT are required');
}

const send = (message: Record<string, unknown>) => {
  if (process.send) process.send(message);
  else process.stdout.write(`${JSON.stringify(message)}\n`);
};
const log = (text: string) => send({ type: 'log', text });

const db = pgDatabase(openPgPool(servingUrl(url)), openPgPool(url, 2));

/** The bench administrators' logins, loading the data set first when the database has none. */
async function prepare(): Promise<string[]> {
  await migrateDatabase(db);
  const loaded = await db.ownerQuery("select value from bench_cluster where key = 'loaded'").then(
    (r) => r.rows.length > 0,
    () => false,
  );
  let customerIds: number[];
  if (loaded) {
    const { rows } = await db.ownerQuery('select id from customers order by id');
    customerIds = rows.map((r) => Number(r.id));
    // Each run logs in again: the earlier runs' login attempts must not throttle it.
    await db.ownerExec('delete from rate_limits');
    log('reusing the loaded data set');
  } else {
    const t0 = performance.now();
    customerIds = (await seedPlatform(db)).customerIds;
    await seedUsers(db, customerIds);
    await seedCases(db, customerIds);
    await analyze(db);
    await db.ownerExec(`create table bench_cluster (key text primary key, value text);
      insert into bench_cluster values ('loaded', now()::text)`);
    log(`data set loaded (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  return customerIds.slice(0, LOGIN_TENANTS).map((id) => benchAdmin(id).username);
}

const usernames = process.env.BENCH_LOAD === '1' ? await prepare() : [];

const app = await buildApp({
  db,
  logger: false,
  config: { logLevel: 'silent', housekeepingMs: 0, webDist: null, publicUrl: `http://${HOST}` },
});
// The app's own ceiling: a bare route through the same plugins and global hooks (bench/server.ts).
app.get('/bench/bare/', { config: { access: { audience: 'public' } } }, async () => ({ ok: true }));
// Bare Fastify: an instance with no plugins at all (issue 28's "bare Fastify").
const plain = Fastify({ logger: false });
plain.get('/bare', async () => ({ ok: true }));
// `reusePort` (Node.js 22.12/23.1 and later, Linux): Fastify hands its listen options to Node's.
const appListen: FastifyListenOptions & { reusePort: boolean } = {
  host: HOST,
  port,
  reusePort: true,
};
const plainListen: FastifyListenOptions & { reusePort: boolean } = {
  host: HOST,
  port: plainPort,
  reusePort: true,
};
await app.listen(appListen);
await plain.listen(plainListen);
send({ type: 'ready', usernames, pid: process.pid });

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await plain.close();
    await app.close();
    await db.close();
  } finally {
    process.exit(0);
  }
}
process.on('disconnect', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
