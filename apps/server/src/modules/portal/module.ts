import type { KestrelModule } from '../../platform/module.js';
import { CONSENT_CT } from './consents.service.js';
import { portalRoutes } from './portal.routes.js';
import { seedPortalDemo } from './portal.seed.js';

export default {
  name: 'portal',
  routes: portalRoutes,
  contentTypes: [CONSENT_CT],
  seedDemo: seedPortalDemo,
  // after the workspace (100), before the case data (110): its case gets case data too
  seedOrder: 105,
} satisfies KestrelModule;
