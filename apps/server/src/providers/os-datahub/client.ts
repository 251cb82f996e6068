import type { Clock } from '../../platform/clock.js';
import { OsDatahubError, type OsDatahubToken, type OsDatahubTokenProvider } from './provider.js';

/** The OS Data Hub's token endpoint (client credentials, HTTP Basic with the key and secret). */
export const OS_DATAHUB_TOKEN_URL = 'https://api.os.uk/oauth2/token/v1';
/** A cached token is renewed this long before it expires, so a browser never gets a dying one. */
export const OS_TOKEN_MARGIN_MS = 60_000;
const TIMEOUT_MS = 10_000;

export interface OsDatahubClientOptions {
  key: string;
  secret: string;
  clock: Clock;
  /** Injected in tests (outbound HTTP in tests is an error unless a test provides it). */
  fetch?: typeof fetch;
  tokenUrl?: string;
}

/**
 * The real client: asks for a token when there is none or it is about to expire, and shares one
 * request between callers that arrive meanwhile. `expires_in` answers the seconds left.
 */
export function createOsDatahubClient(opts: OsDatahubClientOptions): OsDatahubTokenProvider {
  const doFetch = opts.fetch ?? fetch;
  const url = opts.tokenUrl ?? OS_DATAHUB_TOKEN_URL;
  let cached: { token: string; expiresAt: number } | null = null;
  let pending: Promise<{ token: string; expiresAt: number }> | null = null;

  async function request(): Promise<{ token: string; expiresAt: number }> {
    const basic = Buffer.from(`${opts.key}:${opts.secret}`).toString('base64');
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new OsDatahubError(`OS Data Hub token request failed: ${String(err)}`);
    }
    if (!res.ok) throw new OsDatahubError(`OS Data Hub token endpoint answered ${res.status}`);
    const data: unknown = await res.json().catch(() => null);
    const token =
      typeof data === 'object' && data !== null && 'access_token' in data
        ? data.access_token
        : null;
    const seconds =
      typeof data === 'object' && data !== null && 'expires_in' in data
        ? Number(data.expires_in)
        : NaN;
    if (typeof token !== 'string' || token === '' || !Number.isFinite(seconds) || seconds <= 0) {
      throw new OsDatahubError('OS Data Hub token endpoint gave an unexpected answer');
    }
    return { token, expiresAt: opts.clock.now().getTime() + seconds * 1000 };
  }

  return {
    async token(): Promise<OsDatahubToken> {
      const now = opts.clock.now().getTime();
      if (!cached || cached.expiresAt - OS_TOKEN_MARGIN_MS <= now) {
        pending ??= request().finally(() => {
          pending = null;
        });
        cached = await pending;
      }
      const left = Math.floor((cached.expiresAt - opts.clock.now().getTime()) / 1000);
      return { access_token: cached.token, expires_in: left };
    },
  };
}
