// The loader's speed-ups first (a static import: evaluated before this module's code), then only
// what opening the database needs: the embedded database starts (its files read, its WebAssembly
// compiled) while the rest of the server's modules load (below).
import './main-loader.js';
import type { Database } from './db/connection.js';

const [{ readConfig }, { isDatabaseUnavailable, openDatabase }] = await Promise.all([
  import('./config.js'),
  import('./db/connection.js'),
]);

// The last line of defence: a database connection error that escapes anyway (an 'error' event or
// a rejection nobody handles) is logged and the process keeps serving (the pool replaces the
// connection, requests answer 503 meanwhile). Anything else still ends it: its state is unknown.
function escaped(kind: string) {
  return (err: unknown) => {
    if (isDatabaseUnavailable(err)) {
      process.stderr.write(`${kind} (database connection, ignored): ${String(err)}\n`);
      return;
    }
    process.stderr.write(`${kind}: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  };
}
/**
 * KESTREL_START_TRACE=1: when each start-up step ended (epoch milliseconds) on stderr, read by
 * `npm run bench:start -- --trace` (with scripts/start.mjs's) to show where a restart's time goes.
 */
const trace = process.env.KESTREL_START_TRACE === '1';
function mark(step: string, at = Date.now()): void {
  if (trace) process.stderr.write(`start-trace ${step} @${Math.round(at)}\n`);
}
mark('server process started', performance.timeOrigin);
mark('server: config and database layer loaded');

process.on('uncaughtException', escaped('uncaught exception'));
process.on('unhandledRejection', escaped('unhandled rejection'));

/**
 * Waits for the database when it is not reachable yet (started before PostgreSQL). Asked as the
 * owner (DATABASE_URL): the serving login may not exist yet on a server that never saw Kestrel,
 * the migrations that follow create it; requests go through it only after them.
 */
async function whenReachable(db: Database): Promise<void> {
  for (;;) {
    try {
      await db.ownerQuery('select 1');
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      process.stderr.write(`database not reachable (${String(err)}); trying again in 2 s\n`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

// Started by `npm start` with cwd = repo root: paths in the configuration are relative to it.
const config = readConfig(process.env, process.cwd());
const opening = openDatabase(config);
// The server's code (and the modules' code) loads while the database opens.
const loading = Promise.all([
  import('./app.js'),
  import('./db/migrate.js'),
  import('./db/seed.js'),
  import('./db/serving-role.js'),
  import('./db/statistics.js'),
  import('./modules/discover.js').then(async (m) => m.discoverModules()),
  import('./platform/clock.js'),
  import('./providers/storage/select.js'),
  import('./modules/encryption/key-ring.js'),
  import('./modules/encryption/document-keys-job.js'),
]);
const [db, loaded] = await Promise.all([opening, loading]);
const [
  { buildApp },
  { migrateDatabase },
  { DEMO_INVITED, DEMO_LOGINS, DEMO_PASSWORD, seedDemo },
  { servingRoleWarnings },
  { refreshStatistics },
  modules,
  { systemClock },
  { createStorage },
  { describeKeyRing, loadKeyRing },
  { enqueueDocumentKeysAtStart },
] = loaded;
mark('server: database open, modules loaded');
await whenReachable(db);
await migrateDatabase(db);
mark('server: migrations checked');
// One document store for the demo seed and the server (the seed's documents are the server's).
// Encrypted at rest under the configured master keys (ENCRYPTION_KEYS), else the development key.
const keys = await loadKeyRing(db, config.encryption);
const storage = createStorage(config.storage, keys);
const seeded = await seedDemo(db, systemClock, storage);
// a first start's demo data, counted for the planner (the recurring 'statistics' job keeps it so)
if (seeded) await refreshStatistics(db);
mark('server: demo data checked');
const app = await buildApp({
  db,
  config,
  storage,
  logger: config.logLevel !== 'silent',
  modules,
});
mark('server: app built');
for (const warning of await servingRoleWarnings(db)) app.log.warn(warning);
const encryption = describeKeyRing(keys);
app.log[encryption.level](encryption.message);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await db.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// A server started by a test run (KESTREL_EXIT_WITH_PARENT: the runner's pid) stops when that run
// is gone: a runner killed without its teardown left servers that kept working the queues of the
// next run's databases of the same names (its jobs done by old code with other simulators).
const parentPid = Number(process.env.KESTREL_EXIT_WITH_PARENT ?? 0);
if (parentPid > 0) {
  setInterval(() => {
    if (process.ppid !== parentPid) void shutdown('parent gone');
  }, 1_000).unref();
}

await app.listen({ port: config.port, host: config.host });
// files from before encryption, or wrapped by a key no longer current: re-done in batches (the
// queues exist once the app is ready)
await enqueueDocumentKeysAtStart(db, keys.current.id).catch((err: unknown) =>
  app.log.warn({ err }, 'the document-keys sweep could not be enqueued'),
);
mark('server: listening');
const where = config.databaseUrl
  ? 'PostgreSQL (DATABASE_URL)'
  : `embedded PGlite in ${config.dataDir}`;
// The development identity provider of the organisation sign-in (issue 30), when served.
const { DEV_OIDC_PATH, devProviderEnabled } = await import('./modules/sso/dev-provider.routes.js');
const lines = [
  '',
  `Kestrel is running on http://localhost:${config.port} (Node.js ${process.version}) — database: ${where}${seeded ? ' (demo data loaded)' : ''}`,
  `Demo logins (password ${DEMO_PASSWORD}):`,
  ...DEMO_LOGINS.map(([u, who]) => `  ${u.padEnd(22)} ${who}`),
  ...DEMO_INVITED.map(([u, who]) => `  ${u.padEnd(22)} ${who}`),
  ...(devProviderEnabled()
    ? [
        `Organisation sign-in: "Sign in with your organisation" with an @acme.test email goes to the development identity provider at ${config.publicUrl}${DEV_OIDC_PATH}/ (any password; tick the multi-factor box to skip TOTP).`,
      ]
    : []),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
