import type { KestrelModule } from '../../platform/module.js';
import { opsDashboardRoutes } from './ops-dashboard.routes.js';

/** Operations' morning view (issue 29): GET /api/ops/dashboard/. */
export default {
  name: 'ops-dashboard',
  routes: opsDashboardRoutes,
} satisfies KestrelModule;
