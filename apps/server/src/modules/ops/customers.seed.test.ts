import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, login } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/connection.js';
import { DEMO_PASSWORD, seedDemo } from '../../db/seed.js';
import { systemClock } from '../../platform/clock.js';
import { LocalDiskStorage } from '../../providers/storage/local-disk.js';

// A fresh `npm start`: the ops customer list has several customers with their users.
let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
const dir = mkdtempSync(join(tmpdir(), 'kestrel-demo-ops-customers-'));

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  expect(await seedDemo(db, systemClock, new LocalDiskStorage(dir))).toBe(true);
  app = await buildApp({ db, storage: new LocalDiskStorage(dir) });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the ops customers demo', () => {
  it('lists five customers with brands, contacts, cases and users', async () => {
    const ops = await login(app, 'ops@kestrel.test', DEMO_PASSWORD);
    const list = (
      await app.inject({ method: 'GET', url: '/api/ops/customers/', headers: ops.headers })
    ).json();
    expect(list.count).toBeGreaterThanOrEqual(5);
    const byName = new Map<string, Record<string, unknown>>(
      list.results.map((c: { name: string }) => [c.name, c]),
    );
    expect(byName.get('Acme Care Ltd')).toMatchObject({ contact_email: 'hr@acme.test' });
    expect(Number(byName.get('Acme Care Ltd')?.case_count)).toBeGreaterThan(0);
    expect(byName.get('Harbour Homes Group')).toMatchObject({ brand: 'harrier', user_count: 3 });
    expect(byName.get('Pennine Transport')).toMatchObject({ is_active: false });
    // a seeded customer's administrator signs in with the demo password
    await login(app, 'hana@harbour.test', DEMO_PASSWORD);
  });
});
