import {
  type OpsDashboardOut,
  type OpsPaymentDetailOut,
  type OpsPaymentRecordOut,
  REFUND_UNANSWERED_HOURS,
} from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { queueJobs } from '../../platform/jobs.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { PaymentsProviderError } from '../../providers/payments/provider.js';
import { PaymentsSimulator, SimulatorRefusal } from '../../providers/payments/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { paymentsOf } from './config.js';
import { REFUND_CONTENT_TYPE, REFUND_RETRY_JOB, retryRefund } from './ops-payments.js';
import { createPayment, createPaymentIntent } from './payments.factories.js';
import { paymentIntents } from './payments.table.js';
import { paymentRefunds, productPayments } from './product-payments.table.js';

let t: TestApp;
let acme: number;
let beta: number;
let admin: Client;
let ops: Client;

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    beta = (await createCustomer(tx, { name: 'Beta' })).id;
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
  admin = await login(t.app, 'admin@acme.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

const sim = () => {
  const p = paymentsOf(t.app.deps).provider;
  if (!(p instanceof PaymentsSimulator)) throw new Error('not the simulator');
  return p;
};

/** A paid (or awaiting) portal payment of `amount` pence for a new case's activity. */
async function portalPayment(customerId: number, amount: number, paid = true) {
  return t.owner(async (tx) => {
    const p = await createProcess(tx, { customerId, requirements: [{ code: 'dbs-basic' }] });
    const c = await createCase(tx, { customerId, processId: p.id });
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    const intent = await createPaymentIntent(tx, {
      customerId,
      caseId: c.id,
      caseActivityId: a.id,
      amountPence: amount,
      outcome: paid ? 'paid' : 'awaiting',
    });
    await tx
      .update(paymentIntents)
      .set({ providerIntentId: `pi_test_${intent.id}` })
      .where(and(eq(paymentIntents.customerId, customerId), eq(paymentIntents.id, intent.id)));
    if (paid) await createPayment(tx, intent);
    return intent;
  });
}

async function productPayment(customerId: number, amount: number) {
  return t.owner(async (tx) => {
    const [row] = await tx
      .insert(productPayments)
      .values({
        customerId,
        description: 'Checks for November',
        amountPence: amount,
        provider: 'simulator',
        providerPaymentId: `pi_prod_${amount}_${Date.now()}`,
        status: 'succeeded',
      })
      .returning();
    if (!row) throw new Error('no row');
    return row;
  });
}

const get = (c: Client, url: string) => t.app.inject({ method: 'GET', url, headers: c.headers });
const refund = (c: Client, url: string, body: Record<string, unknown>, key?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...c.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });

