import type { KestrelModule } from '../../platform/module.js';
import { activitiesRoutes } from './activities.routes.js';

export default {
  name: 'activities',
  routes: activitiesRoutes,
} satisfies KestrelModule;
