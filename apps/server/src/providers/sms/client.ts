import { createHmac } from 'node:crypto';
import { SmsError, type SmsProvider } from './provider.js';

/** GOV.UK Notify's API (PROVIDERS.md shape): POST /v2/notifications/sms, a JWT per request. */
export const NOTIFY_BASE_URL = 'https://api.notifications.service.gov.uk';

export interface NotifyOptions {
  /** `{key_name}-{service_id}-{secret}`: the last two are UUIDs (36 characters each). */
  apiKey: string;
  baseUrl?: string;
  /** Seconds since the epoch (the JWT's iat; Notify allows 30 s of drift). */
  now?: () => number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The service's template ids. */
  templates: { reminder: string };
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** The service id and secret of a Notify API key. */
export function notifyKeyParts(apiKey: string): { serviceId: string; secret: string } {
  if (apiKey.length < 74) throw new Error('NOTIFY_API_KEY is not a Notify API key');
  return { serviceId: apiKey.slice(-73, -37), secret: apiKey.slice(-36) };
}

/** Notify's bearer token: HS256 over `{iss: service id, iat}` with the key's secret. */
export function notifyToken(apiKey: string, iat: number): string {
  const { serviceId, secret } = notifyKeyParts(apiKey);
  const head = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
  const body = b64url(JSON.stringify({ iss: serviceId, iat }));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** Sends through GOV.UK Notify; a 4xx (but 429) is a lasting refusal, the rest temporary. */
export function createNotifyClient(opts: NotifyOptions): SmsProvider {
  const base = (opts.baseUrl ?? NOTIFY_BASE_URL).replace(/\/$/, '');
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  const doFetch = opts.fetch ?? fetch;
  return {
    templates: opts.templates,
    async send(m) {
      let res: Response;
      try {
        res = await doFetch(`${base}/v2/notifications/sms`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${notifyToken(opts.apiKey, now())}`,
          },
          body: JSON.stringify({
            phone_number: m.to,
            template_id: m.templateId,
            personalisation: m.personalisation,
            reference: m.reference,
          }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
      } catch (err) {
        throw new SmsError(`Notify unreachable: ${String(err)}`, true);
      }
      if (res.status === 201) return;
      const text = (await res.text()).slice(0, 300);
      throw new SmsError(
        `Notify answered ${res.status}: ${text}`,
        res.status === 429 || res.status >= 500,
      );
    },
  };
}
