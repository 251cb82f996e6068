import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { verifyWebhookSignature } from '../../platform/webhooks.js';
import { cardErrorOf, formEncode, StripeClient } from './client.js';
import { PaymentsCardError, PaymentsProviderError } from './provider.js';
import {
  type ConfirmSetupInput,
  isPortalReturn,
  isSetupReturn,
  PaymentsSimulator,
  SimulatorRefusal,
  TEST_CARDS,
} from './simulator.js';

const signal = () => new AbortController().signal;
const clock = new ManualClock('2026-11-24T10:00:00Z');
const now = () => Math.floor(clock.now().getTime() / 1000);
const KEY = 'pk_test_kestrel';
const RETURN = '/payment-portal/pit_abcdefghijklmnopqrstuvwx';
/** The secret it signs webhooks with (an installation's random one in the app). */
const WEBHOOK_SECRET = 'whsec_test_installation';

async function intent(sim: PaymentsSimulator, key = 'kestrel-top-up-1') {
  return sim.createIntent({
    amount_pence: 350,
    description: 'Paper certificate',
    metadata: { case_activity: '1' },
    idempotency_key: key,
  });
}

describe('the payments simulator', () => {
  it('creates one intent per idempotency key, in pence', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const a = await intent(sim);
    const again = await intent(sim);
    const other = await intent(sim, 'kestrel-top-up-2');
    expect(a).toMatchObject({ amount: 350, currency: 'gbp', status: 'requires_payment_method' });
    expect(again.id).toBe(a.id);
    expect(again.client_secret).toBe(a.client_secret);
    expect(other.id).not.toBe(a.id);
    expect(a.client_secret.startsWith(`${a.id}_secret_`)).toBe(true);
    await expect(sim.retrieveIntent(a.id)).resolves.toMatchObject({ id: a.id });
    await expect(sim.retrieveIntent('pi_nope')).rejects.toMatchObject({ status: 404 });
  });

  it('a success card pays and makes one signed payment_intent.succeeded event', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const a = await intent(sim);
    const r = sim.confirm(a.id, {
      client_secret: a.client_secret,
      key: KEY,
      card_number: '4242 4242 4242 4242',
      return_url: RETURN,
    });
    expect(r.intent.status).toBe('succeeded');
    expect(r.events).toHaveLength(1);
    const [e] = r.events;
    expect(e?.event.type).toBe('payment_intent.succeeded');
    expect(e?.event.data.object).toMatchObject({ id: a.id, amount: 350, status: 'succeeded' });
    expect(verifyWebhookSignature(WEBHOOK_SECRET, e?.signature, e?.body ?? '', now())).toBe('ok');
    expect(verifyWebhookSignature('other', e?.signature, e?.body ?? '', now())).toBe('mismatch');
    // Paid: it cannot be confirmed again.
    expect(() =>
      sim.confirm(a.id, {
        client_secret: a.client_secret,
        key: KEY,
        card_number: TEST_CARDS.success,
        return_url: RETURN,
      }),
    ).toThrow(SimulatorRefusal);
  });

  it('a declined card fails with the decline code and a payment_failed event', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const a = await intent(sim);
    const r = sim.confirm(a.id, {
      client_secret: a.client_secret,
      key: KEY,
      card_number: TEST_CARDS.declined,
      return_url: RETURN,
    });
    expect(r.intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
    expect(r.events[0]?.event.type).toBe('payment_intent.payment_failed');
    const poor = await intent(sim, 'k-3');
    const r2 = sim.confirm(poor.id, {
      client_secret: poor.client_secret,
      key: KEY,
      card_number: TEST_CARDS.insufficientFunds,
      return_url: RETURN,
    });
    expect(r2.intent.last_payment_error?.code).toBe('insufficient_funds');
  });

  it('a 3-D Secure card asks for the challenge; passed it pays, failed it declines', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const a = await intent(sim);
    const r = sim.confirm(a.id, {
      client_secret: a.client_secret,
      key: KEY,
      card_number: TEST_CARDS.threeDSecure,
      return_url: RETURN,
    });
    expect(r.intent.status).toBe('requires_action');
    expect(r.events).toEqual([]);
    expect(r.intent.next_action?.redirect_to_url).toEqual({
      url: `/simulator/payments/3ds/${a.id}/`,
      return_url: RETURN,
    });
    expect(sim.pendingChallenge(a.id)).toEqual({ amount: 350, returnUrl: RETURN });
    const done = sim.completeChallenge(a.id, true);
    expect(done.intent.status).toBe('succeeded');
    expect(done.returnUrl).toBe(RETURN);
    expect(done.events[0]?.event.type).toBe('payment_intent.succeeded');
    expect(sim.pendingChallenge(a.id)).toBeNull();
    expect(() => sim.completeChallenge(a.id, true)).toThrow(SimulatorRefusal);

    const b = await intent(sim, 'k-b');
    sim.confirm(b.id, {
      client_secret: b.client_secret,
      key: KEY,
      card_number: TEST_CARDS.threeDSecure,
      return_url: RETURN,
    });
    const failed = sim.completeChallenge(b.id, false);
    expect(failed.intent.last_payment_error?.code).toBe('payment_intent_authentication_failure');
    expect(failed.events[0]?.event.type).toBe('payment_intent.payment_failed');
    expect(sim.sent.map((s) => s.event.type)).toEqual([
      'payment_intent.succeeded',
      'payment_intent.payment_failed',
    ]);
  });

  it("shows the browser an intent's state only with its client secret and a publishable key", async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const a = await intent(sim);
    const mine = { client_secret: a.client_secret, key: KEY };
    expect(sim.retrieveForBrowser(a.id, mine)).toEqual({
      id: a.id,
      object: 'payment_intent',
      amount: 350,
      currency: 'gbp',
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: null,
    });
    sim.confirm(a.id, { ...mine, card_number: TEST_CARDS.threeDSecure, return_url: RETURN });
    expect(sim.retrieveForBrowser(a.id, mine)).toMatchObject({
      status: 'requires_action',
      next_action: { redirect_to_url: { url: `/simulator/payments/3ds/${a.id}/` } },
    });
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof SimulatorRefusal ? { status: e.status, code: e.code } : e;
      }
      return 'answered';
    };
    expect(refused(() => sim.retrieveForBrowser(a.id, { ...mine, client_secret: 'x' }))).toEqual({
      status: 404,
      code: 'resource_missing',
    });
    const other = await intent(sim, 'k-other');
    expect(
      refused(() => sim.retrieveForBrowser(a.id, { ...mine, client_secret: other.client_secret })),
    ).toEqual({ status: 404, code: 'resource_missing' });
    expect(refused(() => sim.retrieveForBrowser('pi_nope', mine))).toEqual({
      status: 404,
      code: 'resource_missing',
    });
    expect(refused(() => sim.retrieveForBrowser(a.id, { ...mine, key: 'sk_test_x' }))).toEqual({
      status: 401,
      code: 'invalid_api_key',
    });
  });

  it('refuses a wrong key, client secret, card or return address, changing nothing', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const a = await intent(sim);
    const ok = {
      client_secret: a.client_secret,
      key: KEY,
      card_number: TEST_CARDS.success,
      return_url: RETURN,
    };
    expect(() => sim.confirm(a.id, { ...ok, key: 'sk_live_x' })).toThrow(/API Key/);
    expect(() => sim.confirm(a.id, { ...ok, client_secret: 'x' })).toThrow(/client_secret/);
    expect(() => sim.confirm(a.id, { ...ok, card_number: '4111111111111111' })).toThrow(
      /incorrect/,
    );
    expect(() => sim.confirm(a.id, { ...ok, return_url: 'https://evil.test/' })).toThrow(
      /return_url/,
    );
    expect((await sim.retrieveIntent(a.id)).status).toBe('requires_payment_method');
    expect(sim.sent).toEqual([]);
    expect(isPortalReturn('/payment-portal/pit_x?done=1')).toBe(true);
    expect(isPortalReturn('//evil.test/payment-portal/x')).toBe(false);
  });
});

