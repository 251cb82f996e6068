import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new opaque token: 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a token: what the database stores. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const TOKEN_RE = /^[A-Za-z0-9_-]{20,100}$/;
/** True when a client-supplied string has the shape of one of our tokens. */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_RE.test(value);
}
