// @postgres: three runs of the card-retry job at once, on several connections (each held case's row locked)
import { CASE_PAYMENT_REASONS, type CaseDetailOut } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProcess,
  createProductUser,
  login,
  MemoryMailer,
  type TestApp,
} from '../../../test/helpers.js';
import { saveCard as saveCardAt } from '../../../test/payment-cards.js';
import { enqueue } from '../../platform/jobs.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { PaymentsSimulator, TEST_CARDS } from '../../providers/payments/simulator.js';
import { subscriptionCardRetryJob } from '../cycles/subscription-card-retry-job.js';
import { pricebookPrices, pricebooks } from '../pricebooks/pricebooks.table.js';
import { CASE_PAYMENT_CT } from './case-payment.js';
import { paymentsOf } from './config.js';
import { SUBSCRIPTION_CARD_RETRY_JOB } from './payment-methods.js';
import { productPayments } from './product-payments.table.js';

/*
 * A card saved retries the charges of the customer's cases held for payment (issue 31): the job
 * the card's record enqueues (subscriptions-card-retry) charges each held case whose charge failed
 * again, to the default card, once per case and card, audited naming the card saved; a paid or
 * cancelled case is not charged, nor another customer's. A removal that makes another card the
 * default retries too; removing the last card charges nothing.
 */

let t: TestApp;
const mailer = new MemoryMailer();
const ids: Record<string, number> = {};
const admins: Record<string, Client> = {};
const processes: Record<string, number> = {};
let n = 0;

const call = (c: Client, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: c.headers,
    ...(payload === undefined ? {} : { payload }),
  });

/** A new case of `name`'s priced process (basic details, £5.00): held, its charge made. */
async function openCase(name: string): Promise<{ id: number; email: string }> {
  n += 1;
  const email = `held${n}@${name}-people.test`;
  const admin = admins[name];
  if (!admin) throw new Error(`no ${name}`);
  const res = await call(admin, 'POST', '/api/cases/', {
    process: processes[name],
    new_subject: { first_name: 'Hana', last_name: 'Held', email },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect((res.json() as CaseDetailOut).state).toBe('awaiting-payment');
  return { id: (res.json() as CaseDetailOut).id, email };
}

/** Each case's attempts, as [attempt, status] in order. */
async function attempts(caseIds: number[]) {
  const out: [number, string][][] = [];
  for (const id of caseIds) {
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(productPayments)
        .where(eq(productPayments.caseId, id))
        .orderBy(productPayments.attempt),
    );
    out.push(rows.map((r) => [r.attempt, r.status]));
  }
  return out;
}

async function detail(name: string, id: number): Promise<CaseDetailOut> {
  const admin = admins[name];
  if (!admin) throw new Error(`no ${name}`);
  const res = await call(admin, 'GET', `/api/cases/${id}/`);
  expect(res.statusCode).toBe(200);
  return res.json() as CaseDetailOut;
}

const invited = (email: string) => mailer.sent.filter((m) => m.to === email).length;

/** The job once more, as a retried or duplicated run would be. */
async function runJobAgain(customerId: number, card: number) {
  await t.owner((tx) =>
    enqueue(tx, {
      name: SUBSCRIPTION_CARD_RETRY_JOB,
      data: { customer_id: customerId, payment_method_id: card },
    }),
  );
  await t.settle();
}

const saveCard = (name: string, card?: string) => {
  const admin = admins[name];
  if (!admin) throw new Error(`no ${name}`);
  return saveCardAt(t.app, admin, card);
};

function sim(): PaymentsSimulator {
  const p = paymentsOf(t.app.deps).provider;
  if (!(p instanceof PaymentsSimulator)) throw new Error('not the simulator');
  return p;
}

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false }, mailer });
  await t.owner(async (tx) => {
    for (const name of ['acme', 'other', 'third']) {
      const customer = (await createCustomer(tx, { name })).id;
      ids[name] = customer;
      await createProductUser(tx, { customerId: customer, username: `admin@${name}.test` });
      processes[name] = (
        await createProcess(tx, {
          customerId: customer,
          name: 'Care',
          requirements: ['basic-details'],
        })
      ).id;
      const [pb] = await tx
        .insert(pricebooks)
        .values({ customerId: customer, name: 'Prices', validFrom: '2000-01-01' })
        .returning();
      if (!pb) throw new Error('no pricebook');
      await tx.insert(pricebookPrices).values({
        customerId: customer,
        pricebookId: pb.id,
        activityType: 'basic-details',
        amountPence: 500,
      });
    }
  });
  for (const name of ['acme', 'other', 'third']) {
    admins[name] = await login(t.app, `admin@${name}.test`);
  }
});
afterAll(() => t.close());

