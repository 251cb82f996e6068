import type { PaymentIntentStatus, PaymentProviderName } from '@kestrel/domain';

/*
 * A payments provider with Stripe's PaymentIntents shape (PROVIDERS.md): the server creates an
 * intent (pence, gbp, metadata naming the case activity, an idempotency key), the browser confirms
 * it with the brand's publishable key (card, perhaps a 3-D Secure challenge), and the provider
 * tells the server what happened through signed webhooks (`Stripe-Signature`).
 */

export interface ProviderPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: 'gbp';
  status: PaymentIntentStatus;
  client_secret: string;
  description: string;
  metadata: Record<string, string>;
  next_action: {
    type: 'redirect_to_url';
    redirect_to_url: { url: string; return_url: string };
  } | null;
  last_payment_error: { code: string; message: string } | null;
}

export interface CreateIntentInput {
  amount_pence: number;
  description: string;
  metadata: Record<string, string>;
  /** The same for every attempt to create one intent: the provider makes one. */
  idempotency_key: string;
}

/** A refund against a payment intent (Stripe's Refund object, the fields used). */
export interface ProviderRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: 'gbp';
  payment_intent: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  metadata: Record<string, string>;
}

export interface CreateRefundInput {
  /** The provider's payment intent id. */
  payment_intent: string;
  amount_pence: number;
  metadata: Record<string, string>;
  /** The same for every attempt at one refund: the provider refunds once. */
  idempotency_key: string;
}

export interface PaymentsProvider {
  readonly name: PaymentProviderName;
  /** Where the browser confirms an intent (Stripe's API base, or the simulator's routes). */
  readonly browserApiBase: string;
  createIntent(input: CreateIntentInput, signal: AbortSignal): Promise<ProviderPaymentIntent>;
  retrieveIntent(id: string, signal: AbortSignal): Promise<ProviderPaymentIntent>;
  /** Refunds all or part of a succeeded intent (`POST /v1/refunds`), once per idempotency key. */
  createRefund(input: CreateRefundInput, signal: AbortSignal): Promise<ProviderRefund>;
}

/** A provider call that failed: `retryable` for outages and timeouts, not for a refusal. */
export class PaymentsProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'PaymentsProviderError';
  }
}

/** The webhook events Kestrel acts on (others are acknowledged and ignored). */
export const SETTLING_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
] as const;
export type SettlingEvent = (typeof SETTLING_EVENTS)[number];

/** A webhook event as the provider posts it (Stripe's Event object, the fields used). */
export interface PaymentEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: ProviderPaymentIntent };
}

/** Stripe's webhook signature header (lower-cased, as Node gives headers). */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';
