import {
  type CreateIntentInput,
  type CreateRefundInput,
  type PaymentsProvider,
  PaymentsProviderError,
  type ProviderPaymentIntent,
  type ProviderRefund,
} from './provider.js';

/*
 * Stripe's PaymentIntents API over fetch: form-encoded bodies, `Authorization: Bearer <secret
 * key>`, an `Idempotency-Key` header on creation (a retried create makes no second intent).
 * `POST /v1/payment_intents`, `GET /v1/payment_intents/{id}`.
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