describe("saving a card retries the charges of the customer's held cases", () => {
  const acmeCases: { id: number; email: string }[] = [];
  const otherCases: { id: number; email: string }[] = [];
  let cancelled = 0;

  it('held without a card: each charge failed, payment needed, nobody invited', async () => {
    for (let i = 0; i < 2; i += 1) acmeCases.push(await openCase('acme'));
    cancelled = (await openCase('acme')).id;
    for (let i = 0; i < 2; i += 1) otherCases.push(await openCase('other'));
    const admin = admins.acme;
    if (!admin) throw new Error('no acme');
    const res = await call(admin, 'POST', `/api/cases/${cancelled}/cancel/`, { reason: 'No' });
    expect(res.statusCode, res.body).toBe(200);
    await t.settle();
    const failed = [[1, 'failed']];
    expect(await attempts([...acmeCases, ...otherCases].map((c) => c.id))).toEqual([
      failed,
      failed,
      failed,
      failed,
    ]);
    for (const c of acmeCases) {
      expect((await detail('acme', c.id)).payment).toMatchObject({
        state: 'payment_needed',
        reason: CASE_PAYMENT_REASONS.noPaymentMethod,
      });
      expect(invited(c.email)).toBe(0);
    }
  });

  it("a card saved pays each held case once (three jobs at once), audited, invites; a cancelled case and another customer's untouched", async () => {
    const card = await saveCard('acme');
    const acme = ids.acme ?? 0;
    const data = { customer_id: acme, payment_method_id: card.id };
    // three runs at once (the one enqueued, a duplicate, a second server process)
    await Promise.all([
      subscriptionCardRetryJob.handle(data, t.app.deps),
      subscriptionCardRetryJob.handle(data, t.app.deps),
      subscriptionCardRetryJob.handle(data, t.app.deps),
    ]);
    await t.settle();
    const paid = [
      [1, 'failed'],
      [2, 'succeeded'],
    ];
    expect(await attempts(acmeCases.map((c) => c.id))).toEqual([paid, paid]);
    for (const c of acmeCases) {
      const d = await detail('acme', c.id);
      expect(d.state).toBe('awaiting-subject');
      expect(d.payment).toMatchObject({ state: 'paid', attempts: 2, card: 'Visa ending 4242' });
      expect(invited(c.email)).toBe(1);
    }
    // the case cancelled while held is not charged
    expect(await attempts([cancelled])).toEqual([[[1, 'failed']]]);
    expect((await detail('acme', cancelled)).state).toBe('cancelled');
    // the other customer's cases: not charged, still held
    expect(await attempts(otherCases.map((c) => c.id))).toEqual([[[1, 'failed']], [[1, 'failed']]]);
    expect((await detail('other', otherCases[0]?.id ?? 0)).state).toBe('awaiting-payment');
    // audited: one new attempt a case, by the system, naming the card saved
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.customerId, acme),
            eq(auditActions.contentType, CASE_PAYMENT_CT),
            eq(auditActions.verb, 'requested'),
          ),
        ),
    );
    expect(audit.map((a) => (a.changes as { case: number }).case).sort()).toEqual(
      acmeCases.map((c) => c.id).sort(),
    );
    for (const a of audit) {
      expect(a.actorType).toBeNull(); // the system
      expect(a.changes).toMatchObject({ attempt: 2, card_saved: card.id });
    }
    // the job run again, a second card made the default: a paid case is not charged again
    await runJobAgain(acme, card.id);
    const second = await saveCard('acme');
    const admin = admins.acme;
    if (!admin) throw new Error('no acme');
    const made = await call(admin, 'POST', `/api/payment-methods/${second.id}/set-default/`);
    expect(made.statusCode, made.body).toBe(200);
    await t.settle();
    expect(await attempts(acmeCases.map((c) => c.id))).toEqual([paid, paid]);
    expect(await attempts([cancelled])).toEqual([[[1, 'failed']]]);
  });

  it('a declining card is tried once per case; a good card made the default pays', async () => {
    const other = ids.other ?? 0;
    const declining = await saveCard('other', TEST_CARDS.insufficientFunds);
    await t.settle();
    const declined = [
      [1, 'failed'],
      [2, 'failed'],
    ];
    const caseIds = otherCases.map((c) => c.id);
    expect(await attempts(caseIds)).toEqual([declined, declined]);
    expect((await detail('other', caseIds[0] ?? 0)).payment).toMatchObject({
      state: 'payment_needed',
      reason: 'Your card has insufficient funds.',
    });
    await runJobAgain(other, declining.id);
    expect(await attempts(caseIds)).toEqual([declined, declined]);
    // a good card beside it is not the default: nothing charged until it is made so
    const good = await saveCard('other');
    await t.settle();
    expect(await attempts(caseIds)).toEqual([declined, declined]);
    const admin = admins.other;
    if (!admin) throw new Error('no other');
    const made = await call(admin, 'POST', `/api/payment-methods/${good.id}/set-default/`);
    expect(made.statusCode, made.body).toBe(200);
    await t.settle();
    const paid = [...declined, [3, 'succeeded']];
    expect(await attempts(caseIds)).toEqual([paid, paid]);
    for (const c of otherCases) expect(invited(c.email)).toBe(1);
  });
});

