import type { KestrelModule } from '../../platform/module.js';
import { ssoRoutes } from './sso.routes.js';
import { SSO_CONTENT_TYPE } from './sso.service.js';

export default {
  name: 'sso',
  routes: ssoRoutes,
  contentTypes: [SSO_CONTENT_TYPE],
} satisfies KestrelModule;
