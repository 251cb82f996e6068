// @postgres: three runs of the card-retry job at once, on several connections (each subscription row locked)
import { CASE_PAYMENT_REASONS } from '@kestrel/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, priceDbsUpdate, subscriptionCalls } from '../../../test/cycles-world.js';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { confirmCard, saveCard as saveCardAt } from '../../../test/payment-cards.js';
import { enqueue } from '../../platform/jobs.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { TEST_CARDS } from '../../providers/payments/simulator.js';
import { SUBSCRIPTION_CARD_RETRY_JOB } from '../payments/payment-methods.js';
import { productPayments } from '../payments/product-payments.table.js';
import { subscriptionCharges } from './cycles.table.js';
import { subscriptionCardRetryJob } from './subscription-card-retry-job.js';
import { SUBSCRIPTION_CT } from './subscriptions.service.js';
import { runSubscriptionsDue } from './subscriptions-due-job.js';

/*
 * A card saved retries the subscription billing periods whose charge failed (issue 31): the job
 * the card's record enqueues (subscriptions-card-retry) makes the retry POST
 * /api/subscription-charges/{id}/retry-payment/ would, to the default card, once per period and
 * card; a paid period is never charged again, another customer's periods are not touched.
 */

let t: TestApp;
let acme: number;
let other: number;
let third: number;
let acmeAdmin: Client;
let otherAdmin: Client;
let thirdAdmin: Client;
const acmeSubs: number[] = [];
const otherSubs: number[] = [];
const thirdSubs: number[] = [];

const { call, billing, subscribe } = subscriptionCalls(() => t);

/** Each subscription's period attempts, as [attempt, status] in order. */
async function attempts(customerId: number, subs: number[]) {
  const out: [number, string][][] = [];
  for (const s of subs) {
    const [charge] = await t.owner((tx) =>
      tx.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, s)),
    );
    const key = `kestrel-subscription-${customerId}-${charge?.id}`;
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(productPayments)
        .where(and(eq(productPayments.customerId, customerId), isNull(productPayments.caseId)))
        .orderBy(productPayments.id),
    );
    out.push(
      rows
        .filter((r) => r.idempotencyKey === key || r.idempotencyKey?.startsWith(`${key}-`))
        .map((r) => [r.attempt, r.status]),
    );
  }
  return out;
}

/** The job once more, as a retried or duplicated run would be. */
const runJobAgain = async (customerId: number, card: number) => {
  await t.owner((tx) =>
    enqueue(tx, {
      name: SUBSCRIPTION_CARD_RETRY_JOB,
      data: { customer_id: customerId, payment_method_id: card },
    }),
  );
  await t.settle();
};

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  const setup: { customer: number; process: number; subjects: number[] }[] = [];
  await t.owner(async (tx) => {
    for (const name of ['acme', 'other', 'third']) {
      const customer = (await createCustomer(tx, { name, entitlements: ['cycles'] })).id;
      await createProductUser(tx, { customerId: customer, username: `admin@${name}.test` });
      const process = (await createProcess(tx, { customerId: customer, name: 'Care' })).id;
      const subjects: number[] = [];
      for (let i = 0; i < 2; i += 1) {
        const email = `card${i}@${name}-people.test`;
        subjects.push((await createSubjectUser(tx, { customerId: customer, email })).id);
      }
      await priceDbsUpdate(tx, customer, false);
      setup.push({ customer, process, subjects });
    }
  });
  const [a, o, h] = setup;
  if (!a || !o || !h) throw new Error('no customers');
  acme = a.customer;
  other = o.customer;
  third = h.customer;
  acmeAdmin = await login(t.app, 'admin@acme.test');
  otherAdmin = await login(t.app, 'admin@other.test');
  thirdAdmin = await login(t.app, 'admin@third.test');
  for (const s of a.subjects) acmeSubs.push(await subscribe(acmeAdmin, s, a.process));
  for (const s of o.subjects) otherSubs.push(await subscribe(otherAdmin, s, o.process));
  for (const s of h.subjects) thirdSubs.push(await subscribe(thirdAdmin, s, h.process));
  // no card saved: every period's charge fails at once
  t.clock.advance(2 * DAY);
  await runSubscriptionsDue(t.app.deps);
  await t.settle();
  acmeAdmin = await login(t.app, 'admin@acme.test'); // the sessions idled out
  otherAdmin = await login(t.app, 'admin@other.test');
  thirdAdmin = await login(t.app, 'admin@third.test');
});
afterAll(() => t.close());

