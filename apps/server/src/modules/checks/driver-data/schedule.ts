import type { AppDeps } from '../../../app-deps.js';
import { cronEvery } from '../../../jobs/housekeeping.js';
import type { CheckProviderDefinition } from '../kind.js';

const DAY_SECONDS = 24 * 60 * 60;

/** Whether `provider`'s real client is configured (its URL, and key where it needs one). */
export function isRealProvider(provider: Pick<CheckProviderDefinition, 'env'>): boolean {
  const url = process.env[provider.env.url];
  return Boolean(url && (!provider.env.key || process.env[provider.env.key]));
}

/**
 * The cron of a driving licence kind's daily job: each day with the real provider; each
 * simulated day with its simulator (CHECKS_SIMULATOR_DAY_SECONDS), at least each minute.
 */
export const dailyCron =
  (provider: Pick<CheckProviderDefinition, 'env'>) =>
  (deps: AppDeps): string | null =>
    cronEvery(
      (isRealProvider(provider)
        ? DAY_SECONDS
        : Math.min(DAY_SECONDS, deps.config.checksSimulatorDaySeconds)) * 1000,
    );