describe('removing a card', () => {
  it('the last card removed charges nothing; the default removed while another is saved retries to that card', async () => {
    const admin = admins.third;
    if (!admin) throw new Error('no third');
    const first = await saveCard('third', TEST_CARDS.insufficientFunds);
    const held = await openCase('third');
    await t.settle();
    expect(await attempts([held.id])).toEqual([[[1, 'failed']]]);
    // the last card removed: no default, nothing charged
    expect((await call(admin, 'DELETE', `/api/payment-methods/${first.id}/`)).statusCode).toBe(204);
    await t.settle();
    expect(await attempts([held.id])).toEqual([[[1, 'failed']]]);
    // a declining card saved: tried once with it
    const declining = await saveCard('third', TEST_CARDS.insufficientFunds);
    await t.settle();
    const declined = [
      [1, 'failed'],
      [2, 'failed'],
    ];
    expect(await attempts([held.id])).toEqual([declined]);
    // removing it (the only card when asked) while a good card is saved meanwhile: the good card
    // becomes the default when the removal is recorded, and the held case is charged to it
    const detach = vi.spyOn(sim(), 'detachPaymentMethod');
    detach.mockImplementationOnce(async (id) => {
      await saveCard('third');
      // the good card's own job runs while the declining card is still the default: nothing
      await t.settle();
      expect(await attempts([held.id])).toEqual([declined]);
      return PaymentsSimulator.prototype.detachPaymentMethod.call(sim(), id);
    });
    try {
      const removed = await call(admin, 'DELETE', `/api/payment-methods/${declining.id}/`);
      expect(removed.statusCode, removed.body).toBe(204);
    } finally {
      detach.mockRestore();
    }
    const cards = await call(admin, 'GET', '/api/payment-methods/');
    expect(
      (cards.json() as { results: { last4: string; is_default: boolean }[] }).results,
    ).toMatchObject([{ last4: '4242', is_default: true }]);
    await t.settle();
    expect(await attempts([held.id])).toEqual([[...declined, [3, 'succeeded']]]);
    expect(invited(held.email)).toBe(1);
  });
});
