import { ProviderError } from '../errors.js';

/*
 * The DVLA's (and a licence-checking service's, which asks the DVLA) 10 requests a second:
 * every call of this process waits for a free place in a window of a second (and a margin) before it goes, and
 * an answer 429 (Too Many Requests) is waited out (its Retry-After, else a second) and sent
 * again, for as long as the engine's timeout allows. So a 429 never reaches an activity as an
 * error; only the call's timeout can.
 */

/** A 429 answer: how long the provider asked to wait. */
export class RateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super('The provider answered 429 (too many requests).');
    this.name = 'RateLimited';
  }
}

export interface RateLimiter {
  /** Resolves when a call may go (at most `perSecond` in any second), or rejects on abort. */
  acquire(signal: AbortSignal): Promise<void>;
  /** Calls sent so far, and 429s waited out (the bench's figures). */
  readonly stats: { calls: number; limited: number };
}

export interface LimiterClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realLimiterClock: LimiterClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new ProviderError('The provider did not answer in time.', true));
        return;
      }
      const t = setTimeout(() => {
        signal.removeEventListener('abort', stop);
        resolve();
      }, ms);
      const stop = () => {
        clearTimeout(t);
        reject(new ProviderError('The provider did not answer in time.', true));
      };
      signal.addEventListener('abort', stop, { once: true });
    }),
};

export const DVLA_REQUESTS_PER_SECOND = 10;

/**
 * What the window adds to a second: the provider counts a request when it arrives, so a call
 * delayed a few milliseconds on the way could otherwise be an eleventh in the provider's second
 * (the driving drain bench saw such 429s on a busy machine). The cost: at most 10 calls in 1.1 s.
 */
export const RATE_WINDOW_MARGIN_MS = 100;

const WINDOW_MS = 1000 + RATE_WINDOW_MARGIN_MS;

export function createRateLimiter(
  perSecond = DVLA_REQUESTS_PER_SECOND,
  clock: LimiterClock = realLimiterClock,
): RateLimiter {
  const sent: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  const stats = { calls: 0, limited: 0 };
  return {
    stats,
    acquire(signal) {
      // one waiter at a time takes the next place: callers go in the order they came
      const turn = queue.then(async () => {
        for (;;) {
          const now = clock.now();
          while (sent.length > 0 && (sent[0] ?? 0) <= now - WINDOW_MS) sent.shift();
          if (sent.length < perSecond) {
            sent.push(now);
            stats.calls += 1;
            return;
          }
          await clock.sleep((sent[0] ?? now) + WINDOW_MS - now, signal);
        }
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}

/**
 * `call` within the limiter: a place first, and a 429 waited out and sent again, until the
 * signal aborts (the engine's timeout: a retryable error).
 */
export async function limited<T>(
  limiter: RateLimiter,
  signal: AbortSignal,
  call: () => Promise<T>,
  clock: LimiterClock = realLimiterClock,
): Promise<T> {
  for (;;) {
    await limiter.acquire(signal);
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof RateLimited)) throw err;
      limiter.stats.limited += 1;
      await clock.sleep(err.retryAfterMs, signal);
    }
  }
}

/** A Retry-After header's wait in ms (seconds, or an HTTP date), else a second. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 60_000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.min(Math.max(at - now, 0), 60_000) : 1000;
}
