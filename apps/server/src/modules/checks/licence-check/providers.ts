import { createDavisClient } from '../../../providers/davis/client.js';
import type { DavisProvider } from '../../../providers/davis/provider.js';
import { createDavisSimulator } from '../../../providers/davis/simulator.js';
import type { CheckProviderDefinition } from '../kind.js';

/** The licence-checking service (a bearer API key; polled, no callbacks). */
export const davisProvider: CheckProviderDefinition<DavisProvider> = {
  name: 'davis',
  env: { url: 'DAVIS_URL', key: 'DAVIS_API_KEY' },
  client: (s) => createDavisClient({ baseUrl: s.url, apiKey: s.key }),
  simulator: (o) => createDavisSimulator({ clock: o.clock, dayMs: o.dayMs }),
};
