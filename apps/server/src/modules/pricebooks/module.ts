import type { KestrelModule } from '../../platform/module.js';
import { pricebooksRoutes } from './pricebooks.routes.js';
import { seedPricebooksDemo } from './pricebooks.seed.js';
import { PRICEBOOK_CT } from './pricebooks.service.js';

export default {
  name: 'pricebooks',
  routes: pricebooksRoutes,
  contentTypes: [PRICEBOOK_CT],
  seedDemo: seedPricebooksDemo,
  // after the customers' and processes' demo data
  seedOrder: 200,
} satisfies KestrelModule;
