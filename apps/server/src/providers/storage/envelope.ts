import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyRing, MasterKey } from './key-ring.js';

/**
 * The stored form of an encrypted document file (envelope encryption):
 *
 *   header (110 bytes) | AES-256-GCM ciphertext of the file | its 16-byte tag
 *
 * header = "KENC" | version 1 (1 byte) | key id length (1 byte) | key id (32 bytes, zero-padded)
 *        | wrap nonce (12) | data key wrapped by the master key (32) | wrap tag (16)
 *        | data nonce (12)
 *
 * Each file has its own random 256-bit data key, wrapped (AES-256-GCM) by the master key the
 * header names; the associated data binds the wrapped key to its master key id and the object's
 * storage key, and the content to the object's storage key (a file copied under another key does
 * not open). Re-wrapping under another master key rewrites the header only: the content and its
 * data key stay as they are. Bytes without the "KENC" magic are a file stored before encryption
 * (read as they are until the backfill encrypts them).
 */
export const MAGIC = Buffer.from('KENC', 'latin1');
export const VERSION = 1;
export const HEADER_SIZE = 110;
export const TAG_SIZE = 16;
/** What encryption adds to a file's length. */
export const OVERHEAD = HEADER_SIZE + TAG_SIZE;

const ID_AT = 6;
const ID_SIZE = 32;
const WRAP_NONCE_AT = ID_AT + ID_SIZE;
const WRAPPED_AT = WRAP_NONCE_AT + 12;
const WRAP_TAG_AT = WRAPPED_AT + 32;
const DATA_NONCE_AT = WRAP_TAG_AT + 16;

interface Header {
  keyId: string;
  wrapNonce: Buffer;
  wrapped: Buffer;
  wrapTag: Buffer;
  dataNonce: Buffer;
}

const wrapAad = (keyId: string, objectKey: string) =>
  Buffer.from(`kestrel-document-key:v1:${keyId}:${objectKey}`);
const dataAad = (objectKey: string) => Buffer.from(`kestrel-document:v1:${objectKey}`);

/** Whether `head` (a file's first bytes, at least 5 of them when it has so many) is encrypted. */
export function isEncrypted(head: Buffer): boolean {
  return head.length >= 5 && head.subarray(0, 4).equals(MAGIC) && head[4] === VERSION;
}

function buildHeader(master: MasterKey, objectKey: string, dataKey: Buffer, dataNonce: Buffer) {
  const wrapNonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master.key, wrapNonce);
  cipher.setAAD(wrapAad(master.id, objectKey));
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  const header = Buffer.alloc(HEADER_SIZE);
  MAGIC.copy(header, 0);
  header[4] = VERSION;
  const id = Buffer.from(master.id, 'latin1');
  header[5] = id.length;
  id.copy(header, ID_AT);
  wrapNonce.copy(header, WRAP_NONCE_AT);
  wrapped.copy(header, WRAPPED_AT);
  cipher.getAuthTag().copy(header, WRAP_TAG_AT);
  dataNonce.copy(header, DATA_NONCE_AT);
  return header;
}

/** The parts of an encrypted file's header (throws on a header this version cannot read). */
export function parseHeader(header: Buffer): Header {
  if (header.length < HEADER_SIZE || !isEncrypted(header)) {
    throw new Error('not an encrypted document header');
  }
  const idLength = header[5] ?? 0;
  if (idLength < 1 || idLength > ID_SIZE) throw new Error('a damaged document header');
  return {
    keyId: header.subarray(ID_AT, ID_AT + idLength).toString('latin1'),
    wrapNonce: header.subarray(WRAP_NONCE_AT, WRAPPED_AT),
    wrapped: header.subarray(WRAPPED_AT, WRAP_TAG_AT),
    wrapTag: header.subarray(WRAP_TAG_AT, DATA_NONCE_AT),
    dataNonce: header.subarray(DATA_NONCE_AT, HEADER_SIZE),
  };
}

