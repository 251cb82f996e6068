import type { KestrelModule } from '../../platform/module.js';
import { seedOpsQueueDemo } from './demo.seed.js';
import { opsDashboardRoutes } from './ops-dashboard.routes.js';

/** Operations' morning view (issue 29): GET /api/ops/dashboard/ and the queue's demo data. */
export default {
  name: 'ops-dashboard',
  routes: opsDashboardRoutes,
  // after the other modules' demo cases
  seedOrder: 900,
  seedDemo: seedOpsQueueDemo,
} satisfies KestrelModule;
