import type { KestrelModule } from '../../platform/module.js';
import { addressLookupRoutes } from './address-lookup.routes.js';
import { CASE_DATA_CONTENT_TYPES } from './case-data.resources.js';
import { caseDataRoutes } from './case-data.routes.js';
import { seedCaseData } from './case-data.seed.js';

export default {
  name: 'case-data',
  routes: async (app) => {
    await caseDataRoutes(app);
    await addressLookupRoutes(app);
  },
  contentTypes: CASE_DATA_CONTENT_TYPES,
  seedDemo: seedCaseData,
  // after the cases module's demo workspace (its cases get the data)
  seedOrder: 110,
} satisfies KestrelModule;
