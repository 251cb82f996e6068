import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptingStorage } from './encrypted.js';
import { HEADER_SIZE, keyIdOf, OVERHEAD } from './envelope.js';
import { KeyRing, type MasterKey, parseMasterKeys } from './key-ring.js';
import { LocalDiskStorage } from './local-disk.js';
import type { DocumentStorage } from './provider.js';
import { S3Storage } from './s3-client.js';

const key = (id: string): MasterKey => ({ id, key: randomBytes(32) });
const A = key('2025-01');
const B = key('2026-11');
const ringA = new KeyRing([A], A.id);
/** Words that must never be found in the stored bytes. */
const SECRET = 'PASSPORT 123456789 GBR JOHN SMITH ';
const plain = Buffer.from(SECRET.repeat(2000));

async function bytesOf(body: Readable | null): Promise<Buffer> {
  if (!body) throw new Error('no object');
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** `data` as a stream of uneven chunks (as a socket or a file delivers them). */
function chunked(data: Buffer): Readable {
  const parts: Buffer[] = [];
  for (let at = 0, n = 1; at < data.length; at += n, n = (n * 7 + 3) % 5000) {
    parts.push(data.subarray(at, at + n));
  }
  return Readable.from(parts);
}

describe('EncryptingStorage on local disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'kestrel-encrypted-'));
  const disk = new LocalDiskStorage(root);
  const store = new EncryptingStorage(disk, ringA);
  const file = (k: string) => join(root, ...k.split('/'));

  it('stores a file unreadable without the key and reads it back transparently', async () => {
    const k = 'customers/1/cases/2/documents/a.pdf';
    await store.put(k, chunked(plain), { contentType: 'application/pdf', size: plain.length });
    const raw = readFileSync(file(k));
    expect(raw.length).toBe(plain.length + OVERHEAD);
    expect(raw.includes(Buffer.from('PASSPORT'))).toBe(false);
    expect(raw.includes(plain.subarray(0, 16))).toBe(false);
    expect(keyIdOf(raw)).toBe(A.id);
    expect((await bytesOf(await store.get(k))).equals(plain)).toBe(true);
    expect(await store.inspect(k)).toEqual({ state: 'encrypted', keyId: A.id });
    // the store underneath (anyone with the disk but not the key) sees only ciphertext
    expect((await bytesOf(await disk.get(k))).includes(Buffer.from('PASSPORT'))).toBe(false);
  });

  it('refuses the wrong key, a key it does not have, a tampered file and a file moved to another key', async () => {
    const k = 'customers/1/cases/2/documents/b.png';
    await store.put(k, Readable.from([plain]), { contentType: 'image/png', size: plain.length });
    const sameIdOtherKey = new EncryptingStorage(disk, new KeyRing([key(A.id)], A.id));
    await expect(sameIdOtherKey.get(k).then(bytesOf)).rejects.toThrow(/authenticate/);
    const onlyB = new EncryptingStorage(disk, new KeyRing([B], B.id));
    await expect(onlyB.get(k).then(bytesOf)).rejects.toThrow(
      /key 2025-01, which is not configured/,
    );

    // refused before any byte is handed over (a download answers an error, not a cut file)
    await expect(onlyB.get(k)).rejects.toThrow(/not configured/);
    await expect(sameIdOtherKey.get(k)).rejects.toThrow(/authenticate/);

    const raw = readFileSync(file(k));
    const moved = 'customers/9/cases/9/documents/b.png';
    await mkdir(dirname(file(moved)), { recursive: true });
    writeFileSync(file(moved), raw);
    await expect(store.get(moved).then(bytesOf)).rejects.toThrow(/authenticate/);

    const tampered = Buffer.from(raw);
    tampered[HEADER_SIZE + 100] = (tampered[HEADER_SIZE + 100] ?? 0) ^ 1;
    writeFileSync(file(k), tampered);
    await expect(store.get(k).then(bytesOf)).rejects.toThrow(/authenticate/);
    writeFileSync(file(k), raw.subarray(0, raw.length - 3));
    await expect(store.get(k).then(bytesOf)).rejects.toThrow();
  });

  it('reads a file stored before encryption as it is, and the backfill encrypts it', async () => {
    const k = 'customers/1/cases/2/documents/old.png';
    await disk.put(k, Readable.from([plain]), { contentType: 'image/png', size: plain.length });
    expect(await store.inspect(k)).toEqual({ state: 'plain' });
    expect((await bytesOf(await store.get(k))).equals(plain)).toBe(true);
    expect(await store.encryptExisting(k)).toBe(true);
    expect(readFileSync(file(k)).includes(Buffer.from('PASSPORT'))).toBe(false);
    expect((await bytesOf(await store.get(k))).equals(plain)).toBe(true);
    expect(await store.encryptExisting(k)).toBe(false);
    // short and empty files from before encryption too
    for (const [name, body] of [
      ['tiny', Buffer.from('ab')],
      ['empty', Buffer.alloc(0)],
    ] as const) {
      const t = `customers/1/cases/2/documents/${name}.png`;
      await disk.put(t, Readable.from([body]), { contentType: 'image/png', size: body.length });
      expect((await bytesOf(await store.get(t))).equals(body)).toBe(true);
    }
    expect(await store.get('customers/1/cases/2/documents/none.png')).toBeNull();
    expect(await store.inspect('customers/1/cases/2/documents/none.png')).toEqual({
      state: 'missing',
    });
  });

  it('a rotation re-wraps the data key in place: the content unchanged, readable with the new key alone', async () => {
    const k = 'customers/1/cases/3/documents/c.pdf';
    const empty = 'customers/1/cases/3/documents/empty.pdf';
    await store.put(k, Readable.from([plain]), {
      contentType: 'application/pdf',
      size: 0 + plain.length,
    });
    await store.put(empty, Readable.from([]), { contentType: 'application/pdf', size: 0 });
    const before = readFileSync(file(k));
    const rotated = new EncryptingStorage(disk, new KeyRing([A, B], B.id));
    // readable throughout: the old key is still in the ring
    expect((await bytesOf(await rotated.get(k))).equals(plain)).toBe(true);
    expect(await rotated.rewrap(k)).toBe(true);
    expect(await rotated.rewrap(empty)).toBe(true);
    expect(await rotated.rewrap(k)).toBe(false);
    const after = readFileSync(file(k));
    expect(keyIdOf(after)).toBe(B.id);
    expect(after.subarray(HEADER_SIZE).equals(before.subarray(HEADER_SIZE))).toBe(true);
    const onlyB = new EncryptingStorage(disk, new KeyRing([B], B.id));
    expect((await bytesOf(await onlyB.get(k))).equals(plain)).toBe(true);
    expect((await bytesOf(await onlyB.get(empty))).length).toBe(0);
    await expect(store.get(k).then(bytesOf)).rejects.toThrow(/not configured/);
    // a file deleted meanwhile is not brought back
    await disk.delete(k);
    expect(await rotated.rewrap(k)).toBe(false);
    expect(await disk.get(k)).toBeNull();
  });
});

