import { Readable } from 'node:stream';
import {
  decryptStream,
  encryptStream,
  HEADER_SIZE,
  isEncrypted,
  keyIdOf,
  OVERHEAD,
  rewrapHeader,
} from './envelope.js';
import type { KeyRing } from './key-ring.js';
import type { DocumentStorage, ObjectInfo } from './provider.js';

/** A store that can replace an object's first bytes in place (the local disk). */
export interface HeadWriter {
  /** Overwrites the first `head.length` bytes of the object; false when there is no object. */
  writeHead(key: string, head: Buffer): Promise<boolean>;
}

/** What a stored object is: absent, stored before encryption, or wrapped by a master key. */
export type ObjectState =
  | { state: 'missing' }
  | { state: 'plain' }
  | { state: 'encrypted'; keyId: string };

/** Largest object the backfill and an S3 re-wrap read into memory (uploads are far smaller). */
const MAX_IN_MEMORY = 256 * 1024 * 1024;

async function firstBytes(body: Readable, n: number): Promise<Buffer> {
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of body) {
      head = Buffer.concat([head, Buffer.from(chunk)]);
      if (head.length >= n) break;
    }
  } finally {
    body.destroy();
  }
  return head.subarray(0, n);
}

async function readAll(body: Readable, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = Buffer.from(chunk);
    size += b.length;
    if (size > MAX_IN_MEMORY) {
      body.destroy();
      throw new Error(`the object ${key} is too large to re-write in memory`);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/**
 * Document files encrypted at rest over any store (local disk, an S3 bucket): each put is
 * encrypted under a data key of its own, wrapped by the key ring's current master key, the
 * wrapped key and its key id in the object's header (envelope.ts); each get decrypts. Objects
 * stored before encryption are read as they are until `encryptExisting` encrypts them, and
 * `rewrap` moves an object to the current master key without re-encrypting its content.
 */
export class EncryptingStorage implements DocumentStorage {
  readonly kind: DocumentStorage['kind'];

  constructor(
    readonly inner: DocumentStorage & Partial<HeadWriter>,
    readonly keys: KeyRing,
  ) {
    this.kind = inner.kind;
  }

  async put(key: string, body: Readable, info: ObjectInfo): Promise<void> {
    await this.inner.put(key, Readable.from(encryptStream(this.keys, key, body)), {
      // the bytes stored are not the file's type any more
      contentType: 'application/octet-stream',
      size: info.size + OVERHEAD,
    });
  }

  async get(key: string): Promise<Readable | null> {
    const body = await this.inner.get(key);
    if (!body) return null;
    // the header is read and the data key unwrapped before the stream is handed over: a file
    // under a key this installation lacks fails here (before a response has begun), not midway
    const chunks = decryptStream(this.keys, key, body);
    let first: IteratorResult<Buffer>;
    try {
      first = await chunks.next();
    } catch (err) {
      body.destroy();
      throw err;
    }
    async function* rest(): AsyncGenerator<Buffer> {
      if (first.done) return;
      yield first.value;
      yield* chunks;
    }
    const plain = Readable.from(rest());
    // a reader that stops early lets go of the stored object too
    plain.once('close', () => body.destroy());
    return plain;
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }

  /** Whether `key` is stored, encrypted and under which master key (its header only is read). */
  async inspect(key: string): Promise<ObjectState> {
    const body = await this.inner.get(key);
    if (!body) return { state: 'missing' };
    const head = await firstBytes(body, HEADER_SIZE);
    const keyId = keyIdOf(head);
    return keyId === null ? { state: 'plain' } : { state: 'encrypted', keyId };
  }

  /**
   * Re-wraps `key`'s data key under the current master key when another one wraps it: the header
   * is rewritten (in place on local disk; the object rewritten with the same ciphertext in a
   * bucket). Returns whether it changed anything.
   */
  async rewrap(key: string): Promise<boolean> {
    const body = await this.inner.get(key);
    if (!body) return false;
    if (this.inner.writeHead) {
      const head = await firstBytes(body, HEADER_SIZE);
      if (keyIdOf(head) === null || keyIdOf(head) === this.keys.current.id) return false;
      return this.inner.writeHead(key, rewrapHeader(this.keys, key, head));
    }
    const stored = await readAll(body, key);
    const keyId = keyIdOf(stored);
    if (keyId === null || keyId === this.keys.current.id) return false;
    const head = rewrapHeader(this.keys, key, stored.subarray(0, HEADER_SIZE));
    const next = Buffer.concat([head, stored.subarray(HEADER_SIZE)]);
    await this.inner.put(key, Readable.from([next]), {
      contentType: 'application/octet-stream',
      size: next.length,
    });
    return true;
  }

  /** Encrypts `key` when it was stored before encryption. Returns whether it did. */
  async encryptExisting(key: string): Promise<boolean> {
    const body = await this.inner.get(key);
    if (!body) return false;
    const stored = await readAll(body, key);
    if (isEncrypted(stored)) return false;
    await this.put(key, Readable.from([stored]), {
      contentType: 'application/octet-stream',
      size: stored.length,
    });
    return true;
  }
}