describe("Stripe's PaymentIntents client", () => {
  it('creates form-encoded with the idempotency key and secret key, and reads the intent', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fake: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init });
      return new Response(
        JSON.stringify({
          id: 'pi_1',
          amount: 350,
          status: 'requires_payment_method',
          client_secret: 'pi_1_secret_x',
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    };
    const c = new StripeClient({
      secretKey: 'sk_test_1',
      apiBase: 'https://stripe.test/',
      fetch: fake,
    });
    const pi = await c.createIntent(
      {
        amount_pence: 350,
        description: 'Top-up',
        metadata: { case_activity: '7' },
        idempotency_key: 'k-7',
      },
      signal(),
    );
    expect(pi.id).toBe('pi_1');
    const call = calls[0];
    expect(call?.url).toBe('https://stripe.test/v1/payment_intents');
    const headers = new Headers(call?.init?.headers);
    expect(headers.get('authorization')).toBe('Bearer sk_test_1');
    expect(headers.get('idempotency-key')).toBe('k-7');
    const body = new URLSearchParams(String(call?.init?.body));
    expect(body.get('amount')).toBe('350');
    expect(body.get('currency')).toBe('gbp');
    expect(body.get('metadata[case_activity]')).toBe('7');
    await c.retrieveIntent('pi_1', signal());
    expect(calls[1]?.url).toBe('https://stripe.test/v1/payment_intents/pi_1');
    expect(formEncode({ a: 1, m: { x: 'y z' } })).toBe('a=1&m%5Bx%5D=y+z');
  });

  it('an outage is retryable, a refusal is not, malformed data is an error', async () => {
    const answer = (status: number, body: string) => async () => new Response(body, { status });
    const c = (f: typeof fetch) => new StripeClient({ secretKey: 'sk', fetch: f });
    await expect(c(answer(503, '{}')).retrieveIntent('pi', signal())).rejects.toMatchObject({
      retryable: true,
      status: 503,
    });
    await expect(c(answer(400, '{}')).retrieveIntent('pi', signal())).rejects.toMatchObject({
      retryable: false,
    });
    await expect(c(answer(200, 'nope')).retrieveIntent('pi', signal())).rejects.toBeInstanceOf(
      PaymentsProviderError,
    );
    const down: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(c(down).retrieveIntent('pi', signal())).rejects.toThrow(/unreachable/);
  });
});

