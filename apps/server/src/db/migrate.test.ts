// @postgres: migrations on a real server, where the roles belong to the cluster, not the database

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.js';
import type { Database } from './connection.js';
import { databaseFingerprint, migrateDatabase } from './migrate.js';

// A restart skips the database set-up (migrations, roles and RLS, reference data) when it would
// change nothing; any change to what it applies runs it again.
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
}, 120_000);
afterAll(async () => {
  await drop();
});

const verbName = async () => {
  const rows = await db.ownerTransaction((tx) =>
    tx.execute<{ name: string }>(sql`select name from verbs where code = 'created'`),
  );
  return rows[0]?.name;
};
const setVerbName = (name: string) =>
  db.ownerTransaction((tx) =>
    tx.execute(sql`update verbs set name = ${name} where code = 'created'`),
  );
const stored = async () => {
  const rows = await db.ownerTransaction((tx) =>
    tx.execute<{ fingerprint: string }>(sql`select fingerprint from drizzle.kestrel_setup`),
  );
  return rows.map((r) => r.fingerprint);
};

describe('migrateDatabase', () => {
  it('records what it applied', async () => {
    expect(await stored()).toEqual([databaseFingerprint(db)]);
  });

  it('skips the set-up when nothing changed since the last one', async () => {
    await setVerbName('Edited by hand');
    await migrateDatabase(db);
    expect(await verbName()).toBe('Edited by hand');
  });

  it('runs it again when what it applies changed (or when forced)', async () => {
    await db.ownerTransaction((tx) =>
      tx.execute(sql`update drizzle.kestrel_setup set fingerprint = 'an older set-up'`),
    );
    await migrateDatabase(db);
    expect(await verbName()).toBe('Created');
    expect(await stored()).toEqual([databaseFingerprint(db)]);

    await setVerbName('Edited by hand');
    await migrateDatabase(db, { force: true });
    expect(await verbName()).toBe('Created');
  });

  it('runs it on a database set up before fingerprints were kept', async () => {
    await db.ownerExec('drop table drizzle.kestrel_setup');
    await setVerbName('Edited by hand');
    await migrateDatabase(db);
    expect(await verbName()).toBe('Created');
    expect(await stored()).toEqual([databaseFingerprint(db)]);
  });
});
