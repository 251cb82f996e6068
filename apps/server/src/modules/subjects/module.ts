import type { KestrelModule } from '../../platform/module.js';
import { subjectsRoutes } from './subjects.routes.js';

export default {
  name: 'subjects',
  routes: subjectsRoutes,
  contentTypes: ['subjects.subject'],
} satisfies KestrelModule;
