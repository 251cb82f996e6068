import { lockActivity, pollJob } from './engine.js';
import type { KindEngine } from './kind.js';
import { checkEngine, pollSecondsOf, providerOf } from './providers.js';

/**
 * The engine's parts a kind's own jobs and routes use, given to them (kind.ts `jobs`, `routes`)
 * by the engine's jobs (jobs.ts) and the checks module: a kind never imports the engine, which
 * loads the registry and so the kinds.
 */
export const kindEngine: KindEngine = {
  lockActivity,
  pollJob,
  providerOf: (deps, provider) => {
    const engine = checkEngine(deps);
    return {
      client: providerOf(engine, provider),
      pollSeconds: pollSecondsOf(engine, provider.name),
      timeoutMs: engine.config.providerTimeoutMs,
    };
  },
};
