import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { signWebhook } from '../../platform/webhooks.js';
import {
  type ChargeInput,
  type CreateCustomerInput,
  type CreateIntentInput,
  type CreateRefundInput,
  type CreateSetupIntentInput,
  type PaymentEvent,
  PaymentsCardError,
  type PaymentsProvider,
  type ProductPaymentEvent,
  type ProviderCustomer,
  type ProviderPaymentIntent,
  type ProviderPaymentMethod,
  type ProviderRefund,
  type ProviderSetupIntent,
} from './provider.js';

/*
 * A deterministic payments provider (the default, PAYMENTS_PROVIDER=simulator) with Stripe's
 * shapes: intents created idempotently, confirmed in the browser with a publishable key and a
 * test card (README.md), a 3-D Secure challenge page of its own, and signed webhook events
 * (`Stripe-Signature`, the same HMAC as Stripe's) for the app to deliver to its webhook. It keeps
 * its intents in memory: a restarted server forgets unpaid simulated intents (README.md).
 */

/** Where the simulator's routes live (confirm, 3-D Secure challenge), relative to the site. */
export const SIMULATOR_BASE = '/simulator/payments';

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeDSecure: '4000000000003220',
  /** Saving it asks for 3-D Secure; charged off-session afterwards, it pays (Stripe's 3155). */
  setupThreeDSecure: '4000002500003155',
  /**
   * The simulator's own (Stripe has no card number for it: its bank debits do the same): saved,
   * and its off-session charges answer `processing`, settled later (finishProcessing) by webhook
   * events.
   */
  processing: '4000000000001976',
} as const;

/**
 * What a saved card does when charged off-session (setup intents): 4242 and 3155 pay, 9995 is
 * declined for insufficient funds, 3220 asks for authentication (authentication_required). 0002
 * cannot be saved (declined at setup). A saved card's id carries its last four digits
 * (`pm_sim_4242_...`), so a card saved before a restart still charges as it did.
 */
const SAVED_CARDS: Record<
  string,
  {
    setup: 'saved' | 'challenge' | 'declined';
    charge: null | { code: string; message: string };
    processing?: true;
  }
> = {
  [TEST_CARDS.success]: { setup: 'saved', charge: null },
  [TEST_CARDS.processing]: { setup: 'saved', charge: null, processing: true },
  [TEST_CARDS.setupThreeDSecure]: { setup: 'challenge', charge: null },
  [TEST_CARDS.insufficientFunds]: {
    setup: 'saved',
    charge: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  [TEST_CARDS.threeDSecure]: {
    setup: 'challenge',
    charge: {
      code: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
    },
  },
  [TEST_CARDS.declined]: {
    setup: 'declined',
    charge: { code: 'card_declined', message: 'Your card was declined.' },
  },
};

const savedCardByLast4 = (last4: string) =>
  Object.entries(SAVED_CARDS).find(([n]) => n.endsWith(last4))?.[1];

type CardBehaviour =
  | { kind: 'success' }
  | { kind: 'declined'; code: string; message: string }
  | { kind: 'challenge' };

const CARDS: Record<string, CardBehaviour> = {
  [TEST_CARDS.success]: { kind: 'success' },
  [TEST_CARDS.declined]: {
    kind: 'declined',
    code: 'card_declined',
    message: 'Your card was declined.',
  },
  [TEST_CARDS.insufficientFunds]: {
    kind: 'declined',
    code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  [TEST_CARDS.threeDSecure]: { kind: 'challenge' },
};

/** An event ready to post to the webhook: the exact body and its signature header. */
export interface SignedEvent {
  event: PaymentEvent;
  body: string;
  signature: string;
}

/** A refusal of the simulated API (Stripe's error object), with its HTTP status. */
export class SimulatorRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SimulatorRefusal';
  }
  toJSON() {
    return { error: { type: 'invalid_request_error', code: this.code, message: this.message } };
  }
}

export interface ConfirmInput {
  client_secret: string;
  /** The publishable key (`key`, as Stripe.js sends it). */
  key: string;
  card_number: string;
  /** Where the 3-D Secure challenge returns to (a payment portal path). */
  return_url: string;
}

/** What the browser may read of an intent (no description, metadata or client secret). */
export type BrowserIntent = Pick<
  ProviderPaymentIntent,
  'id' | 'object' | 'amount' | 'currency' | 'status' | 'next_action' | 'last_payment_error'
>;

