import type { CheckProvider } from '@kestrel/domain';
import type { Clock } from '../../platform/clock.js';
import type { ContextDeps } from '../../platform/service-context.js';
import { type ChecksConfig, readChecksConfig } from './config.js';
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
  config = readChecksConfig(),
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
          }),
    );
  }
  return { config, providers };
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

/** The engine of the app whose deps these are (made on first use). */
export function checkEngine(deps: Pick<ContextDeps, 'clock'>): CheckEngine {
  let e = engines.get(deps);
  if (!e) {
    e = createCheckEngine(deps);
    engines.set(deps, e);
  }
  return e;
}

/** Replaces the engine of an app (tests: other providers or configuration). */
export function useCheckEngine(deps: Pick<ContextDeps, 'clock'>, engine: CheckEngine): void {
  engines.set(deps, engine);
}
