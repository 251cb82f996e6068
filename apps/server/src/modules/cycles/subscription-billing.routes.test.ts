// @postgres: two retries of a billing period at once, on two connections (the subscription row's lock)
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
import { saveCard as saveCardAt } from '../../../test/payment-cards.js';
import { createRole } from '../../db/factories.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { TEST_CARDS } from '../../providers/payments/simulator.js';
import { SUBSCRIPTION_NOTHING_TO_RETRY } from '../payments/case-payment.js';
import { productPayments } from '../payments/product-payments.table.js';
import { processes } from '../processes/processes.table.js';
import { segments, segmentUsers } from '../segments/segments.table.js';
import { subscriptionCharges } from './cycles.table.js';
import { SUBSCRIPTION_CT } from './subscriptions.service.js';
import { runSubscriptionsDue } from './subscriptions-due-job.js';

/*
 * A subscription's billing (issue 31): the last period's state on GET /api/subscriptions/billing/
 * and the retry of a failed period's card charge, POST /api/subscription-charges/{id}/retry-payment/.
 */

let t: TestApp;
let acme: number;
let invoicedCustomer: number;
let admin: Client;
let reader: Client;
let plain: Client;
let theirs: Client;
let care: number;
const people: number[] = [];
let theirSubject: number;
const subs: number[] = [];

const { call, billing, subscribe } = subscriptionCalls(() => t);

/** A card saved for `c`'s customer through the simulator (as Stripe.js and the screen do). */
const saveCard = (c: Client, card?: string) => saveCardAt(t.app, c, card);

const attemptsOf = (customerId: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(productPayments)
      .where(and(eq(productPayments.customerId, customerId), isNull(productPayments.caseId)))
      .orderBy(productPayments.id),
  );

const chargeOf = async (subscriptionId: number) => {
  const [c] = await t.owner((tx) =>
    tx
      .select()
      .from(subscriptionCharges)
      .where(eq(subscriptionCharges.subscriptionId, subscriptionId)),
  );
  if (!c) throw new Error('no billing period');
  return c;
};

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  let invoicedProcess = 0;
  let invoicedSubject = 0;
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme', entitlements: ['cycles'] })).id;
    const other = (await createCustomer(tx, { name: 'Other', entitlements: ['cycles'] })).id;
    const without = (await createCustomer(tx, { name: 'Plain' })).id;
    invoicedCustomer = (await createCustomer(tx, { name: 'Billed', entitlements: ['cycles'] })).id;
    await createProductUser(tx, { customerId: acme, username: 'admin@acme.test' });
    // sees subscriptions, may not charge the card
    const role = await createRole(tx, {
      customerId: acme,
      permissions: ['cycles.view_cycle', 'subscriptions.view_subscription'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'reader@acme.test',
      roles: [role.id],
    });
    await createProductUser(tx, { customerId: without, username: 'admin@plain.test' });
    await createProductUser(tx, { customerId: other, username: 'admin@other.test' });
    await createProductUser(tx, { customerId: invoicedCustomer, username: 'admin@billed.test' });
    care = (await createProcess(tx, { customerId: acme, name: 'Care' })).id;
    invoicedProcess = (await createProcess(tx, { customerId: invoicedCustomer })).id;
    for (let i = 0; i < 3; i += 1) {
      people.push(
        (await createSubjectUser(tx, { customerId: acme, email: `bill${i}@acme-people.test` })).id,
      );
    }
    theirSubject = (await createSubjectUser(tx, { customerId: other })).id;
    invoicedSubject = (await createSubjectUser(tx, { customerId: invoicedCustomer })).id;
    await priceDbsUpdate(tx, acme, false);
    await priceDbsUpdate(tx, invoicedCustomer, true);
  });
  admin = await login(t.app, 'admin@acme.test');
  reader = await login(t.app, 'reader@acme.test');
  plain = await login(t.app, 'admin@plain.test');
  theirs = await login(t.app, 'admin@other.test');
  const billed = await login(t.app, 'admin@billed.test');
  // no card saved: every period's charge fails at once
  for (const p of people) subs.push(await subscribe(admin, p, care));
  subs.push(await subscribe(billed, invoicedSubject, invoicedProcess));
  t.clock.advance(2 * DAY);
  await runSubscriptionsDue(t.app.deps);
  await t.settle();
  admin = await login(t.app, 'admin@acme.test'); // the sessions idled out
  reader = await login(t.app, 'reader@acme.test');
  plain = await login(t.app, 'admin@plain.test');
  theirs = await login(t.app, 'admin@other.test');
  expect(theirSubject).toBeGreaterThan(0);
});
afterAll(() => t.close());