export interface ConfirmSetupInput {
  client_secret: string;
  key: string;
  card_number: string;
  exp_month: string;
  exp_year: string;
  /** Where the 3-D Secure challenge returns to (the payment settings' pages). */
  return_url: string;
}

/** What the browser may read of a setup intent (no metadata or client secret). */
export type BrowserSetupIntent = Pick<
  ProviderSetupIntent,
  'id' | 'object' | 'status' | 'payment_method' | 'next_action' | 'last_setup_error'
>;

export interface SimulatorResult {
  intent: ProviderPaymentIntent;
  /** Events to deliver to the webhook, in order. */
  events: SignedEvent[];
}

const hash = (s: string, n: number) =>
  createHash('sha256').update(s).digest('base64url').replace(/[-_]/g, 'x').slice(0, n);

export class PaymentsSimulator implements PaymentsProvider {
  readonly name = 'simulator' as const;
  readonly browserApiBase = SIMULATOR_BASE;
  private readonly intents = new Map<string, ProviderPaymentIntent>();
  private readonly byKey = new Map<string, string>();
  private readonly refunds = new Map<string, ProviderRefund>();
  private readonly refunded = new Map<string, number>();
  private readonly customers = new Map<string, ProviderCustomer>();
  private readonly setups = new Map<string, ProviderSetupIntent>();
  private readonly methods = new Map<string, ProviderPaymentMethod>();
  private readonly charges = new Map<
    string,
    { intent: ProviderPaymentIntent } | { error: PaymentsCardError }
  >();
  /** Cards detached (they cannot be charged again), those made before a restart included. */
  private readonly detached = new Set<string>();
  /** A processing charge's events not delivered yet (its `processing`), by intent. */
  private readonly pendingEvents = new Map<string, SignedEvent[]>();
  private setupCount = 0;
  private events = 0;
  /** Every event made, in order (tests deliver them again: replays). */
  readonly sent: SignedEvent[] = [];

  constructor(private readonly options: { clock: Clock; webhookSecret: string }) {}