describe('refunds', () => {
  it('the simulator refunds a succeeded intent once per key, never more than it took', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const a = await intent(sim);
    const refund = (amount: number, key: string) =>
      sim.createRefund({
        payment_intent: a.id,
        amount_pence: amount,
        metadata: {},
        idempotency_key: key,
      });
    await expect(refund(100, 'r0')).rejects.toMatchObject({ code: 'charge_not_refundable' });
    sim.confirm(a.id, {
      client_secret: a.client_secret,
      key: KEY,
      card_number: TEST_CARDS.success,
      return_url: RETURN,
    });
    const first = await refund(200, 'r1');
    expect(first).toMatchObject({ object: 'refund', amount: 200, status: 'succeeded' });
    expect((await refund(200, 'r1')).id).toBe(first.id);
    await expect(refund(151, 'r2')).rejects.toMatchObject({ code: 'amount_too_large' });
    await expect(refund(0, 'r3')).rejects.toMatchObject({ code: 'amount_too_small' });
    await expect(refund(150, 'r4')).resolves.toMatchObject({ amount: 150 });
    // an intent it does not hold (made before a restart) is refunded as asked
    await expect(
      sim.createRefund({
        payment_intent: 'pi_sim_before_restart',
        amount_pence: 500,
        metadata: {},
        idempotency_key: 'r5',
      }),
    ).resolves.toMatchObject({ amount: 500, payment_intent: 'pi_sim_before_restart' });
  });

  it('Stripe: POST /v1/refunds with the idempotency key; a malformed answer is an error', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const refund = {
      id: 're_1',
      object: 'refund',
      amount: 150,
      currency: 'gbp',
      payment_intent: 'pi_1',
      status: 'succeeded',
      metadata: {},
    };
    const fake: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), ...(init ? { init } : {}) });
      return new Response(JSON.stringify(refund), { status: 200 });
    };
    const c = new StripeClient({
      secretKey: 'sk_test_1',
      apiBase: 'https://stripe.test',
      fetch: fake,
    });
    const r = await c.createRefund(
      {
        payment_intent: 'pi_1',
        amount_pence: 150,
        metadata: { source: 'portal' },
        idempotency_key: 'rk',
      },
      signal(),
    );
    expect(r.id).toBe('re_1');
    expect(calls[0]?.url).toBe('https://stripe.test/v1/refunds');
    expect(new Headers(calls[0]?.init?.headers).get('idempotency-key')).toBe('rk');
    const body = new URLSearchParams(String(calls[0]?.init?.body));
    expect([body.get('payment_intent'), body.get('amount')]).toEqual(['pi_1', '150']);
    const bad = new StripeClient({
      secretKey: 'sk',
      fetch: async () => new Response(JSON.stringify({ id: 'pi_1' }), { status: 200 }),
    });
    await expect(
      bad.createRefund(
        { payment_intent: 'pi', amount_pence: 1, metadata: {}, idempotency_key: 'k' },
        signal(),
      ),
    ).rejects.toBeInstanceOf(PaymentsProviderError);
  });
});

