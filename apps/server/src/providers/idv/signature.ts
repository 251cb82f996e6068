import { createHmac } from 'node:crypto';
import { safeEqual } from '../../platform/tokens.js';

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
 * True when `header` signs `raw` with `secret` at a time within IDV_CALLBACK_TOLERANCE_S of
 * `nowSeconds` (the check engine's provider entry verifies callbacks with it). No secret, no
 * header, no timestamp, a stale one or a wrong signature: false.
 */
export function verifyIdvSignature(
  secret: string,
  header: string | undefined,
  raw: string,
  nowSeconds: number,
): boolean {
  if (!secret || !header) return false;
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [k, v] = item.trim().split('=', 2);
    if (k && v) parts.set(k, [...(parts.get(k) ?? []), v]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > IDV_CALLBACK_TOLERANCE_S) return false;
  const expected = hmac(secret, t, raw);
  return (parts.get('v1') ?? []).some((sig) => safeEqual(sig, expected));
}
