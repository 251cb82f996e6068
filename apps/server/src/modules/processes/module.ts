import type { KestrelModule } from '../../platform/module.js';
import { processesRoutes } from './processes.routes.js';

export default {
  name: 'processes',
  routes: processesRoutes,
  contentTypes: ['processes.process'],
} satisfies KestrelModule;
