import { createUpdateServiceClient } from '../../../providers/dbs-update-service/client.js';
import type { UpdateServiceProvider } from '../../../providers/dbs-update-service/provider.js';
import { createUpdateServiceSimulator } from '../../../providers/dbs-update-service/simulator.js';
import type { CheckProviderDefinition } from '../kind.js';

/** The DBS update service (status checks; no key, no callbacks). */
export const updateServiceProvider: CheckProviderDefinition<UpdateServiceProvider> = {
  name: 'dbs-update-service',
  env: { url: 'DBS_UPDATE_SERVICE_URL' },
  client: (s) => createUpdateServiceClient({ baseUrl: s.url }),
  simulator: () => createUpdateServiceSimulator(),
};
