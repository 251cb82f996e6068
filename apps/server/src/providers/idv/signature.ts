import { createHmac } from 'node:crypto';
import { parseJsonText } from '../../platform/body-parsing.js';
import { safeEqual } from '../../platform/tokens.js';
import { IdvCallbackError, type IdvCallbackEvent } from './provider.js';
import { idvCallbackSchema } from './result-schema.js';

/** The header a callback's signature travels in. */
export const IDV_SIGNATURE_HEADER = 'idv-signature';
/** A callback older (or further in the future) than this is refused: a replay. */
export const IDV_CALLBACK_TOLERANCE_S = 5 * 60;

const hmac = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (the payments webhooks' scheme). */
export function signIdvCallback(secret: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${hmac(secret, t, body)}`;
}

/**
 * The event of a callback whose signature is right and recent; IdvCallbackError otherwise (no
 * secret configured refuses every callback).
 */
export function verifyIdvCallback(
  secret: string,
  rawBody: string,
  header: string | undefined,
  now: Date,
): IdvCallbackEvent {
  if (!secret) throw new IdvCallbackError('No callback secret is configured.');
  if (!header) throw new IdvCallbackError('The callback is not signed.');
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [k, v] = item.trim().split('=', 2);
    if (k && v) parts.set(k, [...(parts.get(k) ?? []), v]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t)) throw new IdvCallbackError('The signature has no timestamp.');
  if (Math.abs(now.getTime() / 1000 - t) > IDV_CALLBACK_TOLERANCE_S) {
    throw new IdvCallbackError('The callback is too old.');
  }
  const expected = hmac(secret, t, rawBody);
  if (!(parts.get('v1') ?? []).some((sig) => safeEqual(sig, expected))) {
    throw new IdvCallbackError('The signature does not match.');
  }
  // the one body parser (its limits, its 400s in the API's shape)
  const parsed = idvCallbackSchema.safeParse(parseJsonText(rawBody));
  if (!parsed.success) throw new IdvCallbackError('The callback has an unexpected shape.');
  return parsed.data;
}
