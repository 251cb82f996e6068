// @postgres: the provider-intent job run twice at once, truly concurrent on PostgreSQL: one intent

import type { ActivityConfig, PaymentPortalOut } from '@kestrel/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { jobActor } from '../../jobs/service-job.js';
import { queueJobs } from '../../platform/jobs.js';
import { runInTenant } from '../../platform/service-context.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { signWebhook } from '../../platform/webhooks.js';
import { PaymentsProviderError } from '../../providers/payments/provider.js';
import {
  PaymentsSimulator,
  SimulatorRefusal,
  TEST_CARDS,
} from '../../providers/payments/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { paymentsOf } from './config.js';
import { createPayment } from './payments.factories.js';
import { paymentIntents, payments } from './payments.table.js';
import { makeProviderIntent } from './provider-intent-job.js';
import { createTopUpIntent, PROVIDER_INTENT_JOB } from './service.js';

let t: TestApp;
/** The installation's simulator secret the webhooks are signed and verified with. */
const webhookSecret = () => paymentsOf(t.app.deps).config.webhookSecret;
let acme: number;
let admin: Client;
let viewer: Client;
let other: Client;
let ops: Client;

const PAPER: ActivityConfig = {
  paper_cert: true,
  paper_cert_name: 'Ada Smith',
  paper_cert_line_one: '1 High Street',
  paper_cert_town: 'Leeds',
  paper_cert_postcode: 'LS1 1AA',
};

beforeAll(async () => {
  // No workers: jobs run when a test settles them (a provider intent not made yet is seen).
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    const beta = (await createCustomer(tx, { name: 'Beta' })).id;
    await createAdminAndViewer(tx, beta, 'beta.test');
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  other = await login(t.app, 'admin@beta.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const sim = () => {
  const p = paymentsOf(t.app.deps).provider;
  if (!(p instanceof PaymentsSimulator)) throw new Error('not the simulator');
  return p;
};

/**
 * A basic check with a paper certificate, submitted: the price list's top-up (£3.50) awaits. Its
 * jobs are run (the payment intent and its provider intent made) unless `settle` is false.
 */
async function awaitingTopUp({ settle = true } = {}) {
  const k = await t.owner(async (tx) => {
    const p = await createProcess(tx, {
      customerId: acme,
      requirements: [{ code: 'dbs-basic', config: PAPER }],
    });
    const c = await createCase(tx, { customerId: acme, processId: p.id });
    await createCaseBasicDetails(
      tx,
      { customerId: acme, caseId: c.id },
      { forename: 'Ada', surname: 'Smith', dob: '1990-01-01' },
    );
    const [a] = await tx.select().from(caseActivities).where(eq(caseActivities.caseId, c.id));
    if (!a) throw new Error('no activity');
    return { caseId: c.id, activityId: a.id };
  });
  const { activitiesSubmitted } = await import('../checks/hooks.js');
  await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
    activitiesSubmitted(ctx, k.caseId, [k.activityId]),
  );
  if (settle) await t.settle();
  return k;
}

async function activity(id: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/case-activities/${id}/`,
    headers: admin.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    state: string;
    processing_data: {
      top_up: { status: string; payment_intent: string | null } | null;
      events: { type: string; body: Record<string, unknown> }[];
    };
    result_data: { top_up: { status: string; amount: number; payment_id: string | null } | null };
  };
}

async function portal(publicId: string, host = 'localhost') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/public/payment-portal/${publicId}/`,
    headers: { host },
  });
  return { status: res.statusCode, body: res.json() as PaymentPortalOut };
}

/** An awaited top-up with its intent, opened in the portal (its job made the provider's intent). */
async function openedIntent() {
  const k = await awaitingTopUp();
  const made = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
    createTopUpIntent(ctx, k.activityId),
  );
  const p = await portal(made.id);
  expect(p.status).toBe(200);
  return { ...k, publicId: made.id, portal: p.body };
}

