import type { KestrelModule } from '../../platform/module.js';
import { customerAccountRoutes } from './customer-account.routes.js';
import { seedCustomerAccountDemo } from './customer-account.seed.js';

export default {
  name: 'customers',
  routes: customerAccountRoutes,
  seedDemo: seedCustomerAccountDemo,
} satisfies KestrelModule;
