import type { CustomerPaymentDetailOut, CustomerPaymentOut } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { caseActivities } from '../activities/activities.table.js';
import { createPayment, createPaymentIntent } from './payments.factories.js';
import { paymentIntents } from './payments.table.js';
import { paymentRefunds, productPayments } from './product-payments.table.js';

let t: TestApp;
let acme: number;
let beta: number;
let admin: Client;
let viewer: Client;
let betaAdmin: Client;

/** Acme's payments: a paid portal payment (part refunded), a declined one, two product payments. */
const made = {
  portalPaid: 0,
  portalDeclined: 0,
  productPaid: 0,
  productFailed: 0,
  caseOfAda: 0,
  caseOfBob: 0,
  betaProduct: 0,
};

async function caseFor(customerId: number, firstName: string, lastName: string) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId, requirements: [{ code: 'dbs-basic' }] });
    const s = await createSubjectUser(tx, { customerId, firstName, lastName, password: null });
    const c = await createCase(tx, { customerId, processId: p.id, subjectId: s.id });
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    return { caseId: c.id, activityId: a.id };
  });
}

async function product(
  customerId: number,
  values: { caseId: number | null; amount: number; status: string; at: string },
) {
  return t.owner(async (tx) => {
    const [row] = await tx
      .insert(productPayments)
      .values({
        customerId,
        caseId: values.caseId,
        description: 'Basic DBS check',
        amountPence: values.amount,
        provider: 'simulator',
        providerPaymentId: `pi_cust_${values.amount}_${values.status}`,
        status: values.status,
        createdAt: new Date(values.at),
      })
      .returning();
    if (!row) throw new Error('no row');
    return row.id;
  });
}

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    beta = (await createCustomer(tx, { name: 'Beta' })).id;
    await createAdminAndViewer(tx, beta, 'beta.test');
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  betaAdmin = await login(t.app, 'admin@beta.test');

  const ada = await caseFor(acme, 'Ada', 'Lovelace');
  const bob = await caseFor(acme, 'Bob', 'Declined');
  made.caseOfAda = ada.caseId;
  made.caseOfBob = bob.caseId;
  await t.owner(async (tx) => {
    const paid = await createPaymentIntent(tx, {
      customerId: acme,
      caseId: ada.caseId,
      caseActivityId: ada.activityId,
      amountPence: 1250,
      outcome: 'paid',
    });
    await tx
      .update(paymentIntents)
      .set({ providerIntentId: 'pi_sim_paid', createdAt: new Date('2026-03-02T10:00:00Z') })
      .where(and(eq(paymentIntents.customerId, acme), eq(paymentIntents.id, paid.id)));
    await createPayment(tx, paid);
    await tx.insert(paymentRefunds).values({
      customerId: acme,
      source: 'portal',
      paymentId: paid.id,
      amountPence: 250,
      idempotencyKey: 'k1',
      status: 'succeeded',
      providerRefundId: 're_sim_1',
      createdByName: 'Olive Ops',
    });
    made.portalPaid = paid.id;
    const declined = await createPaymentIntent(tx, {
      customerId: acme,
      caseId: bob.caseId,
      caseActivityId: bob.activityId,
      amountPence: 350,
      outcome: 'declined',
    });
    await tx
      .update(paymentIntents)
      .set({ createdAt: new Date('2026-03-01T10:00:00Z') })
      .where(and(eq(paymentIntents.customerId, acme), eq(paymentIntents.id, declined.id)));
    await createPayment(tx, declined, 'failed');
    made.portalDeclined = declined.id;
  });
  made.productPaid = await product(acme, {
    caseId: ada.caseId,
    amount: 3100,
    status: 'succeeded',
    at: '2026-03-04T09:00:00Z',
  });
  made.productFailed = await product(acme, {
    caseId: bob.caseId,
    amount: 3100,
    status: 'failed',
    at: '2026-03-03T09:00:00Z',
  });
  made.betaProduct = await product(beta, {
    caseId: null,
    amount: 999,
    status: 'succeeded',
    at: '2026-03-05T09:00:00Z',
  });
});
afterAll(() => t.close());