/** The browser's look at the provider's intent (Stripe.js's retrievePaymentIntent). */
async function retrieve(
  p: PaymentPortalOut,
  secret = p.client_secret ?? '',
  key = p.publishable_key,
) {
  return t.app.inject({
    method: 'GET',
    url: `${p.api_base}/v1/payment_intents/${p.provider_intent_id}`,
    query: { client_secret: secret, key },
  });
}

async function confirm(p: PaymentPortalOut, card: string) {
  return t.app.inject({
    method: 'POST',
    url: `${p.api_base}/v1/payment_intents/${p.provider_intent_id}/confirm`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      key: p.publishable_key,
      client_secret: p.client_secret ?? '',
      'payment_method_data[card][number]': card,
      return_url: `/payment-portal/${p.id}`,
    }).toString(),
  });
}

const counts = () =>
  t.owner(async (tx) => ({
    payments: (await tx.select().from(payments)).length,
    intents: await tx.select().from(paymentIntents),
  }));

describe('the top-up intent', () => {
  it('is made once per activity, linked from the top-up, in pence', async () => {
    const k = await awaitingTopUp();
    const first = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      createTopUpIntent(ctx, k.activityId),
    );
    const again = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
      createTopUpIntent(ctx, k.activityId),
    );
    // the engine's demand enqueued the payments job that made it already (awaitingTopUp settles)
    expect(first.created).toBe(false);
    expect(again).toMatchObject({ id: first.id, created: false });
    expect((await counts()).intents.filter((i) => i.caseActivityId === k.activityId)).toHaveLength(
      1,
    );
    expect(first.url).toBe(`/payment-portal/${first.id}`);
    expect(first.id).toMatch(/^pit_[A-Za-z0-9_-]{24}$/);
    const a = await activity(k.activityId);
    expect(a.processing_data.top_up).toMatchObject({
      status: 'awaiting',
      payment_intent: first.id,
    });
    expect(a.result_data.top_up).toEqual({ status: 'awaiting', amount: 350, payment_id: first.id });
    // The customer's API answers the same intent.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payment-intents/',
      headers: admin.headers,
      payload: { case_activity: k.activityId },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      public_id: first.id,
      amount_pence: 350,
      amount_display: '£3.50',
      outcome: 'awaiting',
      provider: 'simulator',
    });
  });

  it('the API refuses bad input, a missing permission and another tenant', async () => {
    const k = await awaitingTopUp();
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/payment-intents/',
      headers: admin.headers,
      payload: { case_activity: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('case_activity');
    const denied = await t.app.inject({
      method: 'POST',
      url: '/api/payment-intents/',
      headers: viewer.headers,
      payload: { case_activity: k.activityId },
    });
    expect(denied.statusCode).toBe(403);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/payment-intents/',
      headers: other.headers,
      payload: { case_activity: k.activityId },
    });
    expect(elsewhere.statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/payment-intents/',
      headers: viewer.headers,
    });
    expect(list.statusCode).toBe(403);
  });
});