function unwrap(keys: KeyRing, objectKey: string, h: Header): Buffer {
  const master = keys.get(h.keyId);
  if (!master) {
    throw new Error(
      `the document ${objectKey} is wrapped by encryption key ${h.keyId}, which is not configured`,
    );
  }
  const decipher = createDecipheriv('aes-256-gcm', master.key, h.wrapNonce);
  decipher.setAAD(wrapAad(h.keyId, objectKey));
  decipher.setAuthTag(h.wrapTag);
  return Buffer.concat([decipher.update(h.wrapped), decipher.final()]);
}

/**
 * The header of the same file wrapped by the current master key (the data key and nonce, hence
 * the content, unchanged). Throws when the file's key is not in the ring or the header was
 * tampered with.
 */
export function rewrapHeader(keys: KeyRing, objectKey: string, header: Buffer): Buffer {
  const h = parseHeader(header);
  return buildHeader(keys.current, objectKey, unwrap(keys, objectKey, h), h.dataNonce);
}

/** The stored bytes of `source` (a file's bytes) encrypted for `objectKey` under the current key. */
export async function* encryptStream(
  keys: KeyRing,
  objectKey: string,
  source: AsyncIterable<Buffer | Uint8Array | string>,
): AsyncGenerator<Buffer> {
  const dataKey = randomBytes(32);
  const dataNonce = randomBytes(12);
  yield buildHeader(keys.current, objectKey, dataKey, dataNonce);
  const cipher = createCipheriv('aes-256-gcm', dataKey, dataNonce);
  cipher.setAAD(dataAad(objectKey));
  for await (const chunk of source) {
    const out = cipher.update(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (out.length > 0) yield out;
  }
  const last = cipher.final();
  if (last.length > 0) yield last;
  yield cipher.getAuthTag();
}

/**
 * A stored object's plain bytes: an encrypted file is decrypted (its tag checked at the end: a
 * tampered file, a wrong key or another object's bytes fail the stream), a file stored before
 * encryption is passed through as it is.
 */
export async function* decryptStream(
  keys: KeyRing,
  objectKey: string,
  source: AsyncIterable<Buffer | Uint8Array | string>,
): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < HEADER_SIZE) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, Buffer.from(next.value)]);
    // a file stored before encryption: known from its first bytes
    if (head.length >= 5 && !isEncrypted(head)) break;
  }
  if (!isEncrypted(head)) {
    if (head.length > 0) yield head;
    if (!ended) {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        yield Buffer.from(next.value);
      }
    }
    return;
  }
  if (head.length < HEADER_SIZE) throw new Error(`the document ${objectKey} is truncated`);
  const h = parseHeader(head.subarray(0, HEADER_SIZE));
  const decipher = createDecipheriv('aes-256-gcm', unwrap(keys, objectKey, h), h.dataNonce);
  decipher.setAAD(dataAad(objectKey));
  // the last TAG_SIZE bytes seen are held back: they may be the tag
  let held: Buffer = head.subarray(HEADER_SIZE);
  const take = (chunk: Buffer): Buffer => {
    const all = held.length > 0 ? Buffer.concat([held, chunk]) : chunk;
    const cut = Math.max(0, all.length - TAG_SIZE);
    held = all.subarray(cut);
    return cut > 0 ? decipher.update(all.subarray(0, cut)) : Buffer.alloc(0);
  };
  const first = take(Buffer.alloc(0));
  if (first.length > 0) yield first;
  if (!ended) {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const out = take(Buffer.from(next.value));
      if (out.length > 0) yield out;
    }
  }
  if (held.length !== TAG_SIZE) throw new Error(`the document ${objectKey} is truncated`);
  decipher.setAuthTag(held);
  const last = decipher.final();
  if (last.length > 0) yield last;
}

/** The id of the master key that wraps an encrypted file (from its header), or null if plain. */
export function keyIdOf(head: Buffer): string | null {
  return isEncrypted(head) && head.length >= HEADER_SIZE ? parseHeader(head).keyId : null;
}
