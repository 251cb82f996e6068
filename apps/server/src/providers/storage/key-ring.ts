/**
 * The master keys that wrap document files' data keys (envelope encryption, encrypted.ts): each
 * has an id (kept with every file it wraps) and 256 bits of key. One is current (new files and
 * re-wrapped ones); the others stay to read what they wrapped until the document-keys job has
 * re-wrapped it under the current one.
 */
export interface MasterKey {
  /** Letters, digits, `.`, `_`, `-`; at most 32 characters (stored in each file's header). */
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

/** A key id as the header stores it. */
export const KEY_ID = /^[A-Za-z0-9._-]{1,32}$/;

export class KeyRing {
  private readonly byId: ReadonlyMap<string, MasterKey>;
  readonly current: MasterKey;

  /**
   * `keys` with `currentId` the one new files are wrapped with. `development`: the key is the
   * installation's development key (kept in the database beside the data it protects: fine for a
   * demo, not for production).
   */
  constructor(
    keys: readonly MasterKey[],
    currentId: string,
    readonly development = false,
  ) {
    const map = new Map<string, MasterKey>();
    for (const k of keys) {
      if (!KEY_ID.test(k.id)) throw new Error(`Invalid encryption key id ${JSON.stringify(k.id)}`);
      if (k.key.length !== 32) throw new Error(`Encryption key ${k.id} is not 256 bits`);
      if (map.has(k.id)) throw new Error(`Encryption key id ${k.id} is given twice`);
      map.set(k.id, k);
    }
    const current = map.get(currentId);
    if (!current) throw new Error(`The current encryption key ${currentId} is not configured`);
    this.byId = map;
    this.current = current;
  }

  /** The key of `id`, or null when this installation does not have it (any more). */
  get(id: string): MasterKey | null {
    return this.byId.get(id) ?? null;
  }

  /** Every key id, the current one first. */
  ids(): string[] {
    return [this.current.id, ...[...this.byId.keys()].filter((id) => id !== this.current.id)];
  }
}

/** A key given as 64 hex digits or base64 (with or without padding) of exactly 32 bytes. */
export function parseKeyMaterial(id: string, text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) {
    throw new Error(`Encryption key ${id} must be 32 bytes (64 hex digits or base64)`);
  }
  return key;
}

/**
 * ENCRYPTION_KEYS: `id:key` pairs separated by commas or white space, e.g.
 * `2026-11:3q2+7w...=,2025-01:...` (keys as 64 hex digits or base64 of 32 bytes).
 */
export function parseMasterKeys(text: string): MasterKey[] {
  return text
    .split(/[\s,]+/)
    .filter((p) => p !== '')
    .map((pair) => {
      const at = pair.indexOf(':');
      if (at <= 0) throw new Error('ENCRYPTION_KEYS entries are id:key');
      const id = pair.slice(0, at);
      if (!KEY_ID.test(id)) {
        throw new Error(`ENCRYPTION_KEYS: invalid key id ${JSON.stringify(id)}`);
      }
      return { id, key: parseKeyMaterial(id, pair.slice(at + 1)) };
    });
}
