import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local-disk.js';

describe('LocalDiskStorage', () => {
  const root = mkdtempSync(join(tmpdir(), 'kestrel-local-disk-'));
  const store = new LocalDiskStorage(root);

  it('writes, reads and deletes an object under its key', async () => {
    await store.put('customers/1/a.png', Readable.from([Buffer.from('abc')]), {
      contentType: 'image/png',
      size: 3,
    });
    expect(readFileSync(join(root, 'customers', '1', 'a.png'), 'utf8')).toBe('abc');
    const back = await store.get('customers/1/a.png');
    const chunks: Buffer[] = [];
    for await (const c of back ?? []) chunks.push(Buffer.from(c));
    expect(Buffer.concat(chunks).toString()).toBe('abc');
    await store.delete('customers/1/a.png');
    expect(await store.get('customers/1/a.png')).toBeNull();
    await store.delete('customers/1/a.png');
  });

  it('keeps nothing when a write fails (a short stream), and refuses keys it did not make', async () => {
    await expect(
      store.put('customers/1/b.pdf', Readable.from([Buffer.from('ab')]), {
        contentType: 'application/pdf',
        size: 5,
      }),
    ).rejects.toThrow('Stored 2 bytes where 5 were expected');
    expect(readdirSync(join(root, 'customers', '1'))).toEqual([]);
    await expect(store.get('../outside')).rejects.toThrow();
    await expect(
      store.put('/etc/x', Readable.from([]), { contentType: 'image/png', size: 0 }),
    ).rejects.toThrow();
  });
});
