import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { readEncryptionConfig } from '../../config.js';
import { EncryptingStorage } from '../../providers/storage/encrypted.js';
import { keyIdOf } from '../../providers/storage/envelope.js';
import { KeyRing, type MasterKey } from '../../providers/storage/key-ring.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { caseDocuments, type StoredPage } from '../case-documents/case-documents.table.js';
import { documentKeysJob, sweepAllDocumentKeys } from './document-keys-job.js';
import { DEVELOPMENT_KEY_ID, describeKeyRing, loadKeyRing } from './key-ring.js';

let t: TestApp;
let storage: EncryptingStorage;
let acme: number;
let caseId: number;
let staff: Client;

async function bytesOf(body: Readable | null): Promise<Buffer> {
  if (!body) throw new Error('no object');
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

async function document(store: EncryptingStorage | EncryptingStorage['inner']) {
  return t.owner((tx) => createCaseDocument(tx, store, { customerId: acme, caseId }));
}

const keysOf = (pages: StoredPage[]) => pages.flatMap((p) => [p.key, p.thumbnailKey]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

beforeAll(async () => {
  t = await buildTestApp();
  if (!(t.app.deps.storage instanceof EncryptingStorage)) throw new Error('not encrypted');
  storage = t.app.deps.storage;
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    caseId = (await createCase(tx, { customerId: acme })).id;
  });
  staff = await login(t.app, 'admin@acme.test');
});
afterAll(() => t.close());

describe('document files encrypted at rest', () => {
  it('the server stores files under its development key (no configuration) and serves them decrypted', async () => {
    expect(storage.keys.development).toBe(true);
    expect(storage.keys.current.id).toBe(DEVELOPMENT_KEY_ID);
    expect(describeKeyRing(storage.keys)).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('DEVELOPMENT key'),
    });
    const doc = await document(storage);
    const [page] = doc.pages;
    if (!page) throw new Error('no page');
    const raw = await bytesOf(await storage.inner.get(page.key));
    const plain = await bytesOf(await storage.get(page.key));
    expect(plain.subarray(0, 4).equals(PNG)).toBe(true);
    expect(keyIdOf(raw)).toBe(DEVELOPMENT_KEY_ID);
    expect(raw.includes(PNG)).toBe(false);
    expect(raw.includes(plain.subarray(16, 48))).toBe(false);

    const read = await t.app.inject({
      url: `/api/case-documents/${doc.id}/`,
      headers: staff.headers,
    });
    expect(read.statusCode, read.body).toBe(200);
    const download = await t.app.inject({ url: read.json().content_url, headers: staff.headers });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(plain)).toBe(true);
    expect(download.headers['content-length']).toBe(String(plain.length));
    const thumb = await t.app.inject({ url: read.json().thumbnail_url, headers: staff.headers });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.rawPayload.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(true);
  });

  it('files stored before encryption stay readable, and the document-keys job encrypts them', async () => {
    const old = await document(storage.inner);
    const [page] = old.pages;
    if (!page) throw new Error('no page');
    const before = await bytesOf(await storage.inner.get(page.key));
    expect(before.subarray(0, 4).equals(PNG)).toBe(true);
    const read = await t.app.inject({
      url: `/api/case-documents/${old.id}/`,
      headers: staff.headers,
    });
    const download = await t.app.inject({ url: read.json().content_url, headers: staff.headers });
    expect(download.rawPayload.equals(before)).toBe(true);

    await documentKeysJob.handle({ after_customer: 0, after_id: 0 }, t.app.deps);
    for (const key of keysOf(old.pages)) {
      expect(await storage.inspect(key)).toEqual({
        state: 'encrypted',
        keyId: DEVELOPMENT_KEY_ID,
      });
    }
    const after = await bytesOf(await storage.inner.get(page.key));
    expect(after.includes(PNG)).toBe(false);
    const again = await t.app.inject({ url: read.json().content_url, headers: staff.headers });
    expect(again.rawPayload.equals(before)).toBe(true);
    // a second sweep has nothing left to do
    expect(await sweepAllDocumentKeys(t.db, storage)).toMatchObject({ encrypted: 0, rewrapped: 0 });
  });

  it('a rotation: every file readable before, during and after the re-wrap, then under the new key alone', async () => {
    const docs = [await document(storage), await document(storage), await document(storage)];
    const all = (
      await t.owner((tx) => tx.select({ pages: caseDocuments.pages }).from(caseDocuments))
    ).flatMap((d) => keysOf(d.pages));
    const contents = new Map<string, Buffer>();
    for (const key of all) contents.set(key, await bytesOf(await storage.get(key)));

    const fresh: MasterKey = { id: '2026-11', key: randomBytes(32) };
    const dev = storage.keys.get(DEVELOPMENT_KEY_ID);
    if (!dev) throw new Error('no development key');
    const rotated = new EncryptingStorage(storage.inner, new KeyRing([fresh, dev], fresh.id));
    // new files go under the new key at once; older ones stay readable
    const added = await t.owner((tx) =>
      createCaseDocument(tx, rotated, { customerId: acme, caseId }),
    );
    expect(await rotated.inspect(added.pages[0]?.key ?? '')).toMatchObject({ keyId: fresh.id });
    for (const key of all)
      expect(
        (await bytesOf(await rotated.get(key))).equals(contents.get(key) ?? Buffer.alloc(0)),
      ).toBe(true);

    // batches of one document: the cursor goes through every one of them
    const done = await sweepAllDocumentKeys(t.db, rotated, 1);
    expect(done).toEqual({ encrypted: 0, rewrapped: all.length, unchanged: 2, unknownKey: 0 });
    const onlyNew = new EncryptingStorage(storage.inner, new KeyRing([fresh], fresh.id));
    for (const key of all) {
      expect(await onlyNew.inspect(key)).toEqual({ state: 'encrypted', keyId: fresh.id });
      expect(
        (await bytesOf(await onlyNew.get(key))).equals(contents.get(key) ?? Buffer.alloc(0)),
      ).toBe(true);
    }
    // the old key alone opens none of them any more
    await expect(storage.get(all[0] ?? '').then(bytesOf)).rejects.toThrow(/not configured/);
    expect(docs).toHaveLength(3);
  });

  it('a file a document let go of while the sweep ran is not brought back', async () => {
    const doc = await document(storage.inner);
    const target = doc.pages[0]?.key ?? '';
    const disk = storage.inner;
    // another part (a deletion, a redaction) lets go of the file between the sweep's read of the
    // file and its write of the encrypted one
    let raced = false;
    const racing: DocumentStorage = {
      kind: disk.kind,
      get: (key) => disk.get(key),
      delete: (key) => disk.delete(key),
      put: async (key, body, info) => {
        if (key === target && !raced) {
          raced = true;
          await t.owner((tx) => tx.delete(caseDocuments).where(eq(caseDocuments.id, doc.id)));
          await disk.delete(key);
        }
        return disk.put(key, body, info);
      },
    };
    const sweeping = new EncryptingStorage(racing, storage.keys);
    const done = await sweepAllDocumentKeys(t.db, sweeping);
    expect(raced).toBe(true);
    expect(done.encrypted).toBe(2);
    // the files the rotation above moved to its new key: this ring lacks it, they are left alone
    expect(done.unknownKey).toBeGreaterThan(0);
    expect(await disk.get(target)).toBeNull();
    expect(await disk.get(doc.pages[0]?.thumbnailKey ?? '')).toBeNull();
  });
});