describe('ops portal payments', () => {
  it('lists every customer’s with filters, search and dates; staff are refused', async () => {
    const a = await portalPayment(acme, 1250);
    const b = await portalPayment(beta, 900, false);
    const all = await get(ops, '/api/ops/portal-payments/');
    expect(all.statusCode).toBe(200);
    const rows = all.json().results as OpsPaymentRecordOut[];
    const row = rows.find((r) => r.id === a.id);
    expect(row).toMatchObject({
      source: 'portal',
      customer: acme,
      customer_name: 'Acme',
      amount_display: '£12.50',
      paid_pence: 1250,
      refundable_pence: 1250,
      state: 'paid',
    });
    expect(rows.some((r) => r.id === b.id)).toBe(true);

    const byCustomer = await get(ops, `/api/ops/portal-payments/?customer=${beta}`);
    expect((byCustomer.json().results as OpsPaymentRecordOut[]).map((r) => r.id)).toEqual([b.id]);
    const paid = await get(ops, '/api/ops/portal-payments/?status=paid');
    const paidIds = (paid.json().results as OpsPaymentRecordOut[]).map((r) => r.id);
    expect(paidIds).toContain(a.id);
    expect(paidIds).not.toContain(b.id);
    const found = await get(ops, `/api/ops/portal-payments/?search=${a.publicId}`);
    expect((found.json().results as OpsPaymentRecordOut[]).map((r) => r.id)).toEqual([a.id]);
    const future = await get(ops, '/api/ops/portal-payments/?created_after=2999-01-01');
    expect(future.json().results).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await get(
      ops,
      `/api/ops/portal-payments/?created_after=${today}&created_before=${today}`,
    );
    expect((dated.json().results as OpsPaymentRecordOut[]).length).toBeGreaterThanOrEqual(2);
    expect((await get(ops, '/api/ops/portal-payments/?created_after=nope')).statusCode).toBe(400);

    for (const url of [
      '/api/ops/portal-payments/',
      `/api/ops/portal-payments/${a.id}/`,
      '/api/ops/product-payments/',
    ]) {
      expect((await get(admin, url)).statusCode).toBe(403);
    }
    expect(
      (await refund(admin, `/api/ops/portal-payments/${a.id}/refund/`, {}, 'k1')).statusCode,
    ).toBe(403);
  });

  it('shows the provider’s events and the check paid for', async () => {
    const a = await portalPayment(acme, 500);
    const res = await get(ops, `/api/ops/portal-payments/${a.id}/`);
    expect(res.statusCode).toBe(200);
    const d = res.json() as OpsPaymentDetailOut;
    expect(d.check_name).toBeTruthy();
    expect(d.case_activity).toBe(a.caseActivityId);
    expect(d.events).toHaveLength(1);
    expect(d.events[0]).toMatchObject({ type: 'payment_intent.succeeded', amount_pence: 500 });
    expect(d.refunds).toEqual([]);
    expect((await get(ops, '/api/ops/portal-payments/999999/')).statusCode).toBe(404);
  });

  it('refunds part then the rest, once per key, never more than was paid, audited', async () => {
    const a = await portalPayment(acme, 1000);
    const url = `/api/ops/portal-payments/${a.id}/refund/`;
    const spy = vi.spyOn(sim(), 'createRefund');

    const first = await refund(ops, url, { amount_pence: 400 }, 'key-1');
    expect(first.statusCode).toBe(201);
    const d1 = first.json() as OpsPaymentDetailOut;
    expect(d1).toMatchObject({ state: 'partially_refunded', refunded_pence: 400 });
    expect(d1.refunds[0]).toMatchObject({ amount_pence: 400, status: 'succeeded' });
    expect(d1.events.map((e) => e.type)).toContain('refund.succeeded');

    // the same key again: the same refund, nothing more refunded
    const again = await refund(ops, url, { amount_pence: 400 }, 'key-1');
    expect(again.statusCode).toBe(200);
    expect((again.json() as OpsPaymentDetailOut).refunded_pence).toBe(400);
    // a request id in the body works as the key
    const tooMuch = await refund(ops, url, { amount_pence: 601, request_id: 'key-2' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors?.amount_pence ?? tooMuch.json()).toBeTruthy();

    const rest = await refund(ops, url, { request_id: 'key-3' });
    expect(rest.statusCode).toBe(201);
    expect(rest.json()).toMatchObject({
      state: 'refunded',
      refunded_pence: 1000,
      refundable_pence: 0,
    });
    expect((await refund(ops, url, {}, 'key-4')).statusCode).toBe(400);
    expect(spy).toHaveBeenCalledTimes(2);

    const audited = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.contentType, REFUND_CONTENT_TYPE)),
    );
    expect(
      audited.filter((x) => x.customerId === acme && x.verb === 'created').length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('refuses without a key, a zero amount, and an unpaid payment', async () => {
    const a = await portalPayment(acme, 700);
    const url = `/api/ops/portal-payments/${a.id}/refund/`;
    expect((await refund(ops, url, {})).statusCode).toBe(400);
    expect((await refund(ops, url, { amount_pence: 0 }, 'z')).statusCode).toBe(400);
    const unpaid = await portalPayment(acme, 700, false);
    const res = await refund(ops, `/api/ops/portal-payments/${unpaid.id}/refund/`, {}, 'u');
    expect(res.statusCode).toBe(400);
    expect((await refund(ops, '/api/ops/portal-payments/999999/refund/', {}, 'n')).statusCode).toBe(
      404,
    );
  });

  it('concurrent refunds: one per key, and together never more than was paid', async () => {
    const a = await portalPayment(acme, 1000);
    const url = `/api/ops/portal-payments/${a.id}/refund/`;
    const same = await Promise.all(
      [1, 2, 3].map(() => refund(ops, url, { amount_pence: 100 }, 'same-key')),
    );
    expect(same.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    const different = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => refund(ops, url, { amount_pence: 300 }, `k-${i}`)),
    );
    expect(different.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(different.filter((r) => r.statusCode === 400)).toHaveLength(2);
    const stored = await t.owner((tx) =>
      tx
        .select()
        .from(paymentRefunds)
        .where(and(eq(paymentRefunds.source, 'portal'), eq(paymentRefunds.paymentId, a.id))),
    );
    expect(stored.reduce((n, r) => n + r.amountPence, 0)).toBe(1000);
  });
});

/** The refund-retry jobs enqueued for refund `id`. */
const retryJobsOf = (id: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(queueJobs)
      .where(
        and(
          eq(queueJobs.name, REFUND_RETRY_JOB),
          sql`${queueJobs.data}->>'refund_id' = ${String(id)}`,
        ),
      ),
  );

describe('a refund whose answer was lost', () => {
  it('stays pending (still counted), and its job asks again with the same key: refunded once', async () => {
    const a = await portalPayment(acme, 1000);
    const url = `/api/ops/portal-payments/${a.id}/refund/`;
    const original = sim().createRefund.bind(sim());
    // the provider refunds, then its answer is lost (a timeout)
    const create = vi.spyOn(sim(), 'createRefund').mockImplementationOnce(async (input) => {
      await original(input);
      throw new PaymentsProviderError('The payments provider did not answer in time.', true);
    });
    const first = await refund(ops, url, { amount_pence: 600 }, 'lost-1');
    expect(first.statusCode).toBe(201);
    const d1 = first.json() as OpsPaymentDetailOut;
    expect(d1.refunds).toHaveLength(1);
    expect(d1.refunds[0]).toMatchObject({ amount_pence: 600, status: 'pending' });
    // still counted against what was paid: a second refund of the rest only
    expect(d1).toMatchObject({ refunded_pence: 600, refundable_pence: 400 });
    expect((await refund(ops, url, { amount_pence: 600 }, 'lost-2')).statusCode).toBe(400);
    const id = d1.refunds[0]?.id ?? 0;
    const jobs = await retryJobsOf(id);
    expect(jobs).toHaveLength(1);
    // the job asks the provider again with the same key: the refund it made, not a second one
    await retryRefund(t.app.deps, { customer_id: acme, refund_id: id });
    expect(create).toHaveBeenCalledTimes(2);
    const keys = create.mock.calls.map((c) => c[0].idempotency_key);
    expect(keys[0]).toBe(`kestrel-refund-${acme}-${id}`);
    expect(keys[1]).toBe(keys[0]);
    const d2 = (await get(ops, `/api/ops/portal-payments/${a.id}/`)).json() as OpsPaymentDetailOut;
    expect(d2.refunds[0]).toMatchObject({ status: 'succeeded', failure_message: null });
    expect(d2.refunds[0]?.provider_refund_id).toMatch(/^re_sim_/);
    expect(d2).toMatchObject({ refunded_pence: 600, state: 'partially_refunded' });
    // once settled, another run changes nothing and asks nothing
    await retryRefund(t.app.deps, { customer_id: acme, refund_id: id });
    expect(create).toHaveBeenCalledTimes(2);
    create.mockRestore();
  });

  it('a job whose provider is still out throws (the queue retries); a refusal marks it failed', async () => {
    const a = await portalPayment(acme, 500);
    const url = `/api/ops/portal-payments/${a.id}/refund/`;
    const create = vi
      .spyOn(sim(), 'createRefund')
      .mockRejectedValueOnce(new SimulatorRefusal(503, 'unavailable', 'Service unavailable.'))
      .mockRejectedValueOnce(new DOMException('The operation timed out.', 'TimeoutError'))
      .mockRejectedValueOnce(new SimulatorRefusal(400, 'charge_not_refundable', 'Refused.'));
    const first = (await refund(ops, url, {}, 'out-1')).json() as OpsPaymentDetailOut;
    expect(first.refunds[0]).toMatchObject({ status: 'pending' });
    const id = first.refunds[0]?.id ?? 0;
    await expect(retryRefund(t.app.deps, { customer_id: acme, refund_id: id })).rejects.toThrow();
    const d1 = (await get(ops, `/api/ops/portal-payments/${a.id}/`)).json() as OpsPaymentDetailOut;
    expect(d1.refunds[0]).toMatchObject({ status: 'pending' });
    await retryRefund(t.app.deps, { customer_id: acme, refund_id: id });
    const d2 = (await get(ops, `/api/ops/portal-payments/${a.id}/`)).json() as OpsPaymentDetailOut;
    expect(d2.refunds[0]).toMatchObject({ status: 'failed', failure_message: 'Refused.' });
    expect(d2).toMatchObject({ refunded_pence: 0, state: 'paid' });
    create.mockRestore();
  });

  it('a definite refusal at once marks it failed, with no job', async () => {
    const a = await portalPayment(acme, 300);
    const create = vi
      .spyOn(sim(), 'createRefund')
      .mockRejectedValueOnce(new PaymentsProviderError('The provider refused.', false, 400));
    const url = `/api/ops/portal-payments/${a.id}/refund/`;
    const d = (await refund(ops, url, {}, 'no-1')).json() as OpsPaymentDetailOut;
    expect(d.refunds[0]).toMatchObject({ status: 'failed' });
    expect(await retryJobsOf(d.refunds[0]?.id ?? 0)).toHaveLength(0);
    create.mockRestore();
  });
});

describe('a refund never answered', () => {
  it('alerts ops past the threshold: the dashboard counts it, the list filters it', async () => {
    const dashboard = async () =>
      ((await get(ops, '/api/ops/dashboard/')).json() as OpsDashboardOut).payments;
    const unanswered = async (source: 'portal' | 'product') =>
      (
        (await get(ops, `/api/ops/${source}-payments/?refund=unanswered`)).json() as {
          results: OpsPaymentRecordOut[];
        }
      ).results.map((p) => p.id);
    const before = (await dashboard()).refunds_unanswered;
    const a = await portalPayment(beta, 800);
    const other = await portalPayment(beta, 900);
    const create = vi
      .spyOn(sim(), 'createRefund')
      .mockRejectedValueOnce(new SimulatorRefusal(503, 'unavailable', 'Service unavailable.'));
    const url = `/api/ops/portal-payments/${a.id}/refund/`;
    const d = (await refund(ops, url, {}, 'never-1')).json() as OpsPaymentDetailOut;
    const id = d.refunds[0]?.id ?? 0;
    expect(d.refunds[0]).toMatchObject({ status: 'pending' });
    // just asked: the retries are still at work, no alert yet
    expect((await dashboard()).refunds_unanswered).toBe(before);
    expect(await unanswered('portal')).not.toContain(a.id);
    // past the threshold, still pending: the alert and its list (that payment, not another)
    const asked = new Date(t.clock.now().getTime() - (REFUND_UNANSWERED_HOURS * 60 + 1) * 60_000);
    await t.owner((tx) =>
      tx
        .update(paymentRefunds)
        .set({ createdAt: asked })
        .where(and(eq(paymentRefunds.customerId, beta), eq(paymentRefunds.id, id))),
    );
    expect((await dashboard()).refunds_unanswered).toBe(before + 1);
    const listed = await unanswered('portal');
    expect(listed).toContain(a.id);
    expect(listed).not.toContain(other.id);
    expect(await unanswered('product')).toEqual([]);
    expect((await get(ops, '/api/ops/portal-payments/?refund=sometime')).statusCode).toBe(400);
    // answered at last (the job's next ask): no longer an alert
    await retryRefund(t.app.deps, { customer_id: beta, refund_id: id });
    expect((await dashboard()).refunds_unanswered).toBe(before);
    expect(await unanswered('portal')).not.toContain(a.id);
    create.mockRestore();
  });
});

describe('ops product payments', () => {
  it('lists, shows and refunds them the same way', async () => {
    const p = await productPayment(beta, 4200);
    const list = await get(ops, `/api/ops/product-payments/?customer=${beta}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([
      expect.objectContaining({
        id: p.id,
        source: 'product',
        amount_display: '£42.00',
        state: 'paid',
      }),
    ]);
    const d = await get(ops, `/api/ops/product-payments/${p.id}/`);
    expect(d.json()).toMatchObject({ reference: `PP-${p.id}`, customer_name: 'Beta' });
    const url = `/api/ops/product-payments/${p.id}/refund/`;
    expect((await refund(ops, url, { amount_pence: 200 }, 'p1')).json()).toMatchObject({
      state: 'partially_refunded',
      refunded_display: '£2.00',
    });
    expect((await refund(ops, url, {}, 'p2')).json()).toMatchObject({ state: 'refunded' });
  });
});

describe('ops payments are for ops staff only', () => {
  it('customer staff and subjects get 403 on every list, detail and refund, and nothing is refunded', async () => {
    await t.owner(async (tx) => {
      await createProductUser(tx, { customerId: acme, username: 'staff@acme.test', roles: [] });
      await createSubjectUser(tx, { customerId: acme, email: 'sam.payer@example.test' });
    });
    const staff = await login(t.app, 'staff@acme.test');
    const viewer = await login(t.app, 'viewer@acme.test');
    const subject = await login(t.app, 'sam.payer@example.test');
    const portal = await portalPayment(acme, 1500);
    const product = await productPayment(acme, 2500);
    const refundsOf = (source: string, paymentId: number) =>
      t.owner((tx) =>
        tx
          .select()
          .from(paymentRefunds)
          .where(and(eq(paymentRefunds.source, source), eq(paymentRefunds.paymentId, paymentId))),
      );
    for (const [who, c] of [
      ['admin', admin],
      ['staff', staff],
      ['viewer', viewer],
      ['subject', subject],
    ] as const) {
      for (const [source, id] of [
        ['portal', portal.id],
        ['product', product.id],
      ] as const) {
        for (const url of [`/api/ops/${source}-payments/`, `/api/ops/${source}-payments/${id}/`]) {
          expect([who, url, (await get(c, url)).statusCode]).toEqual([who, url, 403]);
        }
        const url = `/api/ops/${source}-payments/${id}/refund/`;
        const full = await refund(c, url, {}, `${who}-${source}-full`);
        const part = await refund(c, url, { amount_pence: 100, request_id: `${who}-${source}-p` });
        expect([who, url, full.statusCode, part.statusCode]).toEqual([who, url, 403, 403]);
      }
    }
    expect(await refundsOf('portal', portal.id)).toEqual([]);
    expect(await refundsOf('product', product.id)).toEqual([]);
    for (const [source, id, paid] of [
      ['portal', portal.id, 1500],
      ['product', product.id, 2500],
    ] as const) {
      const d = (
        await get(ops, `/api/ops/${source}-payments/${id}/`)
      ).json() as OpsPaymentDetailOut;
      expect(d).toMatchObject({ paid_pence: paid, refundable_pence: paid });
    }
  });
});
