import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { verifyWebhookSignature } from '../../platform/webhooks.js';
import { formEncode, StripeClient } from './client.js';
import { PaymentsProviderError } from './provider.js';
import { isPortalReturn, PaymentsSimulator, SimulatorRefusal, TEST_CARDS } from './simulator.js';

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
