import type { KestrelModule } from '../../platform/module.js';
import { accessLogRoutes } from './access-log.routes.js';
import { seedRecordViews } from './demo.seed.js';

export default {
  name: 'access-log',
  routes: accessLogRoutes,
  contentTypes: ['audit.recordview'],
  seedDemo: seedRecordViews,
  // after the cases, results and documents of the demo
  seedOrder: 900,
} satisfies KestrelModule;
