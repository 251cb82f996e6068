import type { KestrelModule } from '../../platform/module.js';
import { bootstrapRoutes } from './bootstrap.routes.js';

export default {
  name: 'bootstrap',
  routes: bootstrapRoutes,
  contentTypes: ['flags.flag'],
} satisfies KestrelModule;