describe('EncryptingStorage over an S3-compatible bucket', () => {
  const objects = new Map<string, Buffer>();
  let server: Server;
  let s3: S3Storage;

  beforeAll(async () => {
    // a bucket that keeps what it is given (signatures are s3-client.test.ts's concern)
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const k = decodeURIComponent(req.url ?? '');
        if (req.method === 'PUT') {
          objects.set(k, Buffer.concat(chunks));
          res.writeHead(200).end();
        } else if (req.method === 'GET') {
          const o = objects.get(k);
          if (o) res.writeHead(200, { 'content-length': o.length }).end(o);
          else res.writeHead(404).end();
        } else {
          objects.delete(k);
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    s3 = new S3Storage({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: 'eu-west-2',
      bucket: 'docs',
      accessKeyId: 'AKID',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      timeoutMs: 5_000,
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps only ciphertext in the bucket, decrypts on read, and survives a rotation', async () => {
    const store: DocumentStorage = new EncryptingStorage(s3, ringA);
    const k = 'customers/1/cases/2/thumbnails/x.jpg';
    await store.put(k, chunked(plain), { contentType: 'image/jpeg', size: plain.length });
    const inBucket = objects.get(`/docs/${k}`);
    expect(inBucket?.length).toBe(plain.length + OVERHEAD);
    expect(inBucket?.includes(Buffer.from('PASSPORT'))).toBe(false);
    expect((await bytesOf(await store.get(k))).equals(plain)).toBe(true);
    const wrong = new EncryptingStorage(s3, new KeyRing([key(A.id)], A.id));
    await expect(wrong.get(k).then(bytesOf)).rejects.toThrow(/authenticate/);

    const rotated = new EncryptingStorage(s3, new KeyRing([B, A], B.id));
    expect(await rotated.rewrap(k)).toBe(true);
    expect(keyIdOf(objects.get(`/docs/${k}`) ?? Buffer.alloc(0))).toBe(B.id);
    const onlyB = new EncryptingStorage(s3, new KeyRing([B], B.id));
    expect((await bytesOf(await onlyB.get(k))).equals(plain)).toBe(true);

    // a file put in the bucket before encryption: read as it is, then encrypted by the backfill
    const old = 'customers/1/cases/2/documents/old.pdf';
    await s3.put(old, Readable.from([plain]), {
      contentType: 'application/pdf',
      size: plain.length,
    });
    expect((await bytesOf(await onlyB.get(old))).equals(plain)).toBe(true);
    expect(await onlyB.encryptExisting(old)).toBe(true);
    expect(objects.get(`/docs/${old}`)?.includes(Buffer.from('PASSPORT'))).toBe(false);
    expect((await bytesOf(await onlyB.get(old))).equals(plain)).toBe(true);
  });
});

describe('master keys', () => {
  it('reads ENCRYPTION_KEYS pairs (hex or base64) and refuses bad ones', () => {
    const hex = randomBytes(32).toString('hex');
    const b64 = randomBytes(32).toString('base64');
    expect(parseMasterKeys(`k1:${hex}, k2:${b64}`).map((k) => k.id)).toEqual(['k1', 'k2']);
    expect(() => parseMasterKeys('k1')).toThrow('id:key');
    expect(() => parseMasterKeys('k1:abcd')).toThrow('32 bytes');
    expect(() => parseMasterKeys(`bad!id:${hex}`)).toThrow('invalid key id');
    expect(() => new KeyRing([A], 'other')).toThrow('not configured');
    expect(() => new KeyRing([A, { ...A }], A.id)).toThrow('twice');
    expect(new KeyRing([A, B], B.id).ids()).toEqual([B.id, A.id]);
  });
});
