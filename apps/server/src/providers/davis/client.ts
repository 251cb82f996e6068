import {
  createRateLimiter,
  limited,
  RateLimited,
  type RateLimiter,
  retryAfterMs,
} from '../dvla/rate-limit.js';
import { ProviderError } from '../errors.js';
import type { DavisCheck, DavisDriverIn, DavisProvider } from './provider.js';

/*
 * The licence-checking service's REST client, `Authorization: Bearer {DAVIS_API_KEY}`:
 * - `POST {base}/v1/drivers` (the driver, `Idempotency-Key` header: the reference) → the check;
 * - `GET {base}/v1/drivers/{id}/check` → the latest check;
 * - `POST {base}/v1/drivers/{id}/checks` → a new check (re-check);
 * - `PUT {base}/v1/drivers/{id}/email` {email} → the check after the email's confirmation.
 * It asks the DVLA behind the scenes, so it keeps to the DVLA's 10 requests a second as the DVLA
 * client does (rate-limit.ts): a 429 is waited out, never an activity's error. 4xx: refused;
 * 5xx and no answer: retryable.
 */

export interface DavisClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  limiter?: RateLimiter;
}

export function createDavisClient(o: DavisClientOptions): DavisProvider {
  const doFetch = o.fetch ?? fetch;
  const limiter = o.limiter ?? createRateLimiter();
  const base = o.baseUrl.replace(/\/$/, '');

  const call = (method: string, path: string, signal: AbortSignal, body?: object, key?: string) =>
    limited(limiter, signal, async (): Promise<DavisCheck> => {
      let res: Response;
      try {
        res = await doFetch(`${base}${path}`, {
          method,
          signal,
          headers: {
            accept: 'application/json',
            authorization: `Bearer ${o.apiKey}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(key ? { 'idempotency-key': key } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      } catch {
        throw new ProviderError(
          signal.aborted ? 'The provider did not answer in time.' : 'The provider is unreachable.',
          true,
        );
      }
      if (res.status === 429) throw new RateLimited(retryAfterMs(res.headers.get('retry-after')));
      if (!res.ok) {
        throw new ProviderError(
          `The licence check service answered ${res.status}.`,
          res.status >= 500,
          res.status,
        );
      }
      return (await res.json()) as DavisCheck;
    });

  const driver = (id: string) => `/v1/drivers/${encodeURIComponent(id)}`;
  return {
    register: (d: DavisDriverIn, signal) => call('POST', '/v1/drivers', signal, d, d.reference),
    check: (id, signal) => call('GET', `${driver(id)}/check`, signal),
    recheck: (id, signal) => call('POST', `${driver(id)}/checks`, signal, {}),
    confirmEmail: (id, email, signal) => call('PUT', `${driver(id)}/email`, signal, { email }),
  };
}
