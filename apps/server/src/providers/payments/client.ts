import {
  type ChargeInput,
  type CreateCustomerInput,
  type CreateIntentInput,
  type CreateRefundInput,
  type CreateSetupIntentInput,
  PaymentsCardError,
  type PaymentsProvider,
  PaymentsProviderError,
  type ProviderCustomer,
  type ProviderPaymentIntent,
  type ProviderPaymentMethod,
  type ProviderRefund,
  type ProviderSetupIntent,
} from './provider.js';

/*
 * Stripe's PaymentIntents API over fetch: form-encoded bodies, `Authorization: Bearer <secret
 * key>`, an `Idempotency-Key` header on creation (a retried create makes no second intent).
 * `POST /v1/payment_intents`, `GET /v1/payment_intents/{id}`; saved cards: `POST /v1/customers`,
 * `POST /v1/setup_intents`, `GET /v1/setup_intents/{id}`, `GET /v1/payment_methods/{id}`, and
 * the off-session charge (`POST /v1/payment_intents` with customer, payment_method,
 * off_session=true, confirm=true; a 402 card_error is a PaymentsCardError), and a removed card's
 * detachment (`POST /v1/payment_methods/{id}/detach`).
 */

export interface StripeClientOptions {
  secretKey: string;
  /** Default https://api.stripe.com (STRIPE_API_BASE). */
  apiBase?: string;
  fetch?: typeof fetch;
}

/** Stripe's form encoding of a flat object with one level of nesting (`metadata[key]=v`). */
export function formEncode(body: Record<string, string | number | Record<string, string>>) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (typeof v === 'object') {
      for (const [kk, vv] of Object.entries(v)) params.append(`${k}[${kk}]`, vv);
    } else params.append(k, String(v));
  }
  return params.toString();
}

function isIntent(x: unknown): x is ProviderPaymentIntent {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return (
    typeof o.id === 'string' &&
    typeof o.amount === 'number' &&
    typeof o.status === 'string' &&
    typeof o.client_secret === 'string'
  );
}

const record = (x: unknown): Record<string, unknown> | null =>
  typeof x === 'object' && x !== null ? (x as Record<string, unknown>) : null;

function isCustomer(x: unknown): x is ProviderCustomer {
  const o = record(x);
  return o?.object === 'customer' && typeof o.id === 'string';
}

function isSetupIntent(x: unknown): x is ProviderSetupIntent {
  const o = record(x);
  return (
    o?.object === 'setup_intent' &&
    typeof o.id === 'string' &&
    typeof o.status === 'string' &&
    typeof o.client_secret === 'string'
  );
}

function isPaymentMethod(x: unknown): x is ProviderPaymentMethod {
  const o = record(x);
  const card = record(o?.card);
  return (
    o?.object === 'payment_method' &&
    typeof o.id === 'string' &&
    typeof card?.last4 === 'string' &&
    typeof card.brand === 'string' &&
    typeof card.exp_month === 'number' &&
    typeof card.exp_year === 'number'
  );
}

/** Stripe's 402 card_error of an off-session charge, as a PaymentsCardError; else null. */
export function cardErrorOf(status: number, body: unknown): PaymentsCardError | null {
  const error = record(record(body)?.error);
  if (status !== 402 || error?.type !== 'card_error') return null;
  const code =
    typeof error.decline_code === 'string'
      ? error.decline_code
      : typeof error.code === 'string'
        ? error.code
        : 'card_declined';
  const message = typeof error.message === 'string' ? error.message : 'Your card was declined.';
  const pi = record(error.payment_intent);
  return new PaymentsCardError(code, message, typeof pi?.id === 'string' ? pi.id : null);
}

function isRefund(x: unknown): x is ProviderRefund {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return (
    o.object === 'refund' &&
    typeof o.id === 'string' &&
    typeof o.amount === 'number' &&
    typeof o.status === 'string'
  );
}

