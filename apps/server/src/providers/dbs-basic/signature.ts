import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Signed provider callbacks: header `X-Kestrel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>" with the callback secret>` (the shape of Stripe's webhooks). A callback
 * older or newer than the tolerance is refused, so a captured one cannot be replayed later.
 */

export const SIGNATURE_HEADER = 'x-kestrel-signature';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

export type SignatureCheck = 'ok' | 'missing' | 'malformed' | 'expired' | 'mismatch';

/** Checks `header` against `body` at `nowSeconds`, in constant time. */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
): SignatureCheck {
  if (!header) return 'missing';
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return 'malformed';
  if (Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_SECONDS) return 'expired';
  const expected = Buffer.from(signatureOf(secret, t, body), 'hex');
  const sent = Buffer.from(v1, 'hex');
  return sent.length === expected.length && timingSafeEqual(sent, expected) ? 'ok' : 'mismatch';
}
