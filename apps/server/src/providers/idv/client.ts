import {
  type IdvProvider,
  IdvProviderError,
  type IdvResult,
  type IdvSession,
  type IdvSessionRequest,
} from './provider.js';
import { idvResultSchema } from './result-schema.js';

// The real client (IDV_API_URL and IDV_API_KEY set). PROVIDERS.md names no single provider's API: certified
// IDSPs work to the UK trust framework (levels medium and high) and share the session pattern
// below, but the paths and field names here are UNCONFIRMED, kept in this one file so that a
// chosen provider's shapes replace them without touching the module:
//   POST {IDV_API_URL}/v1/sessions      Bearer IDV_API_KEY; {reference, level, return_url,
//                                       callback_url, person: {given_names, middle_names,
//                                       family_name, date_of_birth}} -> 201 {id, url}
//   GET  {IDV_API_URL}/v1/sessions/{id} -> {id, status: pending|passed|failed, result?: IdvResult}
//   callbacks: POST with IDV-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>"> keyed with
//   IDV_CALLBACK_SECRET; body {id (event), result: IdvResult}.

const TIMEOUT_MS = 15_000;

export interface IdvClientOptions {
  apiUrl: string;
  apiKey: string;
  /** Injected in tests. */
  fetch?: typeof fetch;
}

function field(data: unknown, key: string): unknown {
  return typeof data === 'object' && data !== null ? Reflect.get(data, key) : undefined;
}

export class IdvApiClient implements IdvProvider {
  readonly name = 'api';
  private readonly doFetch: typeof fetch;
  private readonly base: string;

  constructor(private readonly opts: IdvClientOptions) {
    this.doFetch = opts.fetch ?? fetch;
    this.base = opts.apiUrl.replace(/\/$/, '');
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    let res: Response;
    try {
      res = await this.doFetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.opts.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ?? AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new IdvProviderError(`Identity provider request failed: ${String(err)}`);
    }
    if (!res.ok) {
      // a refusal (4xx but 429) is not retried; an outage is
      const retryable = res.status >= 500 || res.status === 429;
      throw new IdvProviderError(`Identity provider answered ${res.status}`, retryable, res.status);
    }
    return res.json().catch(() => {
      throw new IdvProviderError('Identity provider answered something that is not JSON');
    });
  }

  async createSession(request: IdvSessionRequest, signal?: AbortSignal): Promise<IdvSession> {
    const data = await this.call(
      'POST',
      '/v1/sessions',
      {
        reference: request.reference,
        level: request.level,
        return_url: request.returnUrl,
        callback_url: request.callbackUrl,
        person: {
          given_names: request.person.forename,
          middle_names: request.person.middlename,
          family_name: request.person.surname,
          date_of_birth: request.person.dob,
        },
      },
      signal,
    );
    const id = field(data, 'id');
    const url = field(data, 'url');
    if (
      typeof id !== 'string' ||
      id === '' ||
      typeof url !== 'string' ||
      !/^https:\/\//.test(url)
    ) {
      throw new IdvProviderError('Identity provider gave an unexpected session');
    }
    return { id, url };
  }

  async fetchResult(sessionId: string, signal?: AbortSignal): Promise<IdvResult | null> {
    const data = await this.call(
      'GET',
      `/v1/sessions/${encodeURIComponent(sessionId)}`,
      undefined,
      signal,
    );
    const status = field(data, 'status');
    if (status === 'pending') return null;
    const parsed = idvResultSchema.safeParse(field(data, 'result'));
    if (!parsed.success) throw new IdvProviderError('Identity provider gave an unexpected result');
    return parsed.data;
  }
}