const get = (c: Client, url: string) => t.app.inject({ method: 'GET', url, headers: c.headers });
const ids = async (c: Client, query = '') => {
  const res = await get(c, `/api/payments/${query}`);
  expect(res.statusCode).toBe(200);
  return (res.json().results as CustomerPaymentOut[]).map((r) => r.id);
};

describe('GET /api/payments/', () => {
  it('lists product and portal payments together, newest first, in pence and pounds', async () => {
    const res = await get(admin, '/api/payments/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(4);
    const rows = body.results as CustomerPaymentOut[];
    expect(rows.map((r) => r.id)).toEqual([
      `product-${made.productPaid}`,
      `product-${made.productFailed}`,
      `portal-${made.portalPaid}`,
      `portal-${made.portalDeclined}`,
    ]);
    expect(rows[0]).toEqual({
      id: `product-${made.productPaid}`,
      kind: 'product',
      reference: `PP-${made.productPaid}`,
      description: 'Basic DBS check',
      check_name: null,
      case: made.caseOfAda,
      case_activity: null,
      subject_name: 'Ada Lovelace',
      amount_pence: 3100,
      amount_display: '£31.00',
      refunded_pence: 0,
      refunded_display: '£0.00',
      state: 'paid',
      created_at: '2026-03-04T09:00:00.000Z',
    });
    expect(rows[1]).toMatchObject({ state: 'declined', subject_name: 'Bob Declined' });
    expect(rows[2]).toMatchObject({
      kind: 'portal',
      description: 'Paper certificate by post',
      check_name: 'Basic DBS check',
      amount_display: '£12.50',
      refunded_pence: 250,
      refunded_display: '£2.50',
      state: 'partially_refunded',
    });
    expect(rows[3]).toMatchObject({ kind: 'portal', state: 'declined' });
  });

  it('pages', async () => {
    const res = await get(admin, '/api/payments/?page_size=3&page=2');
    expect(res.json()).toMatchObject({ count: 4, next: null });
    expect(res.json().results).toHaveLength(1);
    expect(res.json().previous).toContain('page=1');
    for (const page of ['3', '9999999999']) {
      const past = await get(admin, `/api/payments/?page_size=3&page=${page}`);
      expect([page, past.statusCode, past.json()]).toEqual([
        page,
        404,
        { detail: 'Invalid page.' },
      ]);
    }
  });

  it('filters by kind, status, dates, case and activity', async () => {
    expect(await ids(admin, '?kind=portal')).toEqual([
      `portal-${made.portalPaid}`,
      `portal-${made.portalDeclined}`,
    ]);
    expect(await ids(admin, '?kind=product&status=paid')).toEqual([`product-${made.productPaid}`]);
    expect(await ids(admin, '?status=declined')).toEqual([
      `product-${made.productFailed}`,
      `portal-${made.portalDeclined}`,
    ]);
    expect(await ids(admin, '?status=paid,partially_refunded')).toHaveLength(2);
    expect(await ids(admin, '?created_after=2026-03-02&created_before=2026-03-03')).toEqual([
      `product-${made.productFailed}`,
      `portal-${made.portalPaid}`,
    ]);
    expect(await ids(admin, `?case=${made.caseOfBob}`)).toHaveLength(2);
    const activity = await t.owner(async (tx) => {
      const [i] = await tx
        .select()
        .from(paymentIntents)
        .where(eq(paymentIntents.id, made.portalDeclined));
      return i?.caseActivityId ?? 0;
    });
    expect(await ids(admin, `?case_activity=${activity}`)).toEqual([
      `portal-${made.portalDeclined}`,
    ]);
  });

  it('searches by case reference, subject name and payment reference', async () => {
    expect(await ids(admin, `?search=%23${made.caseOfAda}`)).toEqual([
      `product-${made.productPaid}`,
      `portal-${made.portalPaid}`,
    ]);
    expect(await ids(admin, `?search=${made.caseOfBob}`)).toEqual([
      `product-${made.productFailed}`,
      `portal-${made.portalDeclined}`,
    ]);
    expect(await ids(admin, '?search=lovelace')).toHaveLength(2);
    expect(await ids(admin, '?search=bob%20decl')).toHaveLength(2);
    expect(await ids(admin, `?search=PP-${made.productFailed}`)).toEqual([
      `product-${made.productFailed}`,
    ]);
    // a LIKE wildcard is searched for as itself
    expect(await ids(admin, '?search=%25')).toEqual([]);
  });

  it('refuses bad filters with the field and a message (400)', async () => {
    const cases: [string, Record<string, unknown[]>][] = [
      [
        '?kind=refund',
        { kind: ['Select a valid choice. refund is not one of the available choices.'] },
      ],
      ['?kind=portal,product', { kind: ['Choose one kind.'] }],
      [
        '?status=lost',
        { status: ['Select a valid choice. lost is not one of the available choices.'] },
      ],
      ['?created_after=2026-13-01', { created_after: ['Enter a valid date.'] }],
      ['?case=abc', { case: ['Enter a whole number.'] }],
      ['?page=0', { page: [expect.any(String)] }],
    ];
    for (const [query, body] of cases) {
      const res = await get(admin, `/api/payments/${query}`);
      expect([query, res.statusCode]).toEqual([query, 400]);
      expect(res.json()).toMatchObject(body);
    }
  });

  it('keeps to the tenant and asks for payments.view_payment', async () => {
    expect(await ids(betaAdmin)).toEqual([`product-${made.betaProduct}`]);
    expect(await ids(betaAdmin, `?case=${made.caseOfAda}`)).toEqual([]);
    expect((await get(viewer, '/api/payments/')).statusCode).toBe(403);
    const anon = await t.app.inject({ method: 'GET', url: '/api/payments/' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('GET /api/payments/{id}/', () => {
  it('a portal payment: what it paid for, the provider’s events and the refunds', async () => {
    const res = await get(admin, `/api/payments/portal-${made.portalPaid}/`);
    expect(res.statusCode).toBe(200);
    const d = res.json() as CustomerPaymentDetailOut;
    expect(d).toMatchObject({
      id: `portal-${made.portalPaid}`,
      case: made.caseOfAda,
      check_name: 'Basic DBS check',
      subject_name: 'Ada Lovelace',
      provider: 'simulator',
      provider_payment_id: 'pi_sim_paid',
      state: 'partially_refunded',
    });
    expect(d.events.map((e) => [e.type, e.status])).toEqual([
      ['payment_intent.succeeded', 'succeeded'],
      ['refund.succeeded', 'succeeded'],
    ]);
    expect(d.refunds).toEqual([
      {
        id: expect.any(Number),
        amount_pence: 250,
        amount_display: '£2.50',
        status: 'succeeded',
        created_at: expect.any(String),
      },
    ]);
    // who at operations refunded it is not the customer's to read
    expect(JSON.stringify(d)).not.toContain('Olive Ops');
  });

  it('a product payment, and a declined portal payment with its failure', async () => {
    const p = await get(admin, `/api/payments/product-${made.productFailed}/`);
    expect(p.json()).toMatchObject({
      kind: 'product',
      state: 'declined',
      case: made.caseOfBob,
      refunds: [],
    });
    const d = await get(admin, `/api/payments/portal-${made.portalDeclined}/`);
    expect(d.json().events).toEqual([
      expect.objectContaining({ type: 'payment_intent.payment_failed', status: 'failed' }),
    ]);
  });

  it('404 for another customer’s, an unknown or a malformed id; 403 without the permission', async () => {
    for (const url of [
      `/api/payments/product-${made.betaProduct}/`,
      '/api/payments/portal-999999/',
      '/api/payments/12/',
      '/api/payments/refund-1/',
    ]) {
      const res = await get(admin, url);
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { detail: 'Not found.' }]);
    }
    expect((await get(betaAdmin, `/api/payments/portal-${made.portalPaid}/`)).statusCode).toBe(404);
    expect((await get(viewer, `/api/payments/portal-${made.portalPaid}/`)).statusCode).toBe(403);
  });
});
