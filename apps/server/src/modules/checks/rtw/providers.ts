import { createHomeOfficeRtwClient } from '../../../providers/home-office-rtw/client.js';
import type { HomeOfficeRtwProvider } from '../../../providers/home-office-rtw/provider.js';
import { createHomeOfficeRtwSimulator } from '../../../providers/home-office-rtw/simulator.js';
import type { CheckProviderDefinition } from '../kind.js';

/** The Home Office's share-code check (a read answered at once; no callbacks). */
export const homeOfficeRtwProvider: CheckProviderDefinition<HomeOfficeRtwProvider> = {
  name: 'home-office-rtw',
  env: { url: 'HOME_OFFICE_RTW_URL', key: 'HOME_OFFICE_RTW_KEY' },
  client: (s) => createHomeOfficeRtwClient({ baseUrl: s.url, apiKey: s.key }),
  simulator: (o) => createHomeOfficeRtwSimulator({ clock: o.clock }),
};