export class StripeClient implements PaymentsProvider {
  readonly name = 'stripe' as const;
  readonly browserApiBase: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: StripeClientOptions) {
    this.browserApiBase = (options.apiBase ?? 'https://api.stripe.com').replace(/\/$/, '');
    this.fetch = options.fetch ?? fetch;
  }

  createIntent(input: CreateIntentInput, signal: AbortSignal): Promise<ProviderPaymentIntent> {
    const body = formEncode({
      amount: input.amount_pence,
      currency: 'gbp',
      description: input.description,
      'automatic_payment_methods[enabled]': 'true',
      metadata: input.metadata,
    });
    return this.call('POST', '/v1/payment_intents', signal, body, input.idempotency_key);
  }

  retrieveIntent(id: string, signal: AbortSignal): Promise<ProviderPaymentIntent> {
    return this.call('GET', `/v1/payment_intents/${encodeURIComponent(id)}`, signal);
  }

  createRefund(input: CreateRefundInput, signal: AbortSignal): Promise<ProviderRefund> {
    const body = formEncode({
      payment_intent: input.payment_intent,
      amount: input.amount_pence,
      metadata: input.metadata,
    });
    return this.request('POST', '/v1/refunds', signal, isRefund, body, input.idempotency_key);
  }

  createCustomer(input: CreateCustomerInput, signal: AbortSignal): Promise<ProviderCustomer> {
    const body = formEncode({
      name: input.name,
      ...(input.email ? { email: input.email } : {}),
      metadata: input.metadata,
    });
    return this.request('POST', '/v1/customers', signal, isCustomer, body, input.idempotency_key);
  }

  createSetupIntent(
    input: CreateSetupIntentInput,
    signal: AbortSignal,
  ): Promise<ProviderSetupIntent> {
    const body = formEncode({
      customer: input.customer,
      usage: 'off_session',
      'payment_method_types[]': 'card',
      metadata: input.metadata,
    });
    return this.request('POST', '/v1/setup_intents', signal, isSetupIntent, body);
  }

  retrieveSetupIntent(id: string, signal: AbortSignal): Promise<ProviderSetupIntent> {
    return this.request(
      'GET',
      `/v1/setup_intents/${encodeURIComponent(id)}`,
      signal,
      isSetupIntent,
    );
  }

  retrievePaymentMethod(id: string, signal: AbortSignal): Promise<ProviderPaymentMethod> {
    const path = `/v1/payment_methods/${encodeURIComponent(id)}`;
    return this.request('GET', path, signal, isPaymentMethod);
  }

  chargeOffSession(input: ChargeInput, signal: AbortSignal): Promise<ProviderPaymentIntent> {
    const body = formEncode({
      amount: input.amount_pence,
      currency: 'gbp',
      customer: input.customer,
      payment_method: input.payment_method,
      off_session: 'true',
      confirm: 'true',
      description: input.description,
      metadata: input.metadata,
    });
    return this.request(
      'POST',
      '/v1/payment_intents',
      signal,
      isIntent,
      body,
      input.idempotency_key,
      cardErrorOf,
    );
  }

  detachPaymentMethod(id: string, signal: AbortSignal): Promise<ProviderPaymentMethod> {
    const path = `/v1/payment_methods/${encodeURIComponent(id)}/detach`;
    return this.request('POST', path, signal, isPaymentMethod, '');
  }

  private call(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    body?: string,
    idempotencyKey?: string,
  ): Promise<ProviderPaymentIntent> {
    return this.request(method, path, signal, isIntent, body, idempotencyKey);
  }

  private async request<T>(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    valid: (x: unknown) => x is T,
    body?: string,
    idempotencyKey?: string,
    refusal?: (status: number, body: unknown) => Error | null,
  ): Promise<T> {
    let res: Response;
    try {
      res = await this.fetch(`${this.browserApiBase}${path}`, {
        method,
        signal,
        headers: {
          authorization: `Bearer ${this.options.secretKey}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(body !== undefined ? { body } : {}),
      });
    } catch {
      throw new PaymentsProviderError(
        signal.aborted
          ? 'The payments provider did not answer in time.'
          : 'The payments provider is unreachable.',
        true,
      );
    }
    if (!res.ok) {
      const known = refusal?.(res.status, await res.json().catch(() => null));
      if (known) throw known;
      const retryable = res.status >= 500 || res.status === 429 || res.status === 409;
      throw new PaymentsProviderError(
        `The payments provider answered ${res.status}.`,
        retryable,
        res.status,
      );
    }
    const json: unknown = await res.json().catch(() => null);
    if (!valid(json)) {
      throw new PaymentsProviderError('The payments provider answered malformed data.', true);
    }
    return json;
  }
}