describe('master keys from the configuration', () => {
  const hex = () => randomBytes(32).toString('hex');

  it('loads the development key once per installation and keeps it readable next to configured keys', async () => {
    const first = await loadKeyRing(t.db, { keys: [], currentKeyId: null });
    const second = await loadKeyRing(t.db, { keys: [], currentKeyId: null });
    expect(first.current.key.equals(second.current.key)).toBe(true);
    expect(first.current.key.equals(storage.keys.current.key)).toBe(true);
    const configured = await loadKeyRing(
      t.db,
      readEncryptionConfig({ ENCRYPTION_KEYS: `k1:${hex()}` }),
    );
    expect(configured.development).toBe(false);
    expect(configured.current.id).toBe('k1');
    expect(configured.ids()).toEqual(['k1', DEVELOPMENT_KEY_ID]);
    expect(describeKeyRing(configured)).toMatchObject({ level: 'info' });
  });

  it('reads ENCRYPTION_KEYS and ENCRYPTION_CURRENT_KEY, and production refuses to start without keys', () => {
    const env = { ENCRYPTION_KEYS: `old:${hex()},new:${hex()}`, ENCRYPTION_CURRENT_KEY: 'new' };
    const c = readEncryptionConfig(env);
    expect(c.keys.map((k) => k.id)).toEqual(['old', 'new']);
    expect(c.currentKeyId).toBe('new');
    expect(readEncryptionConfig({ ENCRYPTION_KEYS: env.ENCRYPTION_KEYS }).currentKeyId).toBe('old');
    expect(() => readEncryptionConfig({ ...env, ENCRYPTION_CURRENT_KEY: 'other' })).toThrow(
      'not one of ENCRYPTION_KEYS',
    );
    expect(() => readEncryptionConfig({ ENCRYPTION_KEYS: `a:${hex()},a:${hex()}` })).toThrow(
      'twice',
    );
    expect(() => readEncryptionConfig({ ENCRYPTION_CURRENT_KEY: 'x' })).toThrow(
      'needs ENCRYPTION_KEYS',
    );
    expect(() =>
      readEncryptionConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/kestrel' }),
    ).toThrow('ENCRYPTION_KEYS is required in production');
    // `npm start` (NODE_ENV=production on the embedded database) and tests keep working
    expect(readEncryptionConfig({ NODE_ENV: 'production' })).toEqual({
      keys: [],
      currentKeyId: null,
    });
    expect(readEncryptionConfig({})).toEqual({ keys: [], currentKeyId: null });
  });
});
