import type { KestrelModule } from '../../platform/module.js';
import { dashboardRoutes } from './dashboard.routes.js';

export default {
  name: 'dashboard',
  routes: dashboardRoutes,
} satisfies KestrelModule;
