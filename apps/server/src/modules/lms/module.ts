import type { KestrelModule } from '../../platform/module.js';
import { lmsPublicRoutes } from './lms.public.js';
import { lmsRoutes } from './lms.routes.js';
import { seedLmsDemo } from './lms.seed.js';
import { DEFINITION_CT, GROUP_CT, LICENCE_CT, PORTAL_CT, SUB_GROUP_CT } from './lms.service.js';

/**
 * Licensing, the council's side (issue 32): licence groups and sub-groups, licence definitions
 * with their requirements, application portals, and issued licences with their status trail.
 */
export default {
  name: 'lms',
  routes: async (app) => {
    await lmsRoutes(app);
    await lmsPublicRoutes(app);
  },
  contentTypes: [GROUP_CT, SUB_GROUP_CT, DEFINITION_CT, PORTAL_CT, LICENCE_CT],
  // Northgate Council's licensing: after the subjects and the ops customers' demo
  seedDemo: seedLmsDemo,
  seedOrder: 240,
} satisfies KestrelModule;
