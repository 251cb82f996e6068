import type { PaymentIntentStatus, PaymentProviderName, SetupIntentStatus } from '@kestrel/domain';

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

/** A 3-D Secure challenge to finish in the browser (Stripe's next_action). */
export interface RedirectAction {
  type: 'redirect_to_url';
  redirect_to_url: { url: string; return_url: string };
}

/** A customer at the provider (Stripe's Customer): cards are saved to it, charges name it. */
export interface ProviderCustomer {
  id: string;
  object: 'customer';
  name: string;
  email: string | null;
  metadata: Record<string, string>;
}

export interface CreateCustomerInput {
  name: string;
  email: string | null;
  metadata: Record<string, string>;
  /** The same for every attempt to make one customer's: the provider makes one. */
  idempotency_key: string;
}

/**
 * A setup intent (Stripe's SetupIntent, usage off_session): the browser confirms it with a card;
 * once `succeeded`, `payment_method` is the card saved to `customer`, chargeable off-session.
 */
export interface ProviderSetupIntent {
  id: string;
  object: 'setup_intent';
  client_secret: string;
  status: SetupIntentStatus;
  customer: string | null;
  payment_method: string | null;
  usage: 'off_session';
  metadata: Record<string, string>;
  next_action: RedirectAction | null;
  last_setup_error: { code: string; message: string } | null;
}

export interface CreateSetupIntentInput {
  /** The provider's customer the card is saved to. */
  customer: string;
  metadata: Record<string, string>;
}

/** A saved card (Stripe's PaymentMethod of type card, the fields used). */
export interface ProviderPaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

/**
 * An off-session charge of a saved card (Stripe: POST /v1/payment_intents with customer,
 * payment_method, off_session=true, confirm=true). It answers the succeeded intent, or throws a
 * PaymentsCardError (the card was declined, or its issuer asks for authentication).
 */
export interface ChargeInput {
  amount_pence: number;
  customer: string;
  payment_method: string;
  description: string;
  metadata: Record<string, string>;
  /** The same for every attempt at one charge: the provider charges once. */
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
  /** `POST /v1/customers`, once per idempotency key. */
  createCustomer(input: CreateCustomerInput, signal: AbortSignal): Promise<ProviderCustomer>;
  /** `POST /v1/setup_intents` (usage off_session, card). */
  createSetupIntent(
    input: CreateSetupIntentInput,
    signal: AbortSignal,
  ): Promise<ProviderSetupIntent>;
  /** `GET /v1/setup_intents/{id}`. */
  retrieveSetupIntent(id: string, signal: AbortSignal): Promise<ProviderSetupIntent>;
  /** `GET /v1/payment_methods/{id}`. */
  retrievePaymentMethod(id: string, signal: AbortSignal): Promise<ProviderPaymentMethod>;
  /** Charges a saved card off-session, once per idempotency key (ChargeInput). */
  chargeOffSession(input: ChargeInput, signal: AbortSignal): Promise<ProviderPaymentIntent>;
  /**
   * `POST /v1/payment_methods/{id}/detach`: the card is no longer its customer's and can never be
   * charged again; answers the payment method (customer null). A card not attached (detached
   * already) is refused (400), an unknown one not found (404).
   */
  detachPaymentMethod(id: string, signal: AbortSignal): Promise<ProviderPaymentMethod>;
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

/**
 * A charge the card's issuer refused (Stripe's 402 card_error): `code` is card_declined,
 * insufficient_funds (Stripe's decline_code), authentication_required...; never retried (the same
 * card answers the same). `payment_intent` is the provider's intent of the attempt, when made.
 */
export class PaymentsCardError extends PaymentsProviderError {
  constructor(
    readonly code: string,
    message: string,
    readonly paymentIntent: string | null,
  ) {
    super(message, false, 402);
    this.name = 'PaymentsCardError';
  }
}

/** The webhook events Kestrel acts on (others are acknowledged and ignored). */
export const SETTLING_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
] as const;
export type SettlingEvent = (typeof SETTLING_EVENTS)[number];

/**
 * The events of an off-session charge (a case's product payment) Kestrel acts on: its result,
 * and `processing` (a charge the provider settles later, with one of the others).
 */
export const PRODUCT_PAYMENT_EVENTS = [...SETTLING_EVENTS, 'payment_intent.processing'] as const;
export type ProductPaymentEvent = (typeof PRODUCT_PAYMENT_EVENTS)[number];

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
