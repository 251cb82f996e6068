import type { Readable } from 'node:stream';

/** What the store knows of a stored object's bytes. */
export interface ObjectInfo {
  /** MIME type decided by the server (never the uploader's). */
  contentType: string;
  /** Exact length in bytes (S3 needs it up front; the local disk checks it). */
  size: number;
}

/**
 * Where document files live: local disk under DATA_DIR by default, an S3-compatible bucket by
 * configuration (docs/decisions, README "Configuration"). Keys are made by the server
 * (`storageKey`), never from an uploader's file name.
 */
export interface DocumentStorage {
  readonly kind: 'local' | 's3';
  /** Writes `body` under `key` (replacing any object there); resolves once it is durable. */
  put(key: string, body: Readable, info: ObjectInfo): Promise<void>;
  /** The object's bytes as a stream, or null when there is no such object. */
  get(key: string): Promise<Readable | null>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
}

/** Server-made keys: lower-case letters, digits, `-`, `_`, `.` in `/`-separated segments. */
const KEY = /^[a-z0-9_-]+(\/[a-z0-9_.-]+)*$/;

/** Throws unless `key` is one the server makes (no `..`, no absolute path, no file name). */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..') || key.length > 200) {
    throw new Error(`Refusing storage key ${JSON.stringify(key)}`);
  }
}
