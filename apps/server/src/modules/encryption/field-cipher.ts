import type { EncryptionConfig } from '../../config.js';
import type { Database } from '../../db/connection.js';
import { ServerSecrets } from '../../platform/server-secrets.js';
import type { KeyRing } from '../../providers/storage/key-ring.js';
import {
  blindIndex,
  decryptField,
  encryptField,
  fieldKeyId,
  isEncryptedField,
  normaliseForIndex,
  reencryptField,
} from './fields.js';
import { loadKeyRing } from './key-ring.js';
import { maskOptional } from './mask.js';

/** The `server_secrets` row of the development index key (no ENCRYPTION_INDEX_KEY configured). */
export const DEVELOPMENT_INDEX_KEY_SECRET = 'encryption_index_development_key';

/**
 * An encrypted column: `table.column` holds the ciphertext (fields.ts), `hash` (when the
 * product finds rows by the exact value) its keyed hash. The purpose (`table.column`) is the
 * associated data of the ciphertext and part of the hash.
 */
export interface EncryptedColumn {
  table: string;
  column: string;
  hash: string | null;
}

/**
 * Every column encrypted at rest (docs/decisions/027-field-encryption.md); the identifiers have
 * a `_hash` beside them for the exact-match search (`caseIdentifierCondition`).
 */
export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  { table: 'case_basic_details', column: 'nin', hash: 'nin_hash' },
  { table: 'case_passports', column: 'number', hash: 'number_hash' },
  { table: 'case_driving_licences', column: 'number', hash: 'number_hash' },
  // a right-to-work share code: short-lived, never searched (no hash)
  { table: 'case_rtw_details', column: 'share_code', hash: null },
];

/** The encrypted columns of `table` (none for most tables). */
export function encryptedColumnsOf(table: string): readonly EncryptedColumn[] {
  return ENCRYPTED_COLUMNS.filter((c) => c.table === table);
}

const purposeOf = (c: EncryptedColumn) => `${c.table}.${c.column}`;

/**
 * The field encryption of this process: the master key ring (the document files' own, so one
 * ENCRYPTION_KEYS rotates both) and the index key of the keyed hashes. Loaded once by buildApp
 * (`installFieldCipher`) and read from the one home `fieldCipher()` by every read and write path,
 * including those that hold only a transaction (a provider's request, the subject archive).
 */
export class FieldCipher {
  constructor(
    readonly keys: KeyRing,
    private readonly indexKey: Buffer,
  ) {
    if (indexKey.length !== 32) throw new Error('The encryption index key is not 256 bits');
  }

  encrypt(c: EncryptedColumn, plain: string): string {
    return encryptField(this.keys, purposeOf(c), plain);
  }

  /** The plain value; a value stored before encryption as it is; a wrong key throws. */
  decrypt(c: EncryptedColumn, stored: string): string {
    return decryptField(this.keys, purposeOf(c), stored);
  }

  /** The stored value re-encrypted under the current key, or null when it is already. */
  reencrypt(c: EncryptedColumn, stored: string): string | null {
    return reencryptField(this.keys, purposeOf(c), stored);
  }

  /** The keyed hash of a plain value ('' for a blank one). */
  hash(c: EncryptedColumn, plain: string): string {
    return blindIndex(this.indexKey, purposeOf(c), plain);
  }
}

let installed: FieldCipher | null = null;

/** Makes `cipher` the process's field encryption (buildApp, the command line, tests). */
export function installFieldCipher(cipher: FieldCipher): void {
  installed = cipher;
}

/** The process's field encryption; a clear error when nothing loaded it. */
export function fieldCipher(): FieldCipher {
  if (!installed) {
    throw new Error('field encryption is not loaded (buildApp installs it: installFieldCipher)');
  }
  return installed;
}

/**
 * This installation's field encryption: the key ring of `loadKeyRing` (given, or loaded) and
 * ENCRYPTION_INDEX_KEY, else the development index key kept in `server_secrets` (as the
 * development master key is; production refuses to start without ENCRYPTION_INDEX_KEY).
 */
export async function loadFieldCipher(
  db: Database,
  config: EncryptionConfig,
  keys?: KeyRing,
): Promise<FieldCipher> {
  const ring = keys ?? (await loadKeyRing(db, config));
  const indexKey =
    config.indexKey ??
    Buffer.from(
      (await ServerSecrets.load(db, [DEVELOPMENT_INDEX_KEY_SECRET])).get(
        DEVELOPMENT_INDEX_KEY_SECRET,
      ),
      'hex',
    );
  return new FieldCipher(ring, indexKey);
}

/** The plain values of `record`'s encrypted columns of `table` (other fields untouched). */
export function decryptRecord<R extends Record<string, unknown>>(table: string, record: R): R {
  const columns = encryptedColumnsOf(table);
  if (columns.length === 0) return record;
  const out: Record<string, unknown> = { ...record };
  for (const c of columns) {
    const v = out[c.column];
    // values from before encryption are read as they are, without needing the keys
    if (typeof v === 'string' && isEncryptedField(v)) out[c.column] = fieldCipher().decrypt(c, v);
    if (c.hash) delete out[c.hash];
  }
  return out as R;
}

/** A plain value of one encrypted column (a value from before encryption as it is). */
export function decryptValue(table: string, column: string, stored: string): string {
  const c = ENCRYPTED_COLUMNS.find((e) => e.table === table && e.column === column);
  if (!c) throw new Error(`${table}.${column} is not an encrypted column`);
  return isEncryptedField(stored) ? fieldCipher().decrypt(c, stored) : stored;
}

/**
 * The columns to store for the plain values in `values` of `table`: each encrypted column's
 * ciphertext and its hash (other fields as they are).
 */
export function encryptValues(
  table: string,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const columns = encryptedColumnsOf(table);
  if (columns.length === 0) return values;
  const out: Record<string, unknown> = { ...values };
  for (const c of columns) {
    if (!(c.column in values)) continue;
    const plain = typeof values[c.column] === 'string' ? String(values[c.column]) : '';
    out[c.column] = fieldCipher().encrypt(c, plain);
    if (c.hash) out[c.hash] = fieldCipher().hash(c, plain);
  }
  return out;
}

/**
 * The audit's `{field: [old, new]}` of a write to `table` with its encrypted columns' values
 * masked (mask.ts): the audit log shows that the number changed and its last characters, and
 * keeps no plain copy of what the table stores encrypted.
 */
export function maskedChanges<C extends Record<string, [unknown, unknown]>>(
  table: string,
  changes: C,
): C {
  const columns = encryptedColumnsOf(table);
  if (columns.length === 0) return changes;
  const out: Record<string, [unknown, unknown]> = { ...changes };
  const mask = (v: unknown) => (typeof v === 'string' ? maskOptional(v) : v);
  for (const c of columns) {
    const pair = out[c.column];
    if (pair) out[c.column] = [mask(pair[0]), mask(pair[1])];
  }
  return out as C;
}

export { fieldKeyId, isEncryptedField, normaliseForIndex };
