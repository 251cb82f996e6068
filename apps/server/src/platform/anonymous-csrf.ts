import { createHmac } from 'node:crypto';
import { ANONYMOUS_CSRF_SECRET, type SecretSource } from './server-secrets.js';
import { newToken } from './tokens.js';

/** An anonymous visitor's cookie: `anon.` and 256 random bits; never a session token's shape. */
const COOKIE_RE = /^anon\.[A-Za-z0-9_-]{43}$/;

/**
 * CSRF for anonymous visitors without a stored session: the session cookie holds a random
 * nonce (`anon.<nonce>`) and the CSRF token is HMAC-SHA256(server secret, nonce), a signed
 * double submit. Only this origin can read the token (check-session) and send the cookie, and
 * only the server can make a token for a nonce, so a token is good with its own cookie only.
 * The session row starts at login; until then a visitor costs no row. The key is made once and
 * shared by every server process through the database (`server_secrets`, ServerSecrets).
 */
export class AnonymousCsrf {
  private readonly key: Buffer;

  constructor(secrets: SecretSource) {
    this.key = Buffer.from(secrets.get(ANONYMOUS_CSRF_SECRET), 'hex');
  }

  /** A new anonymous visitor's cookie value. */
  newCookie(): string {
    return `anon.${newToken()}`;
  }

  /** The CSRF token of an anonymous cookie, or null when the cookie is not one. */
  tokenFor(cookie: string | undefined): string | null {
    if (typeof cookie !== 'string' || !COOKIE_RE.test(cookie)) return null;
    return createHmac('sha256', this.key).update(cookie).digest('base64url');
  }
}
