import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import { SYSTEM_TX } from './service-context.js';
import { newToken } from './tokens.js';

const SECRET_NAME = 'anonymous_csrf';
/** An anonymous visitor's cookie: `anon.` and 256 random bits; never a session token's shape. */
const COOKIE_RE = /^anon\.[A-Za-z0-9_-]{43}$/;

/**
 * CSRF for anonymous visitors without a stored session: the session cookie holds a random
 * nonce (`anon.<nonce>`) and the CSRF token is HMAC-SHA256(server secret, nonce), a signed
 * double submit. Only this origin can read the token (check-session) and send the cookie, and
 * only the server can make a token for a nonce, so a token is good with its own cookie only.
 * The session row starts at login; until then a visitor costs no row. The key is made once and
 * shared by every server process through the database (`server_secrets`).
 */
export class AnonymousCsrf {
  private constructor(private readonly key: Buffer) {}

  /** Reads the shared key, making it first if no process has. */
  static async load(db: Database): Promise<AnonymousCsrf> {
    const made = randomBytes(32).toString('hex');
    const rows = await db.transaction(SYSTEM_TX, async (tx) => {
      await tx.execute(sql`insert into server_secrets (name, value)
        values (${SECRET_NAME}, ${made}) on conflict (name) do nothing`);
      return tx.execute<{ value: string }>(
        sql`select value from server_secrets where name = ${SECRET_NAME}`,
      );
    });
    const value = rows[0]?.value;
    if (!value) throw new Error('no anonymous CSRF key');
    return new AnonymousCsrf(Buffer.from(value, 'hex'));
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