  async createIntent(input: CreateIntentInput): Promise<ProviderPaymentIntent> {
    const existing = this.byKey.get(input.idempotency_key);
    const known = existing ? this.intents.get(existing) : undefined;
    if (known) return structuredClone(known);
    if (!Number.isInteger(input.amount_pence) || input.amount_pence < 30) {
      throw new SimulatorRefusal(400, 'amount_too_small', 'Amount must be at least £0.30 gbp.');
    }
    const id = `pi_sim_${hash(input.idempotency_key, 24)}`;
    const intent: ProviderPaymentIntent = {
      id,
      object: 'payment_intent',
      amount: input.amount_pence,
      currency: 'gbp',
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${hash(`secret:${id}`, 24)}`,
      description: input.description,
      metadata: { ...input.metadata },
      next_action: null,
      last_payment_error: null,
    };
    this.intents.set(id, intent);
    this.byKey.set(input.idempotency_key, id);
    return structuredClone(intent);
  }

  /**
   * A refund, once per idempotency key (a repeat answers the first). Against an intent it holds
   * (made since it started), only a succeeded one and never more than it took; an intent it does
   * not hold (made before a restart: it keeps them in memory) is refunded as asked.
   */
  async createRefund(input: CreateRefundInput): Promise<ProviderRefund> {
    const known = this.refunds.get(input.idempotency_key);
    if (known) return structuredClone(known);
    if (!Number.isInteger(input.amount_pence) || input.amount_pence < 1) {
      throw new SimulatorRefusal(400, 'amount_too_small', 'Refund amount must be positive.');
    }
    const intent = this.intents.get(input.payment_intent);
    const before = this.refunded.get(input.payment_intent) ?? 0;
    if (intent && intent.status !== 'succeeded') {
      throw new SimulatorRefusal(400, 'charge_not_refundable', 'The payment has not succeeded.');
    }
    if (intent && before + input.amount_pence > intent.amount) {
      throw new SimulatorRefusal(
        400,
        'amount_too_large',
        'Refund amount is greater than the unrefunded amount.',
      );
    }
    const refund: ProviderRefund = {
      id: `re_sim_${hash(`refund:${input.idempotency_key}`, 24)}`,
      object: 'refund',
      amount: input.amount_pence,
      currency: 'gbp',
      payment_intent: input.payment_intent,
      status: 'succeeded',
      metadata: { ...input.metadata },
    };
    this.refunds.set(input.idempotency_key, refund);
    this.refunded.set(input.payment_intent, before + input.amount_pence);
    return structuredClone(refund);
  }

  async retrieveIntent(id: string): Promise<ProviderPaymentIntent> {
    return structuredClone(this.find(id));
  }

  private find(id: string): ProviderPaymentIntent {
    const intent = this.intents.get(id);
    if (!intent)
      throw new SimulatorRefusal(404, 'resource_missing', `No such payment_intent: '${id}'`);
    return intent;
  }

  /**
   * The browser's look at an intent (Stripe.js's retrievePaymentIntent, with the publishable key
   * and the intent's client secret): how it stands and what it waits for (a 3-D Secure challenge
   * left unfinished). A wrong key is refused (401); an unknown intent or a wrong client secret is
   * not found (404), as Stripe answers, so the answer tells a stranger nothing.
   */
  retrieveForBrowser(id: string, input: { client_secret: string; key: string }): BrowserIntent {
    if (!input.key.startsWith('pk_test_')) {
      throw new SimulatorRefusal(401, 'invalid_api_key', 'Invalid API Key provided.');
    }
    const intent = this.intents.get(id);
    if (!intent || input.client_secret !== intent.client_secret) {
      throw new SimulatorRefusal(404, 'resource_missing', `No such payment_intent: '${id}'`);
    }
    const { object, amount, currency, status, next_action, last_payment_error } = intent;
    return structuredClone({
      id,
      object,
      amount,
      currency,
      status,
      next_action,
      last_payment_error,
    });
  }

  /** The browser's confirmation with a test card (Stripe.js's confirmCardPayment). */
  confirm(id: string, input: ConfirmInput): SimulatorResult {
    const intent = this.find(id);
    if (!input.key.startsWith('pk_test_')) {
      throw new SimulatorRefusal(401, 'invalid_api_key', 'Invalid API Key provided.');
    }
    if (input.client_secret !== intent.client_secret) {
      throw new SimulatorRefusal(
        400,
        'payment_intent_invalid_parameter',
        'The client_secret does not match.',
      );
    }
    if (intent.status !== 'requires_payment_method') {
      throw new SimulatorRefusal(
        400,
        'payment_intent_unexpected_state',
        `This PaymentIntent's status is ${intent.status}: it cannot be confirmed.`,
      );
    }
    if (!isPortalReturn(input.return_url)) {
      throw new SimulatorRefusal(400, 'url_invalid', 'Not a valid return_url.');
    }
    const card = CARDS[input.card_number.replace(/\s+/g, '')];
    if (!card) {
      throw new SimulatorRefusal(402, 'incorrect_number', 'Your card number is incorrect.');
    }
    if (card.kind === 'challenge') {
      intent.status = 'requires_action';
      intent.last_payment_error = null;
      intent.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: {
          url: `${SIMULATOR_BASE}/3ds/${encodeURIComponent(id)}/`,
          return_url: input.return_url,
        },
      };
      return { intent: structuredClone(intent), events: [] };
    }
    return card.kind === 'success'
      ? this.settle(intent, null)
      : this.settle(intent, { code: card.code, message: card.message });
  }

  /** A customer, once per idempotency key. */
  async createCustomer(input: CreateCustomerInput): Promise<ProviderCustomer> {
    const id = `cus_sim_${hash(`customer:${input.idempotency_key}`, 14)}`;
    const known = this.customers.get(id);
    if (known) return structuredClone(known);
    const customer: ProviderCustomer = {
      id,
      object: 'customer',
      name: input.name,
      email: input.email,
      metadata: { ...input.metadata },
    };
    this.customers.set(id, customer);
    return structuredClone(customer);
  }

  /** A setup intent for a customer (any `cus_sim_` id: customers made before a restart too). */
  async createSetupIntent(input: CreateSetupIntentInput): Promise<ProviderSetupIntent> {
    if (!input.customer.startsWith('cus_sim_')) {
      throw new SimulatorRefusal(400, 'resource_missing', `No such customer: '${input.customer}'`);
    }
    this.setupCount += 1;
    const id = `seti_sim_${hash(`setup:${input.customer}:${this.setupCount}`, 24)}`;
    const setup: ProviderSetupIntent = {
      id,
      object: 'setup_intent',
      client_secret: `${id}_secret_${hash(`secret:${id}`, 24)}`,
      status: 'requires_payment_method',
      customer: input.customer,
      payment_method: null,
      usage: 'off_session',
      metadata: { ...input.metadata },
      next_action: null,
      last_setup_error: null,
    };
    this.setups.set(id, setup);
    return structuredClone(setup);
  }

  async retrieveSetupIntent(id: string): Promise<ProviderSetupIntent> {
    return structuredClone(this.findSetup(id));
  }

  private findSetup(id: string): ProviderSetupIntent {
    const setup = this.setups.get(id);
    if (!setup) throw new SimulatorRefusal(404, 'resource_missing', `No such setupintent: '${id}'`);
    return setup;
  }

  async retrievePaymentMethod(id: string): Promise<ProviderPaymentMethod> {
    const pm = this.methods.get(id);
    if (!pm) throw new SimulatorRefusal(404, 'resource_missing', `No such PaymentMethod: '${id}'`);
    return structuredClone(pm);
  }

  /**
   * The browser's confirmation of a setup intent with a test card (Stripe.js's
   * confirmCardSetup): saved (succeeded, a payment method on the customer), a 3-D Secure
   * challenge (requires_action), or declined (requires_payment_method with last_setup_error;
   * it may be confirmed again with another card).
   */
  confirmSetup(id: string, input: ConfirmSetupInput): ProviderSetupIntent {
    const setup = this.findSetup(id);
    if (!input.key.startsWith('pk_test_')) {
      throw new SimulatorRefusal(401, 'invalid_api_key', 'Invalid API Key provided.');
    }
    if (input.client_secret !== setup.client_secret) {
      throw new SimulatorRefusal(
        400,
        'setup_intent_invalid_parameter',
        'The client_secret does not match.',
      );
    }
    if (setup.status !== 'requires_payment_method') {
      throw new SimulatorRefusal(
        400,
        'setup_intent_unexpected_state',
        `This SetupIntent's status is ${setup.status}: it cannot be confirmed.`,
      );
    }
    if (!isSetupReturn(input.return_url)) {
      throw new SimulatorRefusal(400, 'url_invalid', 'Not a valid return_url.');
    }
    const number = input.card_number.replace(/\s+/g, '');
    const card = SAVED_CARDS[number];
    if (!card) {
      throw new SimulatorRefusal(402, 'incorrect_number', 'Your card number is incorrect.');
    }
    const month = Number(input.exp_month);
    const rawYear = Number(input.exp_year);
    const year = rawYear < 100 ? 2000 + rawYear : rawYear;
    if (!Number.isInteger(month) || month < 1 || month > 12) {
      throw new SimulatorRefusal(
        402,
        'invalid_expiry_month',
        "Your card's expiration month is invalid.",
      );
    }
    const now = this.options.clock.now();
    const [y, m] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    if (!Number.isInteger(rawYear) || year < y || (year === y && month < m) || year > y + 50) {
      throw new SimulatorRefusal(
        402,
        'invalid_expiry_year',
        "Your card's expiration year is invalid.",
      );
    }
    if (card.setup === 'declined') {
      setup.last_setup_error = { code: 'card_declined', message: 'Your card was declined.' };
      return structuredClone(setup);
    }
    const pm: ProviderPaymentMethod = {
      id: `pm_sim_${number.slice(-4)}_${hash(`pm:${id}`, 16)}`,
      object: 'payment_method',
      type: 'card',
      customer: setup.customer,
      card: { brand: 'visa', last4: number.slice(-4), exp_month: month, exp_year: year },
    };
    this.methods.set(pm.id, pm);
    setup.last_setup_error = null;
    if (card.setup === 'challenge') {
      setup.status = 'requires_action';
      setup.payment_method = pm.id;
      setup.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: {
          url: `${SIMULATOR_BASE}/setup-3ds/${encodeURIComponent(id)}/`,
          return_url: input.return_url,
        },
      };
      return structuredClone(setup);
    }
    setup.status = 'succeeded';
    setup.payment_method = pm.id;
    return structuredClone(setup);
  }

  /** The browser's look at a setup intent (Stripe.js's retrieveSetupIntent). */
  retrieveSetupForBrowser(
    id: string,
    input: { client_secret: string; key: string },
  ): BrowserSetupIntent {
    if (!input.key.startsWith('pk_test_')) {
      throw new SimulatorRefusal(401, 'invalid_api_key', 'Invalid API Key provided.');
    }
    const setup = this.setups.get(id);
    if (!setup || input.client_secret !== setup.client_secret) {
      throw new SimulatorRefusal(404, 'resource_missing', `No such setupintent: '${id}'`);
    }
    const { object, status, payment_method, next_action, last_setup_error } = setup;
    return structuredClone({ id, object, status, payment_method, next_action, last_setup_error });
  }

  /**
   * An off-session charge of a saved card, once per idempotency key (a repeat answers the first
   * answer, a decline included). The card's behaviour is read from its id (`pm_sim_<last4>_`).
   */
  async chargeOffSession(input: ChargeInput): Promise<ProviderPaymentIntent> {
    const known = this.charges.get(input.idempotency_key);
    if (known) {
      if ('error' in known) throw known.error;
      return structuredClone(known.intent);
    }
    if (!Number.isInteger(input.amount_pence) || input.amount_pence < 30) {
      throw new SimulatorRefusal(400, 'amount_too_small', 'Amount must be at least £0.30 gbp.');
    }
    const m = /^pm_sim_(\d{4})_/.exec(input.payment_method);
    const card = m?.[1] ? savedCardByLast4(m[1]) : undefined;
    const held = this.methods.get(input.payment_method);
    if (this.detached.has(input.payment_method)) {
      // Stripe: a detached card "must be attached to the customer" to be charged
      throw new SimulatorRefusal(
        400,
        'resource_missing',
        `The customer does not have a payment method with the ID ${input.payment_method}. The payment method must be attached to the customer.`,
      );
    }
    if (!card || (held && held.customer !== input.customer)) {
      throw new SimulatorRefusal(
        400,
        'resource_missing',
        `No such PaymentMethod: '${input.payment_method}'`,
      );
    }
    const id = `pi_sim_${hash(input.idempotency_key, 24)}`;
    const intent: ProviderPaymentIntent = {
      id,
      object: 'payment_intent',
      amount: input.amount_pence,
      currency: 'gbp',
      status: card.charge
        ? 'requires_payment_method'
        : card.processing
          ? 'processing'
          : 'succeeded',
      client_secret: `${id}_secret_${hash(`secret:${id}`, 24)}`,
      description: input.description,
      metadata: { ...input.metadata },
      next_action: null,
      last_payment_error: card.charge,
    };
    this.intents.set(id, intent);
    this.byKey.set(input.idempotency_key, id);
    if (card.processing) {
      this.pendingEvents.set(id, [this.sign('payment_intent.processing', intent)]);
    }
    if (card.charge) {
      const error = new PaymentsCardError(card.charge.code, card.charge.message, id);
      this.charges.set(input.idempotency_key, { error });
      throw error;
    }
    this.charges.set(input.idempotency_key, { intent: structuredClone(intent) });
    return structuredClone(intent);
  }

  /**
   * A processing charge settled by the provider, later: succeeded, or failed (card_declined).
   * The events to deliver, in order: its `payment_intent.processing` (not delivered yet) and the
   * result. A charge not processing is refused (400), an unknown one not found (404).
   */
  finishProcessing(id: string, succeeded: boolean): SimulatorResult {
    const intent = this.find(id);
    if (intent.status !== 'processing') {
      throw new SimulatorRefusal(
        400,
        'payment_intent_unexpected_state',
        `This PaymentIntent's status is ${intent.status}: it is not processing.`,
      );
    }
    const result = succeeded
      ? this.settle(intent, null)
      : this.settle(intent, { code: 'card_declined', message: 'Your card was declined.' });
    const events = [...(this.pendingEvents.get(id) ?? []), ...result.events];
    this.pendingEvents.delete(id);
    return { intent: result.intent, events };
  }

  /**
   * Detaches a saved card (Stripe's POST /v1/payment_methods/{id}/detach): its customer becomes
   * null and it can no longer be charged. A simulated card not held (saved before a restart) is
   * detached by its id; one detached already is refused as Stripe refuses it.
   */
  async detachPaymentMethod(id: string): Promise<ProviderPaymentMethod> {
    const held = this.methods.get(id);
    const m = /^pm_sim_(\d{4})_/.exec(id);
    if (!held && !m) {
      throw new SimulatorRefusal(404, 'resource_missing', `No such PaymentMethod: '${id}'`);
    }
    if (this.detached.has(id) || (held && held.customer === null)) {
      throw new SimulatorRefusal(
        400,
        'payment_method_unexpected_state',
        'The payment method you provided is not attached to a customer so detachment is impossible.',
      );
    }
    this.detached.add(id);
    if (held) {
      held.customer = null;
      return structuredClone(held);
    }
    return {
      id,
      object: 'payment_method',
      type: 'card',
      customer: null,
      card: { brand: 'visa', last4: m?.[1] ?? '', exp_month: 12, exp_year: 2099 },
    };
  }

  /** The 3-D Secure challenge answered: authenticated (paid) or failed (declined). */
  completeChallenge(id: string, passed: boolean): SimulatorResult & { returnUrl: string } {
    const intent = this.find(id);
    const action = intent.next_action;
    if (intent.status !== 'requires_action' || !action) {
      throw new SimulatorRefusal(
        400,
        'payment_intent_unexpected_state',
        'No challenge is pending.',
      );
    }
    const returnUrl = action.redirect_to_url.return_url;
    const result = passed
      ? this.settle(intent, null)
      : this.settle(intent, {
          code: 'payment_intent_authentication_failure',
          message: 'We are unable to authenticate your payment method.',
        });
    return { ...result, returnUrl };
  }

  /**
   * A setup intent's challenge answered: saved (succeeded) or not (requires_payment_method with
   * setup_intent_authentication_failure). The return URL carries Stripe's query: setup_intent,
   * setup_intent_client_secret, redirect_status (succeeded or failed).
   */
  completeSetupChallenge(
    id: string,
    passed: boolean,
  ): { setup: ProviderSetupIntent; returnUrl: string } {
    const setup = this.findSetup(id);
    const action = setup.next_action;
    if (setup.status !== 'requires_action' || !action) {
      throw new SimulatorRefusal(400, 'setup_intent_unexpected_state', 'No challenge is pending.');
    }
    setup.next_action = null;
    if (passed) {
      setup.status = 'succeeded';
    } else {
      setup.status = 'requires_payment_method';
      if (setup.payment_method) this.methods.delete(setup.payment_method);
      setup.payment_method = null;
      setup.last_setup_error = {
        code: 'setup_intent_authentication_failure',
        message: 'We are unable to authenticate your payment method.',
      };
    }
    const base = action.redirect_to_url.return_url;
    const query = new URLSearchParams({
      setup_intent: setup.id,
      setup_intent_client_secret: setup.client_secret,
      redirect_status: passed ? 'succeeded' : 'failed',
    });
    const returnUrl = `${base}${base.includes('?') ? '&' : '?'}${query.toString()}`;
    return { setup: structuredClone(setup), returnUrl };
  }

  /** True while a setup intent's 3-D Secure challenge is pending. */
  pendingSetupChallenge(id: string): boolean {
    const setup = this.setups.get(id);
    return setup?.status === 'requires_action' && setup.next_action !== null;
  }

  /** The intent's return URL while a challenge is pending, else null. */
  pendingChallenge(id: string): { amount: number; returnUrl: string } | null {
    const intent = this.intents.get(id);
    if (intent?.status !== 'requires_action' || !intent.next_action) return null;
    return { amount: intent.amount, returnUrl: intent.next_action.redirect_to_url.return_url };
  }

  private settle(
    intent: ProviderPaymentIntent,
    error: { code: string; message: string } | null,
  ): SimulatorResult {
    intent.next_action = null;
    intent.status = error ? 'requires_payment_method' : 'succeeded';
    intent.last_payment_error = error;
    const type: ProductPaymentEvent = error
      ? 'payment_intent.payment_failed'
      : 'payment_intent.succeeded';
    return { intent: structuredClone(intent), events: [this.sign(type, intent)] };
  }

  private sign(type: ProductPaymentEvent, intent: ProviderPaymentIntent): SignedEvent {
    this.events += 1;
    const created = Math.floor(this.options.clock.now().getTime() / 1000);
    const event: PaymentEvent = {
      id: `evt_sim_${this.events}_${hash(`${intent.id}:${this.events}`, 10)}`,
      object: 'event',
      type,
      created,
      data: { object: structuredClone(intent) },
    };
    const body = JSON.stringify(event);
    const signed = {
      event,
      body,
      signature: signWebhook(this.options.webhookSecret, created, body),
    };
    this.sent.push(signed);
    return signed;
  }
}

/** A 3-D Secure return address the simulator accepts: a payment portal path of this site. */
export function isPortalReturn(url: string): boolean {
  return /^\/payment-portal\/[A-Za-z0-9_-]+\/?(\?[A-Za-z0-9_=&-]*)?$/.test(url);
}

/** A card setup's return address the simulator accepts: the payment settings' pages. */
export function isSetupReturn(url: string): boolean {
  return /^\/payment-settings(\/add-payment-method)?\/?(\?[A-Za-z0-9_=&-]*)?$/.test(url);
}
