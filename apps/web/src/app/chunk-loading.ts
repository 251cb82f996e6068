import { LIMITS } from '@kestrel/domain';

/** Spec point 9: a section that has not loaded after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = LIMITS.scriptLoadTimeoutSeconds * 1000;

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** Loads a lazy module; failures and timeouts become 'Loading chunk {name} failed. (...)'. */
export function loadChunk<T>(
  name: string,
  load: () => Promise<T>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading chunk ${name} failed. (timeout)`)),
      timeoutMs,
    );
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        const detail = error instanceof Error ? error.message : String(error);
        reject(new ChunkLoadError(`Loading chunk ${name} failed. (error: ${detail})`));
      },
    );
  });
}

const CHUNK_FAILURE =
  /Loading chunk .+ failed|Loading CSS chunk|CSS_CHUNK_LOAD_FAILED|Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i;

/** True for a script or style chunk that failed to load (the reload screen shows). */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  if (typeof error === 'object' && error !== null) {
    if ('code' in error && error.code === 'CSS_CHUNK_LOAD_FAILED') return true;
    if ('message' in error && typeof error.message === 'string') {
      return CHUNK_FAILURE.test(error.message);
    }
  }
  return false;
}
