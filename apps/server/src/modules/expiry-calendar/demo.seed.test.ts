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

// A fresh `npm start`: Acme's expiry calendar shows two passports within the 90 days, and the
// demo subject's DVLA mandate due for renewal (the calendar, the subject's /s/dvla-reconsent).
let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
const dir = mkdtempSync(join(tmpdir(), 'kestrel-demo-expiry-'));

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

describe('the expiry calendar demo', () => {
  it("lists two of Acme's passports, 12 and 45 days ahead", async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const res = await app.inject({
      method: 'GET',
      url: '/api/expiry-calendar/?kind=passport',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const days = res.json().results.map((r: { days_left: number }) => r.days_left);
    expect(days).toEqual(expect.arrayContaining([12, 45]));
  });

  it("has the demo subject's DVLA mandate ending in 25 days, due for renewal", async () => {
    const subject = await login(app, 'subject@example.test', DEMO_PASSWORD);
    const due = await app.inject({
      method: 'GET',
      url: '/api/s/dvla-reconsent/',
      headers: subject.headers,
    });
    expect(due.statusCode).toBe(200);
    expect(due.json().results).toEqual([
      expect.objectContaining({
        customer_name: 'Acme Care Ltd',
        kind: 'driver-data',
        status: 'expiring',
      }),
    ]);
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const calendar = await app.inject({
      method: 'GET',
      url: '/api/expiry-calendar/?kind=dvla-consent',
      headers: admin.headers,
    });
    expect(calendar.json().results).toContainEqual(
      expect.objectContaining({ subject_email: 'subject@example.test', days_left: 25 }),
    );
  });
});
