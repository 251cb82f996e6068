import { buildApp } from './app.js';
import { readConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { migrateDatabase } from './db/migrate.js';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemo } from './db/seed.js';
import { discoverModules } from './modules/discover.js';

// Started by `npm start` with cwd = repo root: paths in the configuration are relative to it.
const config = readConfig(process.env, process.cwd());
// The modules' code loads while the embedded database starts (it waits on its files meanwhile).
const modules = discoverModules();
const db = await openDatabase(config);
await migrateDatabase(db);
const seeded = await seedDemo(db);
const app = await buildApp({
  db,
  config,
  logger: config.logLevel !== 'silent',
  modules: await modules,
});

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

await app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl
  ? 'PostgreSQL (DATABASE_URL)'
  : `embedded PGlite in ${config.dataDir}`;
const lines = [
  '',
  `Kestrel is running on http://localhost:${config.port} — database: ${where}${seeded ? ' (demo data loaded)' : ''}`,
  `Demo logins (password ${DEMO_PASSWORD}):`,
  ...DEMO_LOGINS.map(([u, who]) => `  ${u.padEnd(22)} ${who}`),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
