import type { OpsPaymentRecordOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, login } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import { DEMO_PASSWORD, seedDemo } from '../../db/seed.js';

// The ops payments screens' demo rows, as a fresh `npm start` loads them, read through the API.
let app: FastifyInstance;
let drop: () => Promise<void>;

beforeAll(async () => {
  const t = await createTestDatabase();
  drop = t.drop;
  expect(await seedDemo(t.db)).toBe(true);
  app = await buildApp({ db: t.db });
  await app.ready();
}, 180_000);
afterAll(async () => {
  await app.close();
  await drop();
});

describe('payments demo data', () => {
  it('shows portal and product payments, one partly refunded', async () => {
    const ops = await login(app, 'ops@kestrel.test', DEMO_PASSWORD);
    const portal = await app.inject({
      method: 'GET',
      url: '/api/ops/portal-payments/',
      headers: ops.headers,
    });
    expect(portal.statusCode).toBe(200);
    const rows = portal.json().results as OpsPaymentRecordOut[];
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.map((r) => r.state)).toEqual(
      expect.arrayContaining(['paid', 'partially_refunded', 'awaiting']),
    );
    const product = await app.inject({
      method: 'GET',
      url: '/api/ops/product-payments/',
      headers: ops.headers,
    });
    const p = product.json().results as OpsPaymentRecordOut[];
    expect(p.map((r) => r.customer_name)).toEqual(expect.arrayContaining(['Acme Care Ltd']));
    expect(p).toHaveLength(4);
  });
});
