import { ProviderError } from '../errors.js';
import type {
  DriverEnquiry,
  DriverEnquiryAnswer,
  DvlaDriverRecord,
  DvlaProvider,
} from './provider.js';
import {
  createRateLimiter,
  limited,
  RateLimited,
  type RateLimiter,
  retryAfterMs,
} from './rate-limit.js';

/*
 * The real Access to Driver Data client: `POST {base}/full-driver-enquiry/v1/driving-licences/retrieve`
 * with the JWT of the DVLA authentication API (`POST {auth}/thirdparty-access/v1/authenticate`
 * {userName, password} → {"id-token"}, kept until a 401 asks for a new one) in `Authorization`
 * and the `X-API-Key`; the licence number travels in the body (it is sensitive, never in a URL).
 * 200: the record; 404: its enquiry code (ENQ018 no record, ENQ037 suppressed); 429: waited out
 * (rate-limit.ts); 400/403: refused (not retryable); 5xx and no answer: retryable.
 */

export interface DvlaClientOptions {
  baseUrl: string;
  apiKey: string;
  /** The authentication API's base (DVLA_AUTH_URL), else the enquiry API's. */
  authUrl?: string;
  username: string;
  password: string;
  fetch?: typeof fetch;
  limiter?: RateLimiter;
}

interface DvlaErrorBody {
  errors?: { status?: string; code?: string; title?: string; detail?: string }[];
}

const trim = (url: string) => url.replace(/\/$/, '');

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

function firstError(body: unknown): { code: string; detail: string } {
  const e = (body as DvlaErrorBody | null)?.errors?.[0];
  return { code: e?.code ?? '', detail: e?.detail ?? e?.title ?? '' };
}

export function createDvlaClient(o: DvlaClientOptions): DvlaProvider {
  const doFetch = o.fetch ?? fetch;
  const limiter = o.limiter ?? createRateLimiter();
  let token: string | null = null;

  const send = async (url: string, init: RequestInit, signal: AbortSignal) => {
    try {
      return await doFetch(url, { ...init, signal });
    } catch {
      throw new ProviderError(
        signal.aborted ? 'The provider did not answer in time.' : 'The provider is unreachable.',
        true,
      );
    }
  };

  const authenticate = async (signal: AbortSignal): Promise<string> => {
    const res = await send(
      `${trim(o.authUrl ?? o.baseUrl)}/thirdparty-access/v1/authenticate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ userName: o.username, password: o.password }),
      },
      signal,
    );
    if (res.status === 429) throw new RateLimited(retryAfterMs(res.headers.get('retry-after')));
    const body = (await readJson(res)) as { 'id-token'?: string } | null;
    if (!res.ok || !body?.['id-token']) {
      throw new ProviderError(
        `The DVLA authentication answered ${res.status}.`,
        res.status >= 500,
        res.status,
      );
    }
    return body['id-token'];
  };

  const enquire = async (enquiry: DriverEnquiry, signal: AbortSignal, fresh: boolean) => {
    if (!token || fresh) token = await authenticate(signal);
    return send(
      `${trim(o.baseUrl)}/full-driver-enquiry/v1/driving-licences/retrieve`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: token,
          'x-api-key': o.apiKey,
        },
        body: JSON.stringify(enquiry),
      },
      signal,
    );
  };

  return {
    retrieve: (enquiry, signal) =>
      limited(limiter, signal, async (): Promise<DriverEnquiryAnswer> => {
        let res = await enquire(enquiry, signal, false);
        // an expired token: one new one, then the answer stands
        if (res.status === 401) res = await enquire(enquiry, signal, true);
        if (res.status === 429) throw new RateLimited(retryAfterMs(res.headers.get('retry-after')));
        if (res.ok) return { found: true, record: (await readJson(res)) as DvlaDriverRecord };
        const error = firstError(await readJson(res));
        // no record (404 ENQ018), or a suppressed one (ENQ037, whatever its status)
        if (res.status === 404 || /^ENQ0(18|37)$/.test(error.code)) {
          return { found: false, code: error.code || 'ENQ018', detail: error.detail };
        }
        throw new ProviderError(
          `The DVLA answered ${res.status}${error.code ? ` (${error.code})` : ''}.`,
          res.status >= 500,
          res.status,
        );
      }),
  };
}
