import type { Clock } from '../../platform/clock.js';
import type { ContextDeps } from '../../platform/service-context.js';
import { createDbsBasicClient } from '../../providers/dbs-basic/client.js';
import type { DisclosureProvider } from '../../providers/dbs-basic/provider.js';
import { DisclosureSimulator } from '../../providers/dbs-basic/simulator.js';
import { createUpdateServiceClient } from '../../providers/dbs-update-service/client.js';
import type { UpdateServiceProvider } from '../../providers/dbs-update-service/provider.js';
import { createUpdateServiceSimulator } from '../../providers/dbs-update-service/simulator.js';
import { createEbulkClient } from '../../providers/ebulk/client.js';
import { createEbulkSimulator } from '../../providers/ebulk/simulator.js';
import { type ChecksConfig, readChecksConfig } from './config.js';

/** The providers and configuration the engine runs with, per app (its deps). */
export interface CheckEngine {
  config: ChecksConfig;
  dbsBasic: DisclosureProvider;
  ebulk: DisclosureProvider;
  updateService: UpdateServiceProvider;
}

const engines = new WeakMap<object, CheckEngine>();

/**
 * The real client where configured, else the simulator on the app's clock (or on a provider clock
 * of its own: tests move it over simulated days; callbacks are still signed at the app's time).
 */
export function createCheckEngine(
  deps: Pick<ContextDeps, 'clock'>,
  config = readChecksConfig(),
  providerClock: Clock = deps.clock,
) {
  return {
    config,
    dbsBasic: config.dbsBasic
      ? createDbsBasicClient({ baseUrl: config.dbsBasic.url, apiKey: config.dbsBasic.key })
      : new DisclosureSimulator({
          name: 'dbs-basic',
          clock: providerClock,
          callbackSecret: config.dbsBasicCallbackSecret,
          signingClock: deps.clock,
        }),
    ebulk: config.ebulk
      ? createEbulkClient({ baseUrl: config.ebulk.url, apiKey: config.ebulk.key })
      : createEbulkSimulator(providerClock, config.ebulkCallbackSecret, deps.clock),
    updateService: config.updateServiceUrl
      ? createUpdateServiceClient({ baseUrl: config.updateServiceUrl })
      : createUpdateServiceSimulator(),
  } satisfies CheckEngine;
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
