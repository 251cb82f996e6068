import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { KeyRing, MasterKey } from '../../providers/storage/key-ring.js';

/**
 * Field encryption for the most sensitive values in the database (national insurance, passport
 * and driving licence numbers, right-to-work share codes): AES-256-GCM under a field key derived
 * (HKDF-SHA256) from a master key of the key ring, the column (`table.column`) as associated data
 * so a value copied into another column does not open. Stored form:
 *
 *   `f1:` + key id + `:` + base64url(12-byte nonce | 16-byte tag | ciphertext)
 *
 * A value without the prefix is one stored before encryption: read as it is until the backfill
 * encrypts it. Exact-match search uses a keyed hash beside the value (`blindIndex`): HMAC-SHA256
 * under an index key that does not rotate with the master keys (a rotation would otherwise have
 * to re-hash every row before a search could find it), over the normalised value (upper case,
 * no spaces), so `ab 12 34 56 c` finds `AB123456C`.
 *
 * Wired into the columns' read and write paths by field-cipher.ts (decision 027).
 */
export const FIELD_PREFIX = 'f1:';

const fieldKeys = new WeakMap<MasterKey, Buffer>();

function fieldKeyOf(master: MasterKey): Buffer {
  let key = fieldKeys.get(master);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', master.key, Buffer.alloc(0), 'kestrel-field-v1', 32));
    fieldKeys.set(master, key);
  }
  return key;
}

export function isEncryptedField(stored: string): boolean {
  return stored.startsWith(FIELD_PREFIX);
}

/** `plain` encrypted for the column `purpose` (e.g. `case_basic_details.nin`); '' stays ''. */
export function encryptField(keys: KeyRing, purpose: string, plain: string): string {
  if (plain === '') return '';
  const master = keys.current;
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', fieldKeyOf(master), nonce);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${FIELD_PREFIX}${master.id}:${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The key id a stored value is encrypted under, or null for a plain (older) value. */
export function fieldKeyId(stored: string): string | null {
  if (!isEncryptedField(stored)) return null;
  const at = stored.indexOf(':', FIELD_PREFIX.length);
  return at > FIELD_PREFIX.length ? stored.slice(FIELD_PREFIX.length, at) : null;
}

/**
 * The plain value of a stored one: encrypted values are opened (a tampered value, another
 * column's, or a key this installation lacks throws), older plain ones returned as they are.
 */
export function decryptField(keys: KeyRing, purpose: string, stored: string): string {
  if (!isEncryptedField(stored)) return stored;
  const id = fieldKeyId(stored);
  const master = id === null ? null : keys.get(id);
  if (id === null || !master) throw new Error(`a field encrypted under key ${id}, not configured`);
  const raw = Buffer.from(stored.slice(FIELD_PREFIX.length + id.length + 1), 'base64url');
  if (raw.length < 28) throw new Error('an encrypted field is too short');
  const decipher = createDecipheriv('aes-256-gcm', fieldKeyOf(master), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** A stored value re-encrypted under the current master key (a rotation), or null if it is. */
export function reencryptField(keys: KeyRing, purpose: string, stored: string): string | null {
  if (stored === '' || fieldKeyId(stored) === keys.current.id) return null;
  return encryptField(keys, purpose, decryptField(keys, purpose, stored));
}

/** How a value is compared for an exact-match search: upper case, without white space. */
export function normaliseForIndex(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/**
 * The keyed hash stored beside an encrypted value for exact-match search (hex, 64 characters;
 * '' for a blank value). The column is part of the hash: equal values in two columns differ.
 */
export function blindIndex(indexKey: Buffer, purpose: string, value: string): string {
  const v = normaliseForIndex(value);
  if (v === '') return '';
  return createHmac('sha256', indexKey).update(`${purpose}\u0000${v}`).digest('hex');
}
