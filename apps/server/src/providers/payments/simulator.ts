import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { signWebhook } from '../../platform/webhooks.js';
import type {
  CreateIntentInput,
  CreateRefundInput,
  PaymentEvent,
  PaymentsProvider,
  ProviderPaymentIntent,
  ProviderRefund,
  SettlingEvent,
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
} as const;

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
    const type: SettlingEvent = error
      ? 'payment_intent.payment_failed'
      : 'payment_intent.succeeded';
    return { intent: structuredClone(intent), events: [this.sign(type, intent)] };
  }

  private sign(type: SettlingEvent, intent: ProviderPaymentIntent): SignedEvent {
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
