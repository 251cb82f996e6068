import type { ActivityConfig, PaymentPortalOut } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { runInTenant } from '../../platform/service-context.js';
import { signatureHeader } from '../../providers/dbs-basic/signature.js';
import {
  PaymentsSimulator,
  SIMULATOR_WEBHOOK_SECRET,
  TEST_CARDS,
} from '../../providers/payments/simulator.js';
import { createCaseBasicDetails } from '../case-data/case-data.factories.js';
import { caseActivities } from '../cases/cases.table.js';
import { paymentsOf } from './config.js';
import { createPayment } from './payments.factories.js';
import { paymentIntents, payments } from './payments.table.js';
import { createTopUpIntent } from './service.js';

let t: TestApp;
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
  t = await buildTestApp();
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

const sim = () => {
  const p = paymentsOf(t.app.deps).provider;
  if (!(p instanceof PaymentsSimulator)) throw new Error('not the simulator');
  return p;
};

/** A basic check with a paper certificate, submitted: the price list's top-up (£3.50) awaits. */
async function awaitingTopUp() {
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
  await t.settle();
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

/** An awaited top-up with its intent, opened in the portal (the provider's intent made). */
async function openedIntent() {
  const k = await awaitingTopUp();
  const made = await runInTenant(t.app.deps, jobActor(acme), (ctx) =>
    createTopUpIntent(ctx, k.activityId),
  );
  const p = await portal(made.id);
  expect(p.status).toBe(200);
  return { ...k, publicId: made.id, portal: p.body };
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
    for (const url of [`/api/payment-intents/${intent.id}/`, `/api/payments/${payment.id}/`]) {
      const mine = await t.app.inject({ method: 'GET', url, headers: admin.headers });
      expect(mine.statusCode).toBe(200);
      const theirs = await t.app.inject({ method: 'GET', url, headers: other.headers });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual({ detail: 'Not found.' });
    }
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/payments/${payment.id}/`,
      headers: admin.headers,
    });
    expect(one.json()).toMatchObject({ payment_intent: intent.id, amount_display: '£3.50' });
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
      client_secret: null,
      challenge_url: null,
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
      results: [{ amount_pence: 350, amount_display: '£3.50', status: 'succeeded' }],
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
    expect(list.json().results[0]).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
    });
  });

  it('a 3-D Secure card: the challenge page, then authenticated, paid', async () => {
    const o = await openedIntent();
    const res = await confirm(o.portal, TEST_CARDS.threeDSecure);
    const pi = res.json();
    expect(pi.status).toBe('requires_action');
    const url: string = pi.next_action.redirect_to_url.url;
    expect((await activity(o.activityId)).state).toBe('ca-awaiting-subject');
    // Back on the portal before finishing: it says where to continue.
    expect((await portal(o.publicId)).body).toMatchObject({
      outcome: 'awaiting',
      challenge_url: url,
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
    expect((await post(body, signatureHeader('wrong', now(), body))).statusCode).toBe(401);
    expect((await post(body, 't=abc,v1=zz')).statusCode).toBe(401);
    const old = now() - 301;
    expect(
      (await post(body, signatureHeader(SIMULATOR_WEBHOOK_SECRET, old, body))).statusCode,
    ).toBe(401);
    const tampered = body.replace('"amount":350', '"amount":1');
    expect(
      (await post(tampered, signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), body))).statusCode,
    ).toBe(401);
    const malformed = '{"id": "evt_x", ';
    const m = await post(malformed, signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), malformed));
    expect(m.statusCode).toBe(400);
    expect(m.json()).toEqual({ non_field_errors: ['Malformed JSON.'] });
    const shapeless = JSON.stringify({ id: 'evt_y', type: 'payment_intent.succeeded' });
    const s = await post(shapeless, signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), shapeless));
    expect(s.statusCode).toBe(400);
    const wrongAmount = JSON.stringify({
      ...event,
      data: { object: { ...event.data.object, amount: 1 } },
    });
    const w = await post(
      wrongAmount,
      signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), wrongAmount),
    );
    expect(w.statusCode).toBe(400);
    const unknown = JSON.stringify({
      ...event,
      data: { object: { ...event.data.object, id: 'pi_unknown' } },
    });
    const u = await post(unknown, signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), unknown));
    expect(u.statusCode).toBe(404);
    expect(await counts()).toEqual(before);
    expect((await activity(o.activityId)).state).toBe('ca-awaiting-subject');
    // Signed properly, the same event settles; other event types are acknowledged, ignored.
    const ok = await post(body, signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), body));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true, status: 'settled' });
    const other = JSON.stringify({ ...event, id: 'evt_other', type: 'charge.refunded' });
    const ig = await post(other, signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), other));
    expect(ig.json().status).toBe('ignored');
  });

  it('a replayed event is stored once and changes nothing more', async () => {
    const o = await openedIntent();
    await confirm(o.portal, TEST_CARDS.success);
    const sent = sim().sent.at(-1);
    if (!sent) throw new Error('no event');
    const before = await counts();
    const again = await post(
      sent.body,
      signatureHeader(SIMULATOR_WEBHOOK_SECRET, now(), sent.body),
    );
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
