import type { KestrelModule } from '../../platform/module.js';
import { identityRoutes } from './identity.routes.js';
import { onlineIdvRoutes } from './online-idv.routes.js';
import { ONLINE_IDV_CONTENT_TYPE } from './online-idv.service.js';
import { idvSimulated } from './provider-of.js';
import { simulatorRoutes } from './simulator.routes.js';

export default {
  name: 'online-idv',
  routes: async (app) => {
    await onlineIdvRoutes(app);
    await identityRoutes(app);
    if (idvSimulated(app.deps)) await simulatorRoutes(app);
  },
  contentTypes: [ONLINE_IDV_CONTENT_TYPE],
} satisfies KestrelModule;