describe('a subscription billing period charged by card', () => {
  it("shows each subscription's last period: failed with the reason, or invoiced", async () => {
    const [a, b] = subs;
    const out = await billing(admin, [a ?? 0, b ?? 0]);
    expect(out).toHaveLength(2);
    expect(out.find((o) => o.subscription === a)).toMatchObject({
      state: 'failed',
      state_display: 'Payment failed',
      reason: CASE_PAYMENT_REASONS.noPaymentMethod,
      amount_pence: 1300,
      amount_display: '£13.00',
      attempts: 1,
    });
    const billed = await login(t.app, 'admin@billed.test');
    const inv = await billing(billed, [subs[3] ?? 0]);
    expect(inv).toEqual([
      expect.objectContaining({ state: 'invoiced', state_display: 'Invoiced', reason: null }),
    ]);
    // another customer's subscriptions are absent; a bad id is 400
    expect(await billing(theirs, [a ?? 0])).toEqual([]);
    const bad = await call(admin, 'GET', '/api/subscriptions/billing/?subscription=x');
    expect(bad.statusCode).toBe(400);
    // the reader sees it (subscriptions.view_subscription); without it or the cycles entitlement: 403
    expect((await billing(reader, [a ?? 0])).map((o) => o.state)).toEqual(['failed']);
    const url = `/api/subscriptions/billing/?subscription=${a}`;
    expect((await call(plain, 'GET', url)).statusCode).toBe(403);
    await t.owner(async (tx) => {
      const role = await createRole(tx, { customerId: acme, permissions: ['cycles.view_cycle'] });
      await createProductUser(tx, {
        customerId: acme,
        username: 'cycles@acme.test',
        roles: [role.id],
      });
    });
    const cyclesOnly = await login(t.app, 'cycles@acme.test');
    expect((await call(cyclesOnly, 'GET', url)).statusCode).toBe(403);
  });

  it('the retry: the cycles entitlement and the payments permission (403), tenancy (404), 400 with no card', async () => {
    const charge = await chargeOf(subs[0] ?? 0);
    const url = `/api/subscription-charges/${charge.id}/retry-payment/`;
    expect((await call(plain, 'POST', url)).statusCode).toBe(403);
    expect((await call(reader, 'POST', url)).statusCode).toBe(403);
    expect((await call(theirs, 'POST', url)).statusCode).toBe(404);
    expect(
      (await call(admin, 'POST', '/api/subscription-charges/999999/retry-payment/')).statusCode,
    ).toBe(404);
    expect(
      (await call(admin, 'POST', '/api/subscription-charges/abc/retry-payment/')).statusCode,
    ).toBe(404);
    const none = await call(admin, 'POST', url);
    expect([none.statusCode, none.json()]).toEqual([
      400,
      { non_field_errors: [CASE_PAYMENT_REASONS.noPaymentMethod] },
    ]);
    // an invoiced period has no payment to retry
    const billed = await login(t.app, 'admin@billed.test');
    const inv = await chargeOf(subs[3] ?? 0);
    const r = await call(billed, 'POST', `/api/subscription-charges/${inv.id}/retry-payment/`);
    expect([r.statusCode, r.json()]).toEqual([
      400,
      { non_field_errors: [SUBSCRIPTION_NOTHING_TO_RETRY] },
    ]);
    expect(await attemptsOf(acme)).toHaveLength(3);
  });

  it('retries a failed period to the new card once: paid, audited; a second retry is 400', async () => {
    await saveCard(admin);
    const charge = await chargeOf(subs[0] ?? 0);
    const url = `/api/subscription-charges/${charge.id}/retry-payment/`;
    const res = await call(admin, 'POST', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      subscription: subs[0],
      charge: charge.id,
      state: 'pending',
      attempts: 2,
      reason: null,
    });
    // while it processes, and once paid, nothing is retried
    const again = await call(admin, 'POST', url);
    expect([again.statusCode, again.json()]).toEqual([
      400,
      { non_field_errors: [SUBSCRIPTION_NOTHING_TO_RETRY] },
    ]);
    await t.settle();
    const [shown] = await billing(admin, [subs[0] ?? 0]);
    expect(shown).toMatchObject({ state: 'paid', state_display: 'Paid', attempts: 2 });
    expect((await call(admin, 'POST', url)).statusCode).toBe(400);
    const rows = (await attemptsOf(acme)).filter((r) =>
      r.idempotencyKey?.startsWith(`kestrel-subscription-${acme}-${charge.id}`),
    );
    expect(rows.map((r) => [r.attempt, r.status, r.idempotencyKey])).toEqual([
      [1, 'failed', `kestrel-subscription-${acme}-${charge.id}`],
      [2, 'succeeded', `kestrel-subscription-${acme}-${charge.id}-2`],
    ]);
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.customerId, acme),
            eq(auditActions.contentType, SUBSCRIPTION_CT),
            eq(auditActions.objectId, String(subs[0])),
            eq(auditActions.verb, 'requested'),
          ),
        ),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.changes).toMatchObject({ retry_payment: { charge: charge.id, attempt: 2 } });
  });

  it("two retries at once, and the card's automatic retry, make one attempt (the other is 400)", async () => {
    // the card saved in the last test retried the other failed periods (the job, at settle)
    const others = await billing(admin, [subs[1] ?? 0, subs[2] ?? 0]);
    expect(others.map((b) => [b.state, b.attempts])).toEqual([
      ['paid', 2],
      ['paid', 2],
    ]);
    // a new period failing: the card removed, a new subscription due
    const cards = await call(admin, 'GET', '/api/payment-methods/');
    for (const m of (cards.json() as { results: { id: number }[] }).results) {
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/api/payment-methods/${m.id}/`,
            headers: admin.headers,
          })
        ).statusCode,
      ).toBe(204);
    }
    const person = await t.owner(
      async (tx) =>
        (await createSubjectUser(tx, { customerId: acme, email: 'bill9@acme-people.test' })).id,
    );
    const sub = await subscribe(admin, person, care);
    t.clock.advance(2 * DAY);
    await runSubscriptionsDue(t.app.deps);
    await t.settle();
    admin = await login(t.app, 'admin@acme.test');
    const charge = await chargeOf(sub);
    // a card saved (its automatic retry enqueued, run at settle) and two retries at once
    await saveCard(admin);
    const url = `/api/subscription-charges/${charge.id}/retry-payment/`;
    const both = await Promise.all([call(admin, 'POST', url), call(admin, 'POST', url)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    await t.settle();
    const rows = (await attemptsOf(acme)).filter((r) =>
      r.idempotencyKey?.startsWith(`kestrel-subscription-${acme}-${charge.id}`),
    );
    expect(rows.map((r) => r.status)).toEqual(['failed', 'succeeded']);
  });
});

/** Removes every card the customer saved (DELETE /api/payment-methods/{id}/). */
async function removeCards() {
  const cards = await call(admin, 'GET', '/api/payment-methods/');
  for (const m of (cards.json() as { results: { id: number }[] }).results) {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/payment-methods/${m.id}/`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(204);
  }
}

describe("a period's billing: segment scope, and retries past twenty", () => {
  it("a segment-limited user sees the billing of their segment's subscriptions only (review B2)", async () => {
    await t.owner(async (tx) => {
      const [north, south] = await tx
        .insert(segments)
        .values([
          { customerId: acme, name: 'North' },
          { customerId: acme, name: 'South' },
        ])
        .returning();
      // the subscriptions' cases are of Care, a process of North
      await tx
        .update(processes)
        .set({ segmentId: north?.id ?? 0 })
        .where(and(eq(processes.customerId, acme), eq(processes.id, care)));
      const role = await createRole(tx, {
        customerId: acme,
        permissions: [
          'cycles.view_cycle',
          'subscriptions.view_subscription',
          'payments.add_payment',
        ],
      });
      for (const [name, segment] of [
        ['north', north],
        ['south', south],
      ] as const) {
        const u = await createProductUser(tx, {
          customerId: acme,
          username: `${name}@acme.test`,
          roles: [role.id],
        });
        await tx
          .insert(segmentUsers)
          .values({ customerId: acme, segmentId: segment?.id ?? 0, userId: u.id });
      }
    });
    const north = await login(t.app, 'north@acme.test');
    const south = await login(t.app, 'south@acme.test');
    const ids = [subs[0] ?? 0, subs[1] ?? 0];
    const seen = await billing(north, ids);
    expect(seen.map((b) => [b.subscription, b.state]).sort()).toEqual(
      ids.map((id) => [id, 'paid']).sort(),
    );
    // another segment's subscriptions: no amounts, states or reasons, as if they did not exist
    expect(await billing(south, ids)).toEqual([]);
    expect(await billing(south, [subs[0] ?? 0])).toEqual([]);
    const charge = await chargeOf(subs[0] ?? 0);
    const retry = await call(
      south,
      'POST',
      `/api/subscription-charges/${charge.id}/retry-payment/`,
    );
    expect(retry.statusCode).toBe(404);
  });

  it('a period retried more than twenty times is still read: its last attempt, retried again and paid (review B3)', async () => {
    await removeCards();
    const person = await t.owner(
      async (tx) =>
        (await createSubjectUser(tx, { customerId: acme, email: 'bill20@acme-people.test' })).id,
    );
    const sub = await subscribe(admin, person, care);
    t.clock.advance(2 * DAY);
    await runSubscriptionsDue(t.app.deps);
    await t.settle();
    admin = await login(t.app, 'admin@acme.test');
    const charge = await chargeOf(sub);
    // a card the bank declines: its automatic retry is attempt 2, each retry after it fails too
    await saveCard(admin, TEST_CARDS.insufficientFunds);
    await t.settle();
    const url = `/api/subscription-charges/${charge.id}/retry-payment/`;
    for (let attempt = 3; attempt <= 21; attempt += 1) {
      const res = await call(admin, 'POST', url);
      expect([attempt, res.statusCode, res.body]).toEqual([
        attempt,
        200,
        expect.stringContaining(`"attempts":${attempt}`),
      ]);
      await t.settle();
    }
    const [failed] = await billing(admin, [sub]);
    expect(failed).toMatchObject({ state: 'failed', attempts: 21 });
    expect(failed?.reason).not.toBeNull();
    // the card replaced by one that pays: the automatic retry makes attempt 22, paid
    await removeCards();
    await saveCard(admin);
    await t.settle();
    expect((await billing(admin, [sub]))[0]).toMatchObject({ state: 'paid', attempts: 22 });
    const again = await call(admin, 'POST', url);
    expect([again.statusCode, again.json()]).toEqual([
      400,
      { non_field_errors: [SUBSCRIPTION_NOTHING_TO_RETRY] },
    ]);
    const key = `kestrel-subscription-${acme}-${charge.id}`;
    const rows = (await attemptsOf(acme)).filter(
      (r) => r.idempotencyKey === key || r.idempotencyKey?.startsWith(`${key}-`),
    );
    expect(rows.map((r) => r.attempt)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.status === 'succeeded')).toHaveLength(1);
  });
});