const SETUP_RETURN = '/payment-settings/add-payment-method';

async function setupFor(sim: PaymentsSimulator) {
  const customer = await sim.createCustomer({
    name: 'Acme',
    email: null,
    metadata: { kestrel_customer: '1' },
    idempotency_key: 'kestrel-customer-1-simulator',
  });
  const setup = await sim.createSetupIntent({
    customer: customer.id,
    metadata: { kestrel_customer: '1' },
  });
  return { customer, setup };
}

function confirmSetup(sim: PaymentsSimulator, id: string, secret: string, card: string) {
  return sim.confirmSetup(id, {
    client_secret: secret,
    key: KEY,
    card_number: card,
    exp_month: '4',
    exp_year: '2031',
    return_url: SETUP_RETURN,
  });
}

const charge = (sim: PaymentsSimulator, customer: string, pm: string, key = 'case-1-1') =>
  sim.chargeOffSession({
    amount_pence: 3100,
    customer,
    payment_method: pm,
    description: 'Care staff (case 1)',
    metadata: { case: '1' },
    idempotency_key: key,
  });

describe('the simulator’s saved cards (setup intents) and off-session charges', () => {
  it('makes one customer per key, and setup intents for it', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { customer, setup } = await setupFor(sim);
    const again = await setupFor(sim);
    expect(again.customer.id).toBe(customer.id);
    expect(again.setup.id).not.toBe(setup.id);
    expect(setup).toMatchObject({
      object: 'setup_intent',
      status: 'requires_payment_method',
      customer: customer.id,
      usage: 'off_session',
      payment_method: null,
    });
    expect(setup.client_secret.startsWith(`${setup.id}_secret_`)).toBe(true);
    await expect(
      sim.createSetupIntent({ customer: 'cus_other', metadata: {} }),
    ).rejects.toBeInstanceOf(SimulatorRefusal);
    await expect(sim.retrieveSetupIntent('seti_nope')).rejects.toMatchObject({ status: 404 });
    await expect(sim.retrievePaymentMethod('pm_nope')).rejects.toMatchObject({ status: 404 });
  });

  it('4242 is saved and charges; the charge is made once per idempotency key', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { customer, setup } = await setupFor(sim);
    const done = confirmSetup(sim, setup.id, setup.client_secret, '4242 4242 4242 4242');
    expect(done.status).toBe('succeeded');
    const pm = await sim.retrievePaymentMethod(done.payment_method ?? '');
    expect(pm).toMatchObject({
      customer: customer.id,
      card: { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 },
    });
    expect(pm.id).toMatch(/^pm_sim_4242_/);
    expect((await sim.retrieveSetupIntent(setup.id)).status).toBe('succeeded');
    const paid = await charge(sim, customer.id, pm.id);
    expect(paid).toMatchObject({ status: 'succeeded', amount: 3100 });
    expect((await charge(sim, customer.id, pm.id)).id).toBe(paid.id);
    expect((await charge(sim, customer.id, pm.id, 'case-1-2')).id).not.toBe(paid.id);
    // another customer's card is not charged
    await expect(charge(sim, 'cus_sim_other', pm.id, 'k-x')).rejects.toMatchObject({
      code: 'resource_missing',
    });
    await expect(
      sim.chargeOffSession({
        amount_pence: 10,
        customer: customer.id,
        payment_method: pm.id,
        description: 'x',
        metadata: {},
        idempotency_key: 'k-small',
      }),
    ).rejects.toMatchObject({ code: 'amount_too_small' });
    // a card saved before a restart (not held in memory) still charges by its number
    const fresh = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    await expect(charge(fresh, customer.id, 'pm_sim_4242_demo')).resolves.toMatchObject({
      status: 'succeeded',
    });
    await expect(charge(fresh, customer.id, 'pm_sim_1111_x', 'k-y')).rejects.toMatchObject({
      status: 400,
    });
  });

  it('9995 is saved but its charges are declined (insufficient funds), the same every time', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { customer, setup } = await setupFor(sim);
    const done = confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.insufficientFunds);
    expect(done.status).toBe('succeeded');
    const pm = done.payment_method ?? '';
    const first = await charge(sim, customer.id, pm).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(PaymentsCardError);
    expect(first).toMatchObject({ code: 'insufficient_funds', retryable: false });
    const again = await charge(sim, customer.id, pm).catch((e: unknown) => e);
    expect(again).toBe(first);
    if (!(first instanceof PaymentsCardError)) throw new Error('not a card error');
    await expect(sim.retrieveIntent(first.paymentIntent ?? '')).resolves.toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'insufficient_funds' },
    });
  });

  it('0002 is declined at setup and may be tried again with another card', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { setup } = await setupFor(sim);
    const declined = confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.declined);
    expect(declined).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_setup_error: { code: 'card_declined', message: 'Your card was declined.' },
    });
    const ok = confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.success);
    expect(ok).toMatchObject({ status: 'succeeded', last_setup_error: null });
    // succeeded: no second confirmation
    expect(() => confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.success)).toThrow(
      SimulatorRefusal,
    );
  });

  it('3155 asks for 3-D Secure at setup: passed, saved and charged off-session; failed, not saved', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { customer, setup } = await setupFor(sim);
    const pending = confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.setupThreeDSecure);
    expect(pending.status).toBe('requires_action');
    expect(pending.next_action?.redirect_to_url).toEqual({
      url: `/simulator/payments/setup-3ds/${setup.id}/`,
      return_url: SETUP_RETURN,
    });
    expect(sim.pendingSetupChallenge(setup.id)).toBe(true);
    expect(
      sim.retrieveSetupForBrowser(setup.id, { client_secret: setup.client_secret, key: KEY }),
    ).toMatchObject({ status: 'requires_action' });
    const done = sim.completeSetupChallenge(setup.id, true);
    expect(sim.pendingSetupChallenge(setup.id)).toBe(false);
    const back = new URL(done.returnUrl, 'http://x');
    expect(back.pathname).toBe(SETUP_RETURN);
    expect(back.searchParams.get('setup_intent')).toBe(setup.id);
    expect(back.searchParams.get('setup_intent_client_secret')).toBe(setup.client_secret);
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    expect(done.setup.status).toBe('succeeded');
    await expect(charge(sim, customer.id, done.setup.payment_method ?? '')).resolves.toMatchObject({
      status: 'succeeded',
    });
    expect(() => sim.completeSetupChallenge(setup.id, true)).toThrow(SimulatorRefusal);

    const second = await sim.createSetupIntent({ customer: customer.id, metadata: {} });
    const challenged = confirmSetup(
      sim,
      second.id,
      second.client_secret,
      TEST_CARDS.setupThreeDSecure,
    );
    const pm = challenged.payment_method ?? '';
    const failed = sim.completeSetupChallenge(second.id, false);
    expect(failed.returnUrl).toContain('redirect_status=failed');
    expect(failed.setup).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_setup_error: { code: 'setup_intent_authentication_failure' },
    });
    await expect(sim.retrievePaymentMethod(pm)).rejects.toMatchObject({ status: 404 });
  });

  it('3220 is saved after 3-D Secure but its off-session charges need authentication', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { customer, setup } = await setupFor(sim);
    confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.threeDSecure);
    const { setup: saved } = sim.completeSetupChallenge(setup.id, true);
    await expect(charge(sim, customer.id, saved.payment_method ?? '')).rejects.toMatchObject({
      code: 'authentication_required',
    });
  });

  it('refuses a wrong key, secret, return address, number or expiry', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { setup } = await setupFor(sim);
    const base: ConfirmSetupInput = {
      client_secret: setup.client_secret,
      key: KEY,
      card_number: TEST_CARDS.success,
      exp_month: '12',
      exp_year: '30',
      return_url: SETUP_RETURN,
    };
    const code = (input: Partial<typeof base>) => {
      try {
        sim.confirmSetup(setup.id, { ...base, ...input });
        return 'ok';
      } catch (e) {
        return e instanceof SimulatorRefusal ? `${e.status} ${e.code}` : 'other';
      }
    };
    expect(code({ key: 'sk_live_x' })).toBe('401 invalid_api_key');
    expect(code({ client_secret: 'nope' })).toBe('400 setup_intent_invalid_parameter');
    expect(code({ return_url: 'https://evil.test/' })).toBe('400 url_invalid');
    expect(code({ card_number: '4111111111111111' })).toBe('402 incorrect_number');
    expect(code({ exp_month: '13' })).toBe('402 invalid_expiry_month');
    expect(code({ exp_year: '2025' })).toBe('402 invalid_expiry_year');
    expect(code({ exp_month: '10', exp_year: '26' })).toBe('402 invalid_expiry_year');
    expect(code({})).toBe('ok');
    expect(() => sim.retrieveSetupForBrowser(setup.id, { client_secret: 'x', key: KEY })).toThrow(
      SimulatorRefusal,
    );
    expect(() =>
      sim.retrieveSetupForBrowser(setup.id, { client_secret: setup.client_secret, key: 'x' }),
    ).toThrow(SimulatorRefusal);
    expect(isSetupReturn('/payment-settings')).toBe(true);
    expect(isSetupReturn('/payment-settings/add-payment-method?x=1')).toBe(true);
    expect(isSetupReturn('//evil.test/payment-settings')).toBe(false);
  });
});

