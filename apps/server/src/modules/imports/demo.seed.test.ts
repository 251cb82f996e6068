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

// A fresh `npm start`: operations see a completed import with its rows in error.
let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
const dir = mkdtempSync(join(tmpdir(), 'kestrel-demo-imports-'));

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  expect(await seedDemo(db, systemClock, new LocalDiskStorage(dir))).toBe(true);
  app = await buildApp({ db, storage: new LocalDiskStorage(dir) });
  await app.ready();
}, 180_000);
afterAll(async () => {
  await app.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the imports demo', () => {
  it('lists a completed import of Acme with five subjects made and three rows in error', async () => {
    const ops = await login(app, 'ops@kestrel.test', DEMO_PASSWORD);
    const list = (
      await app.inject({ method: 'GET', url: '/api/ops/imports/', headers: ops.headers })
    ).json();
    expect(list.results[0]).toMatchObject({
      file_name: 'acme-new-starters.csv',
      customer_name: expect.stringContaining('Acme'),
      state: 'completed',
      mode: 'valid_rows',
      total_rows: 8,
      imported_rows: 5,
      invalid_rows: 3,
    });
    const rows = (
      await app.inject({
        method: 'GET',
        url: `/api/ops/imports/${list.results[0].id}/rows/?invalid=true`,
        headers: ops.headers,
      })
    ).json();
    expect(
      rows.results.map((r: { row_number: number; errors: object }) => [
        r.row_number,
        Object.keys(r.errors),
      ]),
    ).toEqual([
      [4, ['last_name']],
      [5, ['email']],
      [7, ['dob']],
    ]);
  });
});
