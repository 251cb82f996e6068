import type { IdvConfig } from '../../config.js';
import type { Clock } from '../../platform/clock.js';
import { IdvApiClient } from './client.js';
import type { IdvProvider } from './provider.js';
import { IdvSimulator } from './simulator.js';

/**
 * The provider the configuration names: the simulator (default) or the real client. The
 * simulator signs its callbacks with IDV_CALLBACK_SECRET when set, else with `simulatorSecret`
 * (the installation's, from server_secrets: every process of the installation verifies them).
 */
export function createIdvProvider(
  config: IdvConfig,
  publicUrl: string,
  clock: Clock,
  simulatorSecret: string,
): IdvProvider {
  if (config.provider === 'api') {
    if (!config.apiUrl || !config.apiKey || !config.callbackSecret) {
      throw new Error('IDV_PROVIDER=api needs IDV_API_URL, IDV_API_KEY and IDV_CALLBACK_SECRET');
    }
    return new IdvApiClient({
      apiUrl: config.apiUrl,
      apiKey: config.apiKey,
      callbackSecret: config.callbackSecret,
    });
  }
  return new IdvSimulator({
    baseUrl: publicUrl,
    callbackSecret: config.callbackSecret ?? simulatorSecret,
    clock,
  });
}
