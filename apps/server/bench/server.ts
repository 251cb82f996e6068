// The server side of `npm run bench` (scripts/bench.mjs forks it with an IPC channel):
// opens the database it is told (BENCH_DB=pg with BENCH_DATABASE_URL, or BENCH_DB=pglite with
// BENCH_DATA_DIR), migrates, bulk-loads the bench data, then serves the full app and a bare
// Fastify route (the ceiling) on loopback ports, and reports them to the parent.
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import {
  type Database,
  openPglite,
  openPgPool,
  pgDatabase,
  pgliteDatabase,
} from '../src/db/connection.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { analyze, BENCH_PASSWORD, seedPlatform, seedUsers } from './seed.js';
import { seedCases } from './seed-cases.js';

const HOST = '127.0.0.1';

function send(message: Record<string, unknown>): void {
  if (process.send) process.send(message);
  else process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function openBenchDatabase(): Promise<Database> {
  const kind = process.env.BENCH_DB;
  if (kind === 'pg') {
    const url = process.env.BENCH_DATABASE_URL;
    if (!url) throw new Error('BENCH_DATABASE_URL is required with BENCH_DB=pg');
    // The application's pool (20) unless BENCH_PG_POOL says otherwise (for experiments).
    const size = Number(process.env.BENCH_PG_POOL);
    return pgDatabase(Number.isInteger(size) && size > 0 ? openPgPool(url, size) : openPgPool(url));
  }
  if (kind === 'pglite') {
    const dir = process.env.BENCH_DATA_DIR;
    if (!dir) throw new Error('BENCH_DATA_DIR is required with BENCH_DB=pglite');
    return pgliteDatabase(await openPglite(dir));
  }
  throw new Error('BENCH_DB must be pg or pglite');
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  send({ type: 'log', text: `${label} (${((performance.now() - t0) / 1000).toFixed(1)} s)` });
  return out;
}

const db = await openBenchDatabase();
await timed('migrated', () => migrateDatabase(db));
const { customerIds } = await timed('customers and audit actions loaded', () => seedPlatform(db));
const users = await timed('bench users created', () => seedUsers(db, customerIds));
const cases = await timed('cases loaded', () => seedCases(db, customerIds));
await timed('vacuumed, analyzed, checkpointed', () => analyze(db));

const app = await buildApp({
  db,
  logger: false,
  config: { logLevel: 'silent', housekeepingMs: 0, webDist: null, publicUrl: `http://${HOST}` },
});
await app.listen({ host: HOST, port: 0 });
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));
await bare.listen({ host: HOST, port: 0 });

const portOf = (f: { server: { address(): unknown } }) => {
  const a = f.server.address();
  return a && typeof a === 'object' && 'port' in a ? Number(a.port) : 0;
};

let closing = false;
async function shutdown(code: number) {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(code || 1), 10_000);
  force.unref();
  try {
    await bare.close();
    await app.close();
    await db.close();
  } finally {
    process.exit(code);
  }
}
process.on('message', (m) => {
  if (m && typeof m === 'object' && 'type' in m && m.type === 'stop') void shutdown(0);
});
process.on('disconnect', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));

send({
  type: 'ready',
  appUrl: `http://${HOST}:${portOf(app)}`,
  bareUrl: `http://${HOST}:${portOf(bare)}`,
  password: BENCH_PASSWORD,
  users,
  cases,
});