describe('saving a card retries the failed subscription billing periods', () => {
  it('every period failed without a card', async () => {
    expect(await attempts(acme, acmeSubs)).toEqual([[[1, 'failed']], [[1, 'failed']]]);
    expect(await attempts(other, otherSubs)).toEqual([[[1, 'failed']], [[1, 'failed']]]);
    const shown = await billing(acmeAdmin, acmeSubs);
    expect(shown.map((b) => [b.state, b.reason])).toEqual([
      ['failed', CASE_PAYMENT_REASONS.noPaymentMethod],
      ['failed', CASE_PAYMENT_REASONS.noPaymentMethod],
    ]);
  });

  it("a card saved pays the customer's failed periods, once each, audited; another customer's untouched", async () => {
    const card = await saveCardAt(t.app, acmeAdmin);
    // two more runs at once beside the one enqueued (a duplicate, a second server process)
    const data = { customer_id: acme, payment_method_id: card.id };
    await Promise.all([
      subscriptionCardRetryJob.handle(data, t.app.deps),
      subscriptionCardRetryJob.handle(data, t.app.deps),
    ]);
    await t.settle();
    expect(await attempts(acme, acmeSubs)).toEqual([
      [
        [1, 'failed'],
        [2, 'succeeded'],
      ],
      [
        [1, 'failed'],
        [2, 'succeeded'],
      ],
    ]);
    const shown = await billing(acmeAdmin, acmeSubs);
    expect(shown.map((b) => [b.state_display, b.attempts, b.reason])).toEqual([
      ['Paid', 2, null],
      ['Paid', 2, null],
    ]);
    // the other customer's periods: not charged, still failed
    expect(await attempts(other, otherSubs)).toEqual([[[1, 'failed']], [[1, 'failed']]]);
    expect((await billing(otherAdmin, otherSubs)).map((b) => b.state)).toEqual([
      'failed',
      'failed',
    ]);
    // audited on each subscription, by the system, naming the card saved
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.customerId, acme),
            eq(auditActions.contentType, SUBSCRIPTION_CT),
            eq(auditActions.verb, 'requested'),
          ),
        ),
    );
    expect(audit.map((a) => a.objectId).sort()).toEqual(acmeSubs.map(String).sort());
    for (const a of audit) {
      expect(a.changes).toMatchObject({ retry_payment: { attempt: 2, card_saved: card.id } });
    }
  });

  it('a paid period is not charged again: a second card, a new default, the job run again', async () => {
    const second = await saveCardAt(t.app, acmeAdmin);
    expect(second.is_default).toBe(false);
    await t.settle();
    const made = await call(acmeAdmin, 'POST', `/api/payment-methods/${second.id}/set-default/`);
    expect(made.statusCode, made.body).toBe(200);
    await t.settle();
    await runJobAgain(acme, second.id);
    expect(await attempts(acme, acmeSubs)).toEqual([
      [
        [1, 'failed'],
        [2, 'succeeded'],
      ],
      [
        [1, 'failed'],
        [2, 'succeeded'],
      ],
    ]);
  });

  it('a declined card is tried once per period (a second run does not charge it again); a new default card pays', async () => {
    const declining = await saveCardAt(t.app, otherAdmin, TEST_CARDS.insufficientFunds);
    await t.settle();
    const declined = [
      [1, 'failed'],
      [2, 'failed'],
    ];
    expect(await attempts(other, otherSubs)).toEqual([declined, declined]);
    expect((await billing(otherAdmin, otherSubs)).map((b) => b.reason)).toEqual([
      'Your card has insufficient funds.',
      'Your card has insufficient funds.',
    ]);
    await runJobAgain(other, declining.id);
    expect(await attempts(other, otherSubs)).toEqual([declined, declined]);
    // a good card saved beside it is not the default: nothing is charged until it is made so
    const good = await saveCardAt(t.app, otherAdmin);
    await t.settle();
    expect(await attempts(other, otherSubs)).toEqual([declined, declined]);
    const made = await call(otherAdmin, 'POST', `/api/payment-methods/${good.id}/set-default/`);
    expect(made.statusCode, made.body).toBe(200);
    await t.settle();
    const paid = [...declined, [3, 'succeeded']];
    expect(await attempts(other, otherSubs)).toEqual([paid, paid]);
    // acme's periods were not touched by the other customer's cards
    expect((await attempts(acme, acmeSubs)).map((a) => a.length)).toEqual([2, 2]);
  });

  it('only a setup flow that completes retries: a failed 3-D Secure or a declined card charges nothing', async () => {
    const challenge = async (result: 'pass' | 'fail') => {
      const { setup, confirm } = await confirmCard(t.app, thirdAdmin, TEST_CARDS.setupThreeDSecure);
      const url = (confirm.json() as { next_action: { redirect_to_url: { url: string } } })
        .next_action.redirect_to_url.url;
      const answered = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `result=${result}`,
      });
      expect(answered.statusCode).toBe(303);
      return call(thirdAdmin, 'POST', '/api/payment-methods/', { setup_intent: setup.id });
    };
    expect((await challenge('fail')).statusCode).toBe(400);
    const declined = await confirmCard(t.app, thirdAdmin, TEST_CARDS.declined);
    const refused = await call(thirdAdmin, 'POST', '/api/payment-methods/', {
      setup_intent: declined.setup.id,
    });
    expect(refused.statusCode).toBe(400);
    await t.settle();
    expect(await attempts(third, thirdSubs)).toEqual([[[1, 'failed']], [[1, 'failed']]]);
    // the challenge passed: saved, and the periods paid
    expect((await challenge('pass')).statusCode).toBe(201);
    await t.settle();
    const paid = [
      [1, 'failed'],
      [2, 'succeeded'],
    ];
    expect(await attempts(third, thirdSubs)).toEqual([paid, paid]);
  });
});
