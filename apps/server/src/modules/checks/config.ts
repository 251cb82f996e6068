import type { CheckProvider } from '@kestrel/domain';
import type { SecretSource } from '../../platform/server-secrets.js';
import type { CheckProviderDefinition, ProviderSettings } from './kind.js';
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

/**
 * The installation secret (server_secrets) a provider's simulator signs its callbacks with, and
 * they are verified with, when no secret is configured: made at random per installation.
 */
export const simulatorSecretName = (provider: CheckProvider) => `simulator:${provider}`;

/** The installation secrets of the simulators whose callbacks are signed (the module's). */
export const SIMULATOR_SECRET_NAMES = CHECK_PROVIDER_DEFINITIONS.flatMap((p) =>
  p.callbacks ? [simulatorSecretName(p.name)] : [],
);

/** A provider's real client settings, or null without its URL (and key, where it needs one). */
export function realSettingsOf(
  env: NodeJS.ProcessEnv,
  p: Pick<CheckProviderDefinition, 'env'>,
): ProviderSettings['real'] {
  const url = env[p.env.url];
  const key = p.env.key ? env[p.env.key] : '';
  return url && (key || !p.env.key) ? { url, key: key ?? '' } : null;
}

/**
 * The engine's configuration from the environment; a provider's callback secret is its variable
 * or else this installation's simulator secret (`secrets`, never a constant of the source).
 */
export function readChecksConfig(
  env: NodeJS.ProcessEnv,
  secrets: SecretSource,
  simulatorDaySeconds = DAY_SECONDS,
): ChecksConfig {
  const providers = {} as Record<CheckProvider, ProviderSettings>;
  for (const p of CHECK_PROVIDER_DEFINITIONS) {
    providers[p.name] = {
      real: realSettingsOf(env, p),
      callbackSecret: p.callbacks
        ? env[p.callbacks.secretEnv] || secrets.get(simulatorSecretName(p.name))
        : '',
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
