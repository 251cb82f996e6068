import type { KestrelModule } from '../../platform/module.js';
import { casesRoutes } from './cases.routes.js';
import { seedWorkspaceDemo } from './cases.seed.js';

export default {
  name: 'cases',
  routes: casesRoutes,
  contentTypes: ['cases.case', 'cases.caseactivity'],
  seedDemo: seedWorkspaceDemo,
} satisfies KestrelModule;
