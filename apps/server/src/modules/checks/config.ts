import type { CheckProvider } from '@kestrel/domain';
import type { ProviderSettings } from './kind.js';
import { CHECK_PROVIDER_DEFINITIONS } from './registry.js';

/**
 * The check engine's configuration (README configuration table). Each provider's settings come
 * from the environment variables its registry entry names: without its URL (and key, where it
 * needs one) the engine uses that provider's deterministic simulator.
 */
export interface ChecksConfig {
  providers: Record<CheckProvider, ProviderSettings>;
  /** A provider call taking longer fails (and is retried). */
  providerTimeoutMs: number;
  /** Automatic retries of a failed start before it waits for operations. */
  maxAttempts: number;
  /** How often an application in progress is polled (a callback may come first). */
  pollSeconds: number;
  /**
   * How many real seconds a simulated day lasts for the simulators (AppConfig's
   * checksSimulatorDaySeconds): their stages, and their polls (pollSecondsOf), scale with it.
   */
  simulatorDaySeconds: number;
  /** The callback secrets missing for real providers (missingCallbackSecret), read once. */
  missingCallbackSecrets: readonly string[];
}

const num = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v && Number.isFinite(n) && n >= 0 ? n : fallback;
};

export const DAY_SECONDS = 24 * 60 * 60;

export function readChecksConfig(
  env: NodeJS.ProcessEnv = process.env,
  simulatorDaySeconds = DAY_SECONDS,
): ChecksConfig {
  const providers = {} as Record<CheckProvider, ProviderSettings>;
  for (const p of CHECK_PROVIDER_DEFINITIONS) {
    const url = env[p.env.url];
    const key = p.env.key ? env[p.env.key] : '';
    providers[p.name] = {
      real: url && (key || !p.env.key) ? { url, key: key ?? '' } : null,
      callbackSecret: p.callbacks ? env[p.callbacks.secretEnv] || p.callbacks.simulatorSecret : '',
    };
  }
  return {
    providers,
    providerTimeoutMs: num(env.PROVIDER_TIMEOUT_MS, 20_000),
    maxAttempts: 5,
    pollSeconds: 6 * 60 * 60,
    simulatorDaySeconds,
    missingCallbackSecrets: missingCallbackSecret(env),
  };
}

/**
 * The callback secrets missing from the environment: a real provider configured (its URL set)
 * whose callbacks have no secret of their own. Its callbacks are refused.
 */
export function missingCallbackSecret(env: NodeJS.ProcessEnv = process.env): string[] {
  return CHECK_PROVIDER_DEFINITIONS.flatMap((p) =>
    p.callbacks && env[p.env.url] && !env[p.callbacks.secretEnv] ? [p.callbacks.secretEnv] : [],
  );
}
