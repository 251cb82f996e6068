import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { readConfig } from '../config.js';
import { systemClock } from '../platform/clock.js';
import { createStorage } from '../providers/storage/select.js';
import { openDatabase } from './connection.js';
import { migrateDatabase } from './migrate.js';
import { QUEUE_SCHEMA } from './queue-schema.js';
import { seedDemo } from './seed.js';

// npm run db:migrate | db:seed | db:reset (from the repo root; DATA_DIR / DATABASE_URL apply).
const root = resolve(import.meta.dirname, '../../../..');
const config = readConfig(process.env, root);
const command = process.argv[2];

if (command === 'reset') {
  if (config.databaseUrl) {
    const db = await openDatabase(config);
    await db.ownerExec(
      `DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS ${QUEUE_SCHEMA} CASCADE; CREATE SCHEMA public;`,
    );
    await db.close();
  } else if (config.dataDir) {
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}
const db = await openDatabase(config);
// Run explicitly, every set-up step runs (a start skips them when nothing changed).
await migrateDatabase(db, { force: true });
if (command === 'seed' || command === 'reset') {
  // the demo documents' files go where the server reads them (STORAGE_DIR, else DATA_DIR)
  const seeded = await seedDemo(db, systemClock, createStorage(config.storage));
  console.log(seeded ? 'Demo data loaded.' : 'Data exists already; nothing seeded.');
} else if (command !== 'migrate') {
  console.error('usage: cli.ts migrate|seed|reset');
  process.exitCode = 1;
}
await db.close();
