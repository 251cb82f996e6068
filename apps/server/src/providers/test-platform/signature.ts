import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The test platform's signed callbacks: header `X-Test-Platform-Signature: t=<unix seconds>,
 * sha256=<hex HMAC-SHA256 of "<t>.<raw body>" with the webhook secret>`. A callback signed more
 * than five minutes from now is refused (a captured one cannot be replayed later; within the
 * window the inbox refuses a repeated event id).
 */

export const TEST_SIGNATURE_HEADER = 'x-test-platform-signature';
export const TEST_SIGNATURE_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

/** The header value for `body` signed at `timestamp` (unix seconds). */
export function testSignatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},sha256=${hmac(secret, timestamp, body)}`;
}

/** True when `header` signs `body` with `secret` within the tolerance of `nowSeconds`. */
export function verifyTestSignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
): boolean {
  if (!header || !secret) return false;
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const sent = parts.get('sha256') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(sent)) return false;
  if (Math.abs(nowSeconds - t) > TEST_SIGNATURE_TOLERANCE_SECONDS) return false;
  const a = Buffer.from(hmac(secret, t, body), 'hex');
  const b = Buffer.from(sent, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
