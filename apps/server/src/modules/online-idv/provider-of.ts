import type { AppDeps } from '../../app-deps.js';
import type { IdvProvider } from '../../providers/idv/provider.js';
import { createIdvProvider } from '../../providers/idv/select.js';

const providers = new WeakMap<AppDeps, IdvProvider>();

/** The installation secret (server_secrets) the simulator signs with without IDV_CALLBACK_SECRET. */
export const IDV_SIMULATOR_SECRET = 'simulator:idv';

/**
 * The identity provider of an app (one per app, made from its configuration on first use): the
 * simulator keeps its sessions in it, so every route of the app must share it.
 */
export function idvProviderOf(deps: AppDeps): IdvProvider {
  let provider = providers.get(deps);
  if (!provider) {
    provider = createIdvProvider(
      deps.config.idv,
      deps.config.publicUrl,
      deps.clock,
      deps.secrets.get(IDV_SIMULATOR_SECRET),
    );
    providers.set(deps, provider);
  }
  return provider;
}
