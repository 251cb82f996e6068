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
import { DEMO_SECOND_OPS } from './demo.seed.js';

// A fresh `npm start`: operations land on a populated dashboard and a queue with claims.
let db: Database;
let drop: () => Promise<void>;
let app: FastifyInstance;
const dir = mkdtempSync(join(tmpdir(), 'kestrel-demo-ops-queue-'));

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

describe('the ops queue demo', () => {
  it('fills the dashboard and shows two claims, the second ops user signing in', async () => {
    const ops = await login(app, 'ops@kestrel.test', DEMO_PASSWORD);
    const d = (
      await app.inject({ method: 'GET', url: '/api/ops/dashboard/', headers: ops.headers })
    ).json();
    expect(d.waiting.total).toBeGreaterThanOrEqual(7);
    expect(d.waiting.past_target).toBeGreaterThanOrEqual(3);
    expect(d.provider_errors).toBeGreaterThanOrEqual(1);
    expect(d.payments.declined).toBeGreaterThanOrEqual(1);
    expect(d.completed_by_week.filter((w: { count: number }) => w.count > 0).length).toBe(12);
    const list = (
      await app.inject({
        method: 'GET',
        url: '/api/ops/outstanding-activities/?activity_type=dbs-enhanced&page_size=50',
        headers: ops.headers,
      })
    ).json();
    const holders = list.results.flatMap((a: { claim: { name: string } | null }) =>
      a.claim ? [a.claim.name] : [],
    );
    expect(holders.sort()).toEqual(['Olivia Ops', 'Owen Ops']);
    await login(app, DEMO_SECOND_OPS, DEMO_PASSWORD);
  });
});
