import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGIN_BUDGET_BYTES,
  lazyChunks,
  loginFirstVisit,
  ROUTE_CHUNK_BUDGET_BYTES,
} from './budget';

const dist = join(import.meta.dirname, '..', 'dist');

describe('bundle budget', () => {
  it('keeps the login page first visit under 150 KB of gzip JavaScript', () => {
    const { gzipBytes, files } = loginFirstVisit(dist);
    expect(files.length).toBeGreaterThan(1);
    expect(
      gzipBytes,
      `${(gzipBytes / 1024).toFixed(1)} KB: ${files.join(', ')}`,
    ).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
  });

  it('keeps every lazily loaded route chunk under 60 KB gzip', () => {
    const chunks = lazyChunks(dist);
    expect(chunks.length).toBeGreaterThan(10);
    const over = chunks.filter((c) => c.gzipBytes > ROUTE_CHUNK_BUDGET_BYTES);
    expect(
      over,
      over.map((c) => `${c.src} ${(c.gzipBytes / 1024).toFixed(1)} KB`).join('\n'),
    ).toEqual([]);
  });

  it('emits brotli and gzip copies for the server to send precompressed', async () => {
    const { existsSync } = await import('node:fs');
    const { files } = loginFirstVisit(dist);
    for (const f of files) {
      expect(existsSync(join(dist, `${f}.br`)), f).toBe(true);
      expect(existsSync(join(dist, `${f}.gz`)), f).toBe(true);
    }
  });
});