describe('the simulator: detaching a saved card (issue 30)', () => {
  it('detaches once: the card is no longer the customer’s and is refused when charged', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { customer, setup } = await setupFor(sim);
    const done = confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.success);
    const pmId = done.payment_method ?? '';
    const detached = await sim.detachPaymentMethod(pmId);
    expect(detached).toMatchObject({ id: pmId, object: 'payment_method', customer: null });
    expect((await sim.retrievePaymentMethod(pmId)).customer).toBeNull();
    // as Stripe answers: a detached card cannot be charged, nor detached again
    await expect(charge(sim, customer.id, pmId)).rejects.toMatchObject({ status: 400 });
    await expect(sim.detachPaymentMethod(pmId)).rejects.toMatchObject({
      status: 400,
      code: 'payment_method_unexpected_state',
    });
    // a card saved before a restart (not held in memory) is detached by its id, then refused
    const fresh = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    await expect(fresh.detachPaymentMethod('pm_sim_4242_demo')).resolves.toMatchObject({
      customer: null,
    });
    await expect(charge(fresh, customer.id, 'pm_sim_4242_demo')).rejects.toMatchObject({
      status: 400,
    });
    await expect(fresh.detachPaymentMethod('pm_nope')).rejects.toMatchObject({ status: 404 });
  });
});

