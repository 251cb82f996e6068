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
    // the case charges of the saved cards' demo: one paid, one declined then paid on retry, and
    // the two held cases' declined ones
    // (and the licence applications' cases of Northgate's demo, charged to the council as any)
    const licensing = p.filter((r) => r.description.startsWith('Licence: '));
    expect(p.length - licensing.length).toBe(9);
  });

  it('shows Acme saved cards, its billing email and a case charge declined then paid', async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const cards = await app.inject({
      method: 'GET',
      url: '/api/payment-methods/',
      headers: admin.headers,
    });
    expect(cards.json().results).toMatchObject([
      { label: 'Visa ending 4242', is_default: true, expired: false },
      { label: 'Visa ending 9995', is_default: false },
    ]);
    const settings = await app.inject({
      method: 'GET',
      url: '/api/payment-settings/',
      headers: admin.headers,
    });
    expect(settings.json()).toMatchObject({ billing_email: 'accounts@acme.test', invoiced: false });
    const list = await app.inject({
      method: 'GET',
      url: '/api/cases/?ordering=id',
      headers: admin.headers,
    });
    const ids = (list.json().results as { id: number }[]).map((c) => c.id).sort((a, b) => a - b);
    const second = await app.inject({
      method: 'GET',
      url: `/api/cases/${ids[1]}/`,
      headers: admin.headers,
    });
    expect(second.json().payment).toMatchObject({
      state: 'paid',
      attempts: 2,
      amount_display: '£31.00',
      card: 'Visa ending 4242',
    });
    const northgate = await login(app, 'admin@northgate.test', DEMO_PASSWORD);
    const invoiced = await app.inject({
      method: 'GET',
      url: '/api/payment-settings/',
      headers: northgate.headers,
    });
    expect(invoiced.json()).toMatchObject({ invoiced: true, default_payment_method: null });
  });

  it('holds one Acme case for its declined payment, to retry', async () => {
    const admin = await login(app, 'admin@acme.test', DEMO_PASSWORD);
    const held = await app.inject({
      method: 'GET',
      url: '/api/cases/?state=awaiting-payment',
      headers: admin.headers,
    });
    const [first] = held.json().results as { id: number; state_display: string }[];
    expect(first?.state_display).toBe('Awaiting payment');
    const detail = await app.inject({
      method: 'GET',
      url: `/api/cases/${first?.id}/`,
      headers: admin.headers,
    });
    expect(detail.json().payment).toMatchObject({
      state: 'payment_needed',
      reason: 'Your card has insufficient funds.',
      card: 'Visa ending 9995',
    });
  });
});
