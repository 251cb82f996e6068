import type { KestrelModule } from '../../platform/module.js';
import { seedSsoDemo } from './demo.seed.js';
import { devProviderEnabled, devProviderRoutes } from './dev-provider.routes.js';
import { ssoRoutes } from './sso.routes.js';
import { SSO_CONTENT_TYPE } from './sso.service.js';

export default {
  name: 'sso',
  routes: async (app) => {
    await ssoRoutes(app);
    if (devProviderEnabled()) await devProviderRoutes(app);
  },
  contentTypes: [SSO_CONTENT_TYPE],
  seedDemo: seedSsoDemo,
} satisfies KestrelModule;
