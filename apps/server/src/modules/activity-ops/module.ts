import type { KestrelModule } from '../../platform/module.js';
import { activityOpsRoutes } from './activity-ops.routes.js';

export default {
  name: 'activity-ops',
  routes: activityOpsRoutes,
} satisfies KestrelModule;
