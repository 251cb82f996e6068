import type { CheckProvider } from '@kestrel/domain';
import type { AppConfig } from '../../config.js';
import type { Clock } from '../../platform/clock.js';
import type { SecretSource } from '../../platform/server-secrets.js';
import type { ContextDeps } from '../../platform/service-context.js';
import { type ChecksConfig, DAY_SECONDS, readChecksConfig } from './config.js';
import type { CheckProviderDefinition, ProviderSource } from './kind.js';
import { CHECK_PROVIDER_DEFINITIONS } from './registry.js';

/** The providers (by name) and configuration the engine runs with, per app (its deps). */
export interface CheckEngine {
  config: ChecksConfig;
  providers: ReadonlyMap<CheckProvider, unknown>;
}

const engines = new WeakMap<object, CheckEngine>();

/**
 * Each registered provider's real client where configured, else its simulator on the app's
 * clock (or on a provider clock of its own: tests move it over simulated days; callbacks are
 * still signed at the app's time).
 */
export function createCheckEngine(
  deps: Pick<ContextDeps, 'clock'>,
  config: ChecksConfig,
  providerClock: Clock = deps.clock,
): CheckEngine {
  const providers = new Map<CheckProvider, unknown>();
  for (const p of CHECK_PROVIDER_DEFINITIONS) {
    const settings = config.providers[p.name];
    providers.set(
      p.name,
      settings.real
        ? p.client(settings.real)
        : p.simulator({
            clock: providerClock,
            signingClock: deps.clock,
            callbackSecret: settings.callbackSecret,
            dayMs: config.simulatorDaySeconds * 1000,
          }),
    );
  }
  return { config, providers };
}

/**
 * How often the engine polls an application of `provider`: its configured interval, shortened
 * for a simulator as much as its simulated day is (at least a second), so that a demo's
 * application is seen to move while its stages are minutes apart.
 */
export function pollSecondsOf(engine: CheckEngine, provider: CheckProvider): number {
  const { pollSeconds, simulatorDaySeconds, providers } = engine.config;
  if (providers[provider].real) return pollSeconds;
  return Math.max(1, Math.round((pollSeconds * simulatorDaySeconds) / DAY_SECONDS));
}

/** The engine's client (or simulator) of `provider`. */
export function providerOf<P>(engine: CheckEngine, provider: CheckProviderDefinition<P>): P {
  const p = engine.providers.get(provider.name);
  if (p === undefined) throw new Error(`no check provider ${provider.name}`);
  return p as P;
}

/** The engine's providers as a kind reaches them (defineKind's ProviderSource). */
export function sourceOf(engine: CheckEngine): ProviderSource {
  return (provider) => providerOf(engine, provider);
}

/**
 * What the engine needs of the app: its clock, its installation's secrets (the simulators') and
 * (when built from a config) the simulators' day.
 */
export type EngineDeps = Pick<ContextDeps, 'clock'> & {
  secrets: SecretSource;
  config?: Pick<AppConfig, 'checksSimulatorDaySeconds'>;
};

/** The engine of the app whose deps these are (made on first use). */
export function checkEngine(deps: EngineDeps): CheckEngine {
  let e = engines.get(deps);
  if (!e) {
    e = createCheckEngine(
      deps,
      readChecksConfig(process.env, deps.secrets, deps.config?.checksSimulatorDaySeconds),
    );
    engines.set(deps, e);
  }
  return e;
}

/** Replaces the engine of an app (tests: other providers or configuration). */
export function useCheckEngine(deps: Pick<ContextDeps, 'clock'>, engine: CheckEngine): void {
  engines.set(deps, engine);
}
