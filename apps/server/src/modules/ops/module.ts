import type { KestrelModule } from '../../platform/module.js';
import { seedOpsCustomersDemo } from './customers.seed.js';
import { opsRoutes } from './ops.routes.js';

export default {
  name: 'ops',
  routes: opsRoutes,
  seedDemo: seedOpsCustomersDemo,
} satisfies KestrelModule;