describe('the simulator: a charge that is processing, settled later by webhook events', () => {
  it('answers processing with a signed payment_intent.processing event, then the result', async () => {
    const sim = new PaymentsSimulator({ clock, webhookSecret: WEBHOOK_SECRET });
    const { customer, setup } = await setupFor(sim);
    const done = confirmSetup(sim, setup.id, setup.client_secret, TEST_CARDS.processing);
    expect(done.status).toBe('succeeded');
    const pmId = done.payment_method ?? '';
    const pi = await charge(sim, customer.id, pmId);
    expect(pi).toMatchObject({ status: 'processing', amount: 3100 });
    // the same key answers the same intent; nothing is settled until it finishes
    expect((await charge(sim, customer.id, pmId)).id).toBe(pi.id);
    const later = sim.finishProcessing(pi.id, true);
    expect(later.intent.status).toBe('succeeded');
    expect(later.events.map((e) => [e.event.type, e.event.data.object.status])).toEqual([
      ['payment_intent.processing', 'processing'],
      ['payment_intent.succeeded', 'succeeded'],
    ]);
    for (const e of later.events) {
      expect(e.event.data.object.metadata).toEqual({ case: '1' });
      expect(verifyWebhookSignature(WEBHOOK_SECRET, e.signature, e.body, now())).toBe('ok');
    }
    // finished once
    expect(() => sim.finishProcessing(pi.id, true)).toThrow(SimulatorRefusal);
    expect(() => sim.finishProcessing('pi_nope', true)).toThrow(SimulatorRefusal);
    // another charge of it fails later: payment_failed with the reason
    const failing = await charge(sim, customer.id, pmId, 'case-1-2');
    const failed = sim.finishProcessing(failing.id, false);
    expect(failed.intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
    expect(failed.events.map((e) => e.event.type)).toEqual([
      'payment_intent.processing',
      'payment_intent.payment_failed',
    ]);
  });
});

describe("Stripe's saved cards client", () => {
  it('speaks the same shapes over HTTP, and reads a 402 card_error as a decline', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const answers: [number, unknown][] = [
      [200, { id: 'cus_1', object: 'customer', name: 'Acme', email: null, metadata: {} }],
      [
        200,
        {
          id: 'seti_1',
          object: 'setup_intent',
          status: 'requires_payment_method',
          client_secret: 'seti_1_secret_x',
        },
      ],
      [
        200,
        {
          id: 'seti_1',
          object: 'setup_intent',
          status: 'succeeded',
          client_secret: 'seti_1_secret_x',
          payment_method: 'pm_1',
        },
      ],
      [
        200,
        {
          id: 'pm_1',
          object: 'payment_method',
          type: 'card',
          customer: 'cus_1',
          card: { brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2030 },
        },
      ],
      [200, { id: 'pi_1', amount: 3100, status: 'succeeded', client_secret: 'pi_1_secret' }],
      [
        402,
        {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
            payment_intent: { id: 'pi_2' },
          },
        },
      ],
      [402, { error: { type: 'card_error', message: 'Declined' } }],
      [503, { error: { type: 'api_error' } }],
    ];
    const fake: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init });
      const [status, body] = answers.shift() ?? [500, {}];
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    };
    const c = new StripeClient({
      secretKey: 'sk_test_1',
      apiBase: 'https://stripe.test',
      fetch: fake,
    });
    const cus = await c.createCustomer(
      {
        name: 'Acme',
        email: 'a@acme.test',
        metadata: { kestrel_customer: '1' },
        idempotency_key: 'kc-1',
      },
      signal(),
    );
    expect(cus.id).toBe('cus_1');
    expect(new Headers(calls[0]?.init?.headers).get('idempotency-key')).toBe('kc-1');
    expect(new URLSearchParams(String(calls[0]?.init?.body)).get('email')).toBe('a@acme.test');
    await c.createSetupIntent({ customer: 'cus_1', metadata: { kestrel_customer: '1' } }, signal());
    expect(calls[1]?.url).toBe('https://stripe.test/v1/setup_intents');
    const setupBody = new URLSearchParams(String(calls[1]?.init?.body));
    expect(setupBody.get('customer')).toBe('cus_1');
    expect(setupBody.get('usage')).toBe('off_session');
    expect((await c.retrieveSetupIntent('seti_1', signal())).payment_method).toBe('pm_1');
    expect(calls[2]?.url).toBe('https://stripe.test/v1/setup_intents/seti_1');
    expect((await c.retrievePaymentMethod('pm_1', signal())).card.last4).toBe('4444');
    const input = {
      amount_pence: 3100,
      customer: 'cus_1',
      payment_method: 'pm_1',
      description: 'Case 1',
      metadata: { case: '1' },
      idempotency_key: 'kestrel-case-1-1-1',
    };
    expect((await c.chargeOffSession(input, signal())).status).toBe('succeeded');
    const chargeBody = new URLSearchParams(String(calls[4]?.init?.body));
    expect(chargeBody.get('off_session')).toBe('true');
    expect(chargeBody.get('confirm')).toBe('true');
    expect(chargeBody.get('payment_method')).toBe('pm_1');
    expect(new Headers(calls[4]?.init?.headers).get('idempotency-key')).toBe('kestrel-case-1-1-1');
    await expect(c.chargeOffSession(input, signal())).rejects.toMatchObject({
      name: 'PaymentsCardError',
      code: 'insufficient_funds',
      paymentIntent: 'pi_2',
      retryable: false,
    });
    await expect(c.chargeOffSession(input, signal())).rejects.toMatchObject({
      code: 'card_declined',
      paymentIntent: null,
      message: 'Declined',
    });
    await expect(c.chargeOffSession(input, signal())).rejects.toMatchObject({
      name: 'PaymentsProviderError',
      retryable: true,
    });
    expect(cardErrorOf(400, { error: { type: 'card_error' } })).toBeNull();
    expect(cardErrorOf(402, null)).toBeNull();
  });

  it('detaches a card: POST /v1/payment_methods/{id}/detach', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const answers: [number, unknown][] = [
      [
        200,
        {
          id: 'pm_1',
          object: 'payment_method',
          type: 'card',
          customer: null,
          card: { brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2030 },
        },
      ],
      [400, { error: { type: 'invalid_request_error', message: 'not attached' } }],
      [503, { error: { type: 'api_error' } }],
    ];
    const fake: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init });
      const [status, body] = answers.shift() ?? [500, {}];
      return new Response(JSON.stringify(body), { status });
    };
    const c = new StripeClient({
      secretKey: 'sk_test_1',
      apiBase: 'https://stripe.test',
      fetch: fake,
    });
    expect((await c.detachPaymentMethod('pm_1', signal())).customer).toBeNull();
    expect(calls[0]?.url).toBe('https://stripe.test/v1/payment_methods/pm_1/detach');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(new Headers(calls[0]?.init?.headers).get('authorization')).toBe('Bearer sk_test_1');
    await expect(c.detachPaymentMethod('pm_1', signal())).rejects.toMatchObject({
      status: 400,
      retryable: false,
    });
    await expect(c.detachPaymentMethod('pm_1', signal())).rejects.toMatchObject({
      retryable: true,
    });
  });
});