describe('the lists', () => {
  it('retrieve by id in the tenant only: another customer gets 404', async () => {
    const k = await awaitingTopUp();
    const { intent, payment } = await t.owner(async (tx) => {
      // the intent the engine's demand made (the payments job), paid
      const [i] = await tx
        .select()
        .from(paymentIntents)
        .where(eq(paymentIntents.caseActivityId, k.activityId));
      if (!i) throw new Error('no intent');
      return { intent: i, payment: await createPayment(tx, i) };
    });
    for (const url of [
      `/api/payment-intents/${intent.id}/`,
      `/api/payments/portal-${intent.id}/`,
    ]) {
      const mine = await t.app.inject({ method: 'GET', url, headers: admin.headers });
      expect(mine.statusCode).toBe(200);
      const theirs = await t.app.inject({ method: 'GET', url, headers: other.headers });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual({ detail: 'Not found.' });
    }
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/payments/portal-${intent.id}/`,
      headers: admin.headers,
    });
    // the customer's payments list the intent, the provider's report of it as an event
    expect(one.json()).toMatchObject({
      id: `portal-${intent.id}`,
      kind: 'portal',
      amount_display: '£3.50',
      events: [{ id: payment.providerEventId, status: 'succeeded' }],
    });
  });
});

describe('the payment portal', () => {
  it('shows what is paid for, the amount in pounds and the brand payment key by host', async () => {
    const o = await openedIntent();
    expect(o.portal).toMatchObject({
      description: 'Paper certificate by post: Basic DBS check',
      amount_pence: 350,
      amount_display: '£3.50',
      outcome: 'awaiting',
      status: 'requires_payment_method',
      brand_name: 'Kestrel Checks',
      publishable_key: 'pk_test_kestrel_51KestrelChecksTestKey',
      api_base: '/simulator/payments',
    });
    expect(o.portal.client_secret).toMatch(/^pi_sim_/);
    const harrier = await portal(o.publicId, '127.0.0.1');
    expect(harrier.body.brand_name).toBe('Harrier Vetting');
    expect(harrier.body.publishable_key).toBe('pk_test_harrier_51HarrierVettingTestKey');
    // Opening it again makes no second provider intent.
    expect(harrier.body.provider_intent_id).toBe(o.portal.provider_intent_id);
    // The payment provider's request and answer are on the activity's provider log, once,
    // its client secret not.
    const log = (await activity(o.activityId)).processing_data.events.filter(
      (e) => e.type === 'top-up' && 'payment_provider' in e.body,
    );
    expect(log).toEqual([
      expect.objectContaining({
        body: {
          payment_provider: 'simulator',
          request: expect.objectContaining({
            amount_pence: 350,
            description: 'Paper certificate by post: Basic DBS check',
          }),
          answer: { id: o.portal.provider_intent_id, status: 'requires_payment_method' },
        },
      }),
    ]);
    expect(JSON.stringify(log)).not.toContain(String(o.portal.client_secret));
    expect((await portal('pit_nope')).status).toBe(404);
    expect((await portal('pit_AAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('a success card pays: the payment stored, the activity goes on (settleTopUp paid)', async () => {
    const o = await openedIntent();
    const res = await confirm(o.portal, TEST_CARDS.success);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('succeeded');
    await t.settle();
    const after = await portal(o.publicId);
    expect(after.body).toMatchObject({
      outcome: 'paid',
      status: 'succeeded',
      provider_intent_id: null,
      client_secret: null,
    });
    const a = await activity(o.activityId);
    expect(a.state).toBe('ca-in-progress');
    expect(a.processing_data.top_up).toMatchObject({ status: 'paid', payment_intent: o.publicId });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/payments/?case_activity=${o.activityId}`,
      headers: admin.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      count: 1,
      results: [{ amount_pence: 350, amount_display: '£3.50', state: 'paid', kind: 'portal' }],
    });
    // Tenancy: another customer sees none of it.
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/payments/?case_activity=${o.activityId}`,
      headers: other.headers,
    });
    expect(theirs.json().count).toBe(0);
    const intents = await t.app.inject({
      method: 'GET',
      url: `/api/payment-intents/?case_activity=${o.activityId}`,
      headers: admin.headers,
    });
    expect(intents.json().results[0]).toMatchObject({ public_id: o.publicId, outcome: 'paid' });
    // Customer staff without the permission are refused; operations see every customer's.
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/payments/',
      headers: viewer.headers,
    });
    expect(refused.statusCode).toBe(403);
    const opsList = await t.app.inject({
      method: 'GET',
      url: `/api/ops/payments/?case_activity=${o.activityId}`,
      headers: ops.headers,
    });
    expect(opsList.statusCode).toBe(200);
    expect(opsList.json().results[0]).toMatchObject({ customer: acme, status: 'succeeded' });
    const opsIntents = await t.app.inject({
      method: 'GET',
      url: `/api/ops/payment-intents/?case_activity=${o.activityId}`,
      headers: ops.headers,
    });
    expect(opsIntents.json().results[0]).toMatchObject({ customer: acme, outcome: 'paid' });
    const notOps = await t.app.inject({
      method: 'GET',
      url: '/api/ops/payments/',
      headers: admin.headers,
    });
    expect(notOps.statusCode).toBe(403);
    // Paid: it cannot be paid again.
    expect((await confirm(o.portal, TEST_CARDS.success)).statusCode).toBe(400);
  });

  it('a declined card: the payment failed, the activity waits for the customer decision', async () => {
    const o = await openedIntent();
    const res = await confirm(o.portal, TEST_CARDS.declined);
    expect(res.json()).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
    const after = await portal(o.publicId);
    expect(after.body).toMatchObject({
      outcome: 'declined',
      last_error: 'Your card was declined.',
    });
    const a = await activity(o.activityId);
    expect(a.state).toBe('ca-pending-activity-decision');
    expect(a.processing_data.top_up?.status).toBe('declined');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/payments/?case_activity=${o.activityId}`,
      headers: admin.headers,
    });
    expect(list.json().results[0]).toMatchObject({ state: 'declined', kind: 'portal' });
  });

  it('a 3-D Secure card: the challenge page, then authenticated, paid', async () => {
    const o = await openedIntent();
    const res = await confirm(o.portal, TEST_CARDS.threeDSecure);
    const pi = res.json();
    expect(pi.status).toBe('requires_action');
    const url: string = pi.next_action.redirect_to_url.url;
    expect((await activity(o.activityId)).state).toBe('ca-awaiting-subject');
    // Back on the portal before finishing: the server asks the provider nothing; the browser
    // asks it (with the client secret) and learns where to continue.
    const create = vi.spyOn(sim(), 'createIntent');
    const lookUp = vi.spyOn(sim(), 'retrieveIntent');
    const back = await portal(o.publicId);
    expect(back.body).toMatchObject({
      outcome: 'awaiting',
      status: 'requires_payment_method',
      provider_intent_id: o.portal.provider_intent_id,
      client_secret: o.portal.client_secret,
    });
    expect(back.body).not.toHaveProperty('challenge_url');
    expect(create).not.toHaveBeenCalled();
    expect(lookUp).not.toHaveBeenCalled();
    const seen = await retrieve(back.body);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['cache-control']).toBe('no-store');
    expect(seen.json()).toEqual({
      id: o.portal.provider_intent_id,
      object: 'payment_intent',
      amount: 350,
      currency: 'gbp',
      status: 'requires_action',
      next_action: {
        type: 'redirect_to_url',
        redirect_to_url: { url, return_url: `/payment-portal/${o.publicId}` },
      },
      last_payment_error: null,
    });
    const page = await t.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('£3.50');
    expect(page.body).toContain('Complete authentication');
    const done = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'result=pass',
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/payment-portal/${o.publicId}`);
    await t.settle();
    expect((await portal(o.publicId)).body.outcome).toBe('paid');
    expect((await activity(o.activityId)).state).toBe('ca-in-progress');
    // The challenge is over.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('a failed 3-D Secure challenge declines', async () => {
    const o = await openedIntent();
    const pi = (await confirm(o.portal, TEST_CARDS.threeDSecure)).json();
    await t.app.inject({
      method: 'POST',
      url: pi.next_action.redirect_to_url.url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'result=fail',
    });
    expect((await portal(o.publicId)).body.outcome).toBe('declined');
    expect((await activity(o.activityId)).state).toBe('ca-pending-activity-decision');
  });
});

/** An awaited top-up whose intent is made, its provider-intent job not run yet. */
async function intentBeforeItsJob() {
  const k = await awaitingTopUp({ settle: false });
  const made = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
    createTopUpIntent(ctx, k.activityId),
  );
  expect(made.created).toBe(true);
  return { ...k, publicId: made.id, intentId: made.row.id };
}

/** The provider-intent jobs of intent `id` in the queue, oldest first. */
const jobsOf = (id: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(queueJobs)
      .where(
        and(
          eq(queueJobs.name, PROVIDER_INTENT_JOB),
          sql`${queueJobs.data}->>'payment_intent_id' = ${String(id)}`,
        ),
      )
      .orderBy(queueJobs.createdOn),
  );

const storedIntent = async (id: number) => {
  const [row] = await t.owner((tx) =>
    tx.select().from(paymentIntents).where(eq(paymentIntents.id, id)),
  );
  if (!row) throw new Error('no intent');
  return row;
};

const providerLog = async (activityId: number) =>
  (await activity(activityId)).processing_data.events.filter(
    (e) => e.type === 'top-up' && 'payment_provider' in e.body,
  );

/** The errors on the activity's provider log (their bodies). */
const errorLog = async (activityId: number) =>
  (await activity(activityId)).processing_data.events
    .filter((e) => e.type === 'error')
    .map((e) => e.body);

describe('the provider intent job', () => {
  it('the portal before the job has run answers no provider intent and calls no provider', async () => {
    const create = vi.spyOn(sim(), 'createIntent');
    const o = await intentBeforeItsJob();
    // enqueued with the intent, in its transaction
    expect((await jobsOf(o.intentId)).map((j) => j.state)).toEqual(['created']);
    const before = await portal(o.publicId);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      outcome: 'awaiting',
      amount_display: '£3.50',
      provider_intent_id: null,
      client_secret: null,
    });
    expect(create).not.toHaveBeenCalled();
    // a fresh intent's portal enqueues nothing more
    expect(await jobsOf(o.intentId)).toHaveLength(1);
    await t.settle();
    expect(create).toHaveBeenCalledTimes(1);
    const after = await portal(o.publicId);
    expect(after.body.provider_intent_id).toMatch(/^pi_sim_/);
    expect(after.body.client_secret).toMatch(/^pi_sim_.*_secret_/);
    expect((await jobsOf(o.intentId)).map((j) => j.state)).toEqual(['completed']);
    expect(await providerLog(o.activityId)).toHaveLength(1);
  });

  it('makes exactly one provider intent even when run twice, at once or again', async () => {
    const create = vi.spyOn(sim(), 'createIntent');
    const o = await intentBeforeItsJob();
    const job = { customer_id: acme, payment_intent_id: o.intentId };
    await Promise.all([makeProviderIntent(t.app.deps, job), makeProviderIntent(t.app.deps, job)]);
    await makeProviderIntent(t.app.deps, job);
    await t.settle();
    // the concurrent runs may both ask (under one idempotency key, so the provider makes one),
    // or the second may already see it made (on PostgreSQL the runs are truly concurrent);
    // the later runs see it made
    const calls = create.mock.calls.length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(2);
    const answers = await Promise.all(create.mock.results.map((r) => r.value));
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(create.mock.calls.map(([input]) => input.idempotency_key)).toEqual(
      Array(calls).fill(`kestrel-top-up-${acme}-${o.activityId}`),
    );
    expect((await storedIntent(o.intentId)).providerIntentId).toBe(answers[0]?.id);
    // stored once: one audit record, one entry on the activity's provider log
    expect(await providerLog(o.activityId)).toHaveLength(1);
    const audits = await t.owner((tx) =>
      tx
        .select({ changes: auditActions.changes })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'payments.paymentintent'),
            eq(auditActions.objectId, String(o.intentId)),
            eq(auditActions.verb, 'updated'),
          ),
        ),
    );
    expect(audits).toEqual([{ changes: { provider_intent_id: [null, answers[0]?.id] } }]);
  });

  it('a provider failure leaves the intent without a provider intent and the job retried', async () => {
    const create = vi
      .spyOn(sim(), 'createIntent')
      .mockRejectedValueOnce(new PaymentsProviderError('The payments provider is down.', true));
    const o = await intentBeforeItsJob();
    await t.settle();
    expect(create).toHaveBeenCalledTimes(1);
    expect((await storedIntent(o.intentId)).providerIntentId).toBeNull();
    expect((await portal(o.publicId)).body).toMatchObject({
      provider_intent_id: null,
      client_secret: null,
    });
    const [failed] = await jobsOf(o.intentId);
    expect(failed).toMatchObject({ state: 'retry', retryLimit: 5 });
    expect(failed?.startAfter.getTime()).toBeGreaterThan(Date.now());
    expect(await providerLog(o.activityId)).toEqual([]);
    // the retry, due, makes it
    await t.owner((tx) =>
      tx
        .update(queueJobs)
        .set({ startAfter: sql`now()` })
        .where(eq(queueJobs.id, failed?.id ?? '')),
    );
    await t.settle();
    expect(create).toHaveBeenCalledTimes(2);
    expect((await storedIntent(o.intentId)).providerIntentId).toMatch(/^pi_sim_/);
    expect((await jobsOf(o.intentId)).map((j) => j.state)).toEqual(['completed']);
    // a timeout fails the run too (the queue retries it), and records nothing
    const late = await intentBeforeItsJob();
    create.mockRejectedValueOnce(
      new PaymentsProviderError('The payments provider did not answer in time.', true),
    );
    await expect(
      makeProviderIntent(t.app.deps, { customer_id: acme, payment_intent_id: late.intentId }),
    ).rejects.toBeInstanceOf(PaymentsProviderError);
    expect(await storedIntent(late.intentId)).toMatchObject({
      providerIntentId: null,
      lastError: null,
    });
    expect(await errorLog(late.activityId)).toEqual([]);
    // its own job, queued with it, makes it
    await t.settle();
    expect((await storedIntent(late.intentId)).providerIntentId).toMatch(/^pi_sim_/);
  });

  it('a refusal of the provider is recorded, not retried, and the portal does not enqueue it again', async () => {
    const refusal = 'The payments provider answered 400.';
    const create = vi
      .spyOn(sim(), 'createIntent')
      .mockRejectedValueOnce(new PaymentsProviderError(refusal, false, 400));
    const o = await intentBeforeItsJob();
    await t.settle();
    expect(create).toHaveBeenCalledTimes(1);
    // the run ends (no retry), the refusal on the intent, its audit record and the provider log
    const jobs = await jobsOf(o.intentId);
    expect(jobs.map((j) => j.state)).toEqual(['completed']);
    expect(jobs[0]?.retryCount).toBe(0);
    expect(await storedIntent(o.intentId)).toMatchObject({
      outcome: 'awaiting',
      providerIntentId: null,
      clientSecret: null,
      lastError: refusal,
    });
    expect(await errorLog(o.activityId)).toEqual([{ message: refusal, during: 'payment-intent' }]);
    expect(await providerLog(o.activityId)).toEqual([]);
    const audits = await t.owner((tx) =>
      tx
        .select({ changes: auditActions.changes })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'payments.paymentintent'),
            eq(auditActions.objectId, String(o.intentId)),
            eq(auditActions.verb, 'updated'),
          ),
        ),
    );
    expect(audits).toEqual([{ changes: { last_error: [null, refusal] } }]);
    // the portal says so (the page: not available) and, a minute on, enqueues nothing
    await t.owner((tx) => tx.delete(queueJobs).where(eq(queueJobs.id, jobs[0]?.id ?? '')));
    t.clock.advance(61_000);
    try {
      const opened = await portal(o.publicId);
      expect(opened.status).toBe(200);
      expect(opened.body).toMatchObject({
        outcome: 'awaiting',
        provider_intent_id: null,
        client_secret: null,
        last_error: refusal,
      });
      await portal(o.publicId);
      expect(await jobsOf(o.intentId)).toEqual([]);
      // a job still in the queue (enqueued before) asks nothing more
      await makeProviderIntent(t.app.deps, { customer_id: acme, payment_intent_id: o.intentId });
      expect(create).toHaveBeenCalledTimes(1);
      expect(await errorLog(o.activityId)).toHaveLength(1);
    } finally {
      t.clock.advance(-61_000);
    }
  });

  it("the simulator's refusal is a refusal too (recorded, the run not failed)", async () => {
    const create = vi
      .spyOn(sim(), 'createIntent')
      .mockRejectedValueOnce(
        new SimulatorRefusal(400, 'amount_too_small', 'Amount must be at least £0.30 gbp.'),
      );
    const o = await intentBeforeItsJob();
    await expect(
      makeProviderIntent(t.app.deps, { customer_id: acme, payment_intent_id: o.intentId }),
    ).resolves.toBeUndefined();
    expect(create).toHaveBeenCalledTimes(1);
    expect(await storedIntent(o.intentId)).toMatchObject({
      providerIntentId: null,
      lastError: 'Amount must be at least £0.30 gbp.',
    });
    expect(await errorLog(o.activityId)).toEqual([
      { message: 'Amount must be at least £0.30 gbp.', during: 'payment-intent' },
    ]);
    // its own job, queued with it, finds it refused: no second call
    await t.settle();
    expect(create).toHaveBeenCalledTimes(1);
    expect((await jobsOf(o.intentId)).map((j) => j.state)).toEqual(['completed']);
    expect((await portal(o.publicId)).body.last_error).toBe('Amount must be at least £0.30 gbp.');
  });

  it('an intent still without one a minute on is enqueued again by the portal, once', async () => {
    const create = vi.spyOn(sim(), 'createIntent');
    const o = await intentBeforeItsJob();
    // its job lost (its retries ran out): the portal alone gets it going again
    const [lost] = await jobsOf(o.intentId);
    await t.owner((tx) => tx.delete(queueJobs).where(eq(queueJobs.id, lost?.id ?? '')));
    await portal(o.publicId);
    expect(await jobsOf(o.intentId)).toEqual([]);
    t.clock.advance(61_000);
    try {
      const first = await portal(o.publicId);
      const again = await portal(o.publicId);
      expect(first.body.provider_intent_id).toBeNull();
      expect(again.body.provider_intent_id).toBeNull();
      // a row in the queue, not a provider call, and one per 30 s however often it is opened
      expect(create).not.toHaveBeenCalled();
      const jobs = await jobsOf(o.intentId);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]?.singletonKey).toBe(`provider-intent-${o.intentId}`);
      await t.settle();
      expect(create).toHaveBeenCalledTimes(1);
      expect((await portal(o.publicId)).body.provider_intent_id).toMatch(/^pi_sim_/);
      expect(await jobsOf(o.intentId)).toHaveLength(1);
    } finally {
      t.clock.advance(-61_000);
    }
  });
});

describe("the simulator's browser API", () => {
  it('answers the intent only to its client secret and a publishable key', async () => {
    const o = await openedIntent();
    const ok = await retrieve(o.portal);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      id: o.portal.provider_intent_id,
      status: 'requires_payment_method',
      next_action: null,
    });
    // nothing the browser has no need of
    expect(ok.json()).not.toHaveProperty('client_secret');
    expect(ok.json()).not.toHaveProperty('metadata');
    const wrongSecret = await retrieve(o.portal, `${o.portal.provider_intent_id}_secret_nope`);
    expect(wrongSecret.statusCode).toBe(404);
    expect(wrongSecret.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such payment_intent: '${o.portal.provider_intent_id}'`,
      },
    });
    expect((await retrieve(o.portal, '')).statusCode).toBe(404);
    const wrongKey = await retrieve(o.portal, undefined, 'sk_live_x');
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json().error.code).toBe('invalid_api_key');
    const unknown = await retrieve({ ...o.portal, provider_intent_id: 'pi_sim_unknown' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the webhook', () => {
  const now = () => Math.floor(t.clock.now().getTime() / 1000);
  const post = (body: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/webhooks/payments/',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      payload: body,
    });

  it('refuses unsigned, wrongly signed, old and malformed events, changing nothing', async () => {
    const o = await openedIntent();
    // A genuine event the simulator made, captured before delivery.
    const pi = await sim().retrieveIntent(o.portal.provider_intent_id ?? '');
    const event = {
      id: 'evt_test_forged',
      object: 'event',
      type: 'payment_intent.succeeded',
      created: now(),
      data: { object: { ...pi, status: 'succeeded' } },
    };
    const body = JSON.stringify(event);
    const before = await counts();
    expect((await post(body)).statusCode).toBe(401);
    expect((await post(body, signWebhook('wrong', now(), body))).statusCode).toBe(401);
    expect((await post(body, 't=abc,v1=zz')).statusCode).toBe(401);
    const old = now() - 301;
    expect((await post(body, signWebhook(webhookSecret(), old, body))).statusCode).toBe(401);
    const tampered = body.replace('"amount":350', '"amount":1');
    expect((await post(tampered, signWebhook(webhookSecret(), now(), body))).statusCode).toBe(401);
    const malformed = '{"id": "evt_x", ';
    const m = await post(malformed, signWebhook(webhookSecret(), now(), malformed));
    expect(m.statusCode).toBe(400);
    expect(m.json()).toEqual({ non_field_errors: ['Malformed JSON.'] });
    // nested 10,000 deep: the one body parser's depth limit, never a stack overflow (500)
    const deep = `${body.slice(0, -1)},"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const d = await post(deep, signWebhook(webhookSecret(), now(), deep));
    expect(d.statusCode).toBe(400);
    expect(d.json()).toEqual({ non_field_errors: ['JSON nested deeper than 32 levels.'] });
    const shapeless = JSON.stringify({ id: 'evt_y', type: 'payment_intent.succeeded' });
    const s = await post(shapeless, signWebhook(webhookSecret(), now(), shapeless));
    expect(s.statusCode).toBe(400);
    const wrongAmount = JSON.stringify({
      ...event,
      data: { object: { ...event.data.object, amount: 1 } },
    });
    const w = await post(wrongAmount, signWebhook(webhookSecret(), now(), wrongAmount));
    expect(w.statusCode).toBe(400);
    const unknown = JSON.stringify({
      ...event,
      data: { object: { ...event.data.object, id: 'pi_unknown' } },
    });
    const u = await post(unknown, signWebhook(webhookSecret(), now(), unknown));
    expect(u.statusCode).toBe(404);
    expect(await counts()).toEqual(before);
    expect((await activity(o.activityId)).state).toBe('ca-awaiting-subject');
    // Signed properly, the same event settles; other event types are acknowledged, ignored.
    const ok = await post(body, signWebhook(webhookSecret(), now(), body));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true, status: 'settled' });
    const other = JSON.stringify({ ...event, id: 'evt_other', type: 'charge.refunded' });
    const ig = await post(other, signWebhook(webhookSecret(), now(), other));
    expect(ig.json().status).toBe('ignored');
  });

  it('a replayed event is stored once and changes nothing more', async () => {
    const o = await openedIntent();
    await confirm(o.portal, TEST_CARDS.success);
    const sent = sim().sent.at(-1);
    if (!sent) throw new Error('no event');
    const before = await counts();
    const again = await post(sent.body, signWebhook(webhookSecret(), now(), sent.body));
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('duplicate');
    expect(await counts()).toEqual(before);
    // The same captured delivery, replayed after the tolerance, is refused.
    t.clock.advance(301_000);
    try {
      expect((await post(sent.body, sent.signature)).statusCode).toBe(401);
    } finally {
      t.clock.advance(-301_000);
    }
    expect((await activity(o.activityId)).state).toBe('ca-in-progress');
  });

  it('the anonymous visitor needs no session for the portal', async () => {
    const o = await openedIntent();
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/public/payment-portal/${o.publicId}/`,
      headers: { cookie: anon.cookie },
    });
    expect(res.statusCode).toBe(200);
  });
});
