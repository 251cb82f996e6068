import type { AppDeps } from '../../app-deps.js';
import type { IdvProvider } from '../../providers/idv/provider.js';
import { idvProvider } from '../checks/online-idv/providers.js';
import { checkEngine, providerOf } from '../checks/providers.js';

/**
 * The identity provider of an app: the check engine's (its real client, or its simulator, which
 * keeps its sessions in memory: the portal's routes, the simulator's pages and the engine share
 * it). Its callbacks go to the engine's callback route (modules/checks/online-idv).
 */
export function idvProviderOf(deps: AppDeps): IdvProvider {
  return providerOf(checkEngine(deps), idvProvider);
}

/** Whether the app runs the identity provider's simulator (and so serves its pages). */
export function idvSimulated(deps: AppDeps): boolean {
  return checkEngine(deps).config.providers[idvProvider.name].real === null;
}
