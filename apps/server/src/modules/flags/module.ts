import type { KestrelModule } from '../../platform/module.js';
import { flagsRoutes } from './flags.routes.js';

export default {
  name: 'flags',
  routes: flagsRoutes,
} satisfies KestrelModule;
