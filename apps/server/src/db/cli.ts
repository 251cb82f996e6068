import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { readConfig } from '../config.js';
import { sweepAllDocumentKeys } from '../modules/encryption/document-keys-job.js';
import { loadFieldCipher } from '../modules/encryption/field-cipher.js';
import {
  fieldKeysCommandOptions,
  runFieldKeysCommand,
} from '../modules/encryption/field-keys-job.js';
import { loadKeyRing } from '../modules/encryption/key-ring.js';
import { systemClock } from '../platform/clock.js';
import { EncryptingStorage } from '../providers/storage/encrypted.js';
import { createStorage } from '../providers/storage/select.js';
import { openDatabase } from './connection.js';
import { migrateDatabase } from './migrate.js';
import { QUEUE_SCHEMA } from './queue-schema.js';
import { seedDemo } from './seed.js';

// npm run db:migrate | db:seed | db:reset (from the repo root; DATA_DIR / DATABASE_URL apply);
// document-keys (files and fields under the current key); field-keys [--rehash] (the encrypted
// fields only; --rehash: every keyed hash again, after ENCRYPTION_INDEX_KEY changed).
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
  const keys = await loadKeyRing(db, config.encryption);
  const seeded = await seedDemo(db, systemClock, createStorage(config.storage, keys));
  console.log(seeded ? 'Demo data loaded.' : 'Data exists already; nothing seeded.');
} else if (command === 'document-keys') {
  // the document-keys job's sweep, every batch now: encrypts files from before encryption and
  // re-wraps data keys under the current master key (ENCRYPTION_CURRENT_KEY)
  const storage = createStorage(config.storage, await loadKeyRing(db, config.encryption));
  if (storage instanceof EncryptingStorage) {
    const done = await sweepAllDocumentKeys(db, storage);
    console.log(
      `Document files: ${done.encrypted} encrypted, ${done.rewrapped} re-wrapped under ${storage.keys.current.id}, ${done.unchanged} unchanged, ${done.unknownKey} under a key not configured.`,
    );
  }
  // and the encrypted fields in the database (the field-keys job's sweep)
  const fields = await loadFieldCipher(
    db,
    config.encryption,
    storage instanceof EncryptingStorage ? storage.keys : undefined,
  );
  console.log(await runFieldKeysCommand(db, fields));
} else if (command === 'field-keys') {
  // the field-keys job's sweep alone, every batch now; --rehash: every keyed hash again
  const options = fieldKeysCommandOptions(process.argv.slice(3));
  if (options) {
    console.log(
      await runFieldKeysCommand(db, await loadFieldCipher(db, config.encryption), options),
    );
  } else {
    console.error('usage: cli.ts field-keys [--rehash]');
    process.exitCode = 1;
  }
} else if (command !== 'migrate') {
  console.error('usage: cli.ts migrate|seed|reset|document-keys|field-keys [--rehash]');
  process.exitCode = 1;
}
await db.close();
