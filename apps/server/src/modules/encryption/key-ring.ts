import type { EncryptionConfig } from '../../config.js';
import type { Database } from '../../db/connection.js';
import { ServerSecrets } from '../../platform/server-secrets.js';
import { KeyRing, type MasterKey } from '../../providers/storage/key-ring.js';

/** The `server_secrets` row of the development master key (no ENCRYPTION_KEYS configured). */
export const DEVELOPMENT_KEY_SECRET = 'encryption_development_key';
/** The id the development master key has in files' headers. */
export const DEVELOPMENT_KEY_ID = 'development';

function developmentKey(hex: string): MasterKey {
  return { id: DEVELOPMENT_KEY_ID, key: Buffer.from(hex, 'hex') };
}

/**
 * This installation's master keys. Without ENCRYPTION_KEYS: the development key, made at random
 * by the first start and kept in `server_secrets` as the other installation secrets are (read as
 * the tables' owner), so every process and restart agrees. With ENCRYPTION_KEYS: those keys, and
 * the development key too when this installation made one earlier (read-only: not current), so
 * files it wrapped stay readable until the document-keys job has re-wrapped them.
 */
export async function loadKeyRing(db: Database, config: EncryptionConfig): Promise<KeyRing> {
  if (config.keys.length === 0) {
    const secrets = await ServerSecrets.load(db, [DEVELOPMENT_KEY_SECRET]);
    return new KeyRing(
      [developmentKey(secrets.get(DEVELOPMENT_KEY_SECRET))],
      DEVELOPMENT_KEY_ID,
      true,
    );
  }
  const { rows } = await db.ownerQuery('select value from server_secrets where name = $1', [
    DEVELOPMENT_KEY_SECRET,
  ]);
  const earlier = rows[0] ? [developmentKey(String(rows[0].value))] : [];
  const keys = [...config.keys, ...earlier.filter((d) => !config.keys.some((k) => k.id === d.id))];
  const current = config.currentKeyId ?? config.keys[0]?.id ?? '';
  return new KeyRing(keys, current);
}

/** The start's log line on encryption at rest (a warning with the development key). */
export function describeKeyRing(keys: KeyRing): { level: 'warn' | 'info'; message: string } {
  if (keys.development) {
    return {
      level: 'warn',
      message:
        "Encryption at rest: documents are encrypted with the DEVELOPMENT key (made at random and kept in this installation's database, server_secrets 'encryption_development_key'): set ENCRYPTION_KEYS for production",
    };
  }
  const others = keys.ids().slice(1);
  return {
    level: 'info',
    message: `Encryption at rest: master key ${keys.current.id} is current${others.length > 0 ? `; ${others.join(', ')} kept to read older files until the document-keys job re-wraps them` : ''}`,
  };
}
