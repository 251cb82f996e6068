import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS, isChunkLoadError, loadChunk } from './chunk-loading';

afterEach(() => vi.useRealTimers());

describe('chunk loading', () => {
  it('times out after 120 s with "Loading chunk N failed"', async () => {
    vi.useFakeTimers();
    const pending = loadChunk('cases', () => new Promise<never>(() => {}));
    const caught = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS);
    const error = await caught;
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toContain('Loading chunk cases failed. (timeout)');
    expect(isChunkLoadError(error)).toBe(true);
  });
  it('wraps an import failure', async () => {
    const error = await loadChunk('x', () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /js/x.js')),
    ).catch((e: unknown) => e);
    expect(String(error)).toContain('Loading chunk x failed. (error:');
  });
  it('recognises the browser and style failure forms', () => {
    expect(isChunkLoadError(new Error('Loading chunk 42 failed.'))).toBe(true);
    expect(
      isChunkLoadError({ code: 'CSS_CHUNK_LOAD_FAILED', message: 'Loading CSS chunk 3 failed' }),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: x'))).toBe(
      true,
    );
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
  it('passes a loaded module through', async () => {
    await expect(loadChunk('y', async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });
});
