import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import type { SecretSource } from './server-secrets.js';

/**
 * Secrets the product must read back (a user's TOTP secret, an organisation's OpenID Connect
 * client secret) are stored sealed: AES-256-GCM under this installation's sealing key (a
 * `server_secrets` row, made at random by the first start and never in the source), with the
 * column's purpose as associated data, so a value copied into another column does not open.
 * A database dump or a read of the table alone no longer gives them away.
 *
 * Stored form: `v1:` + base64url(12-byte nonce | 16-byte tag | ciphertext). A value without the
 * prefix is one written before sealing (or by a test's factory): it is read as it is, and every
 * start seals what is left of them (`sealStoredSecrets`).
 */
export const SEALING_KEY_SECRET = 'sealing_key';

export type SealPurpose = 'totp' | 'sso_client_secret' | 'webhook_secret';

const PREFIX = 'v1:';

function keyOf(secrets: SecretSource): Buffer {
  const key = Buffer.from(secrets.get(SEALING_KEY_SECRET), 'hex');
  if (key.length !== 32) throw new Error('the sealing key is not 256 bits');
  return key;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Seals `plain` for storage in a column of `purpose`. */
export function seal(secrets: SecretSource, purpose: SealPurpose, plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secrets), nonce);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * The plain value of a stored one: sealed values are opened (a tampered value, another
 * installation's or another purpose's throws), unsealed ones are returned as they are.
 */
export function unseal(secrets: SecretSource, purpose: SealPurpose, stored: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  if (raw.length < 28) throw new Error('a sealed secret is too short');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secrets), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** `unseal` for a nullable column. */
export function unsealOrNull(
  secrets: SecretSource,
  purpose: SealPurpose,
  stored: string | null | undefined,
): string | null {
  return stored ? unseal(secrets, purpose, stored) : null;
}

/** The columns that hold sealed secrets: table, secret column, purpose. */
const SEALED_COLUMNS: readonly [string, string, SealPurpose][] = [
  ['product_users', 'totp_secret', 'totp'],
  ['product_users', 'totp_pending_secret', 'totp'],
  ['customer_sso_configs', 'client_secret', 'sso_client_secret'],
  ['webhook_endpoints', 'secret', 'webhook_secret'],
];

/**
 * Seals every stored secret not yet sealed (rows from before sealing, the demo seed's, a test
 * factory's), in one owner transaction per column. A row is replaced only if it still holds the
 * value read, so two starts at once seal it once. Runs at start; returns how many it sealed.
 */
export async function sealStoredSecrets(db: Database, secrets: SecretSource): Promise<number> {
  let sealed = 0;
  for (const [table, column, purpose] of SEALED_COLUMNS) {
    const t = sql.identifier(table);
    const c = sql.identifier(column);
    sealed += await db.ownerTransaction(async (tx) => {
      const rows = await tx.execute<{ id: number; value: string }>(
        sql`select id, ${c} as value from ${t} where ${c} <> '' and ${c} not like 'v1:%'`,
      );
      let n = 0;
      for (const { id, value } of rows) {
        const done = await tx.execute(
          sql`update ${t} set ${c} = ${seal(secrets, purpose, value)}
               where id = ${id} and ${c} = ${value} returning id`,
        );
        n += done.length;
      }
      return n;
    });
  }
  return sealed;
}
