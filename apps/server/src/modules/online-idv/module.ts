import type { KestrelModule } from '../../platform/module.js';
import { onlineIdvRoutes } from './online-idv.routes.js';
import { ONLINE_IDV_CONTENT_TYPE } from './online-idv.service.js';
import { IDV_SIMULATOR_SECRET } from './provider-of.js';
import { simulatorRoutes } from './simulator.routes.js';

export default {
  name: 'online-idv',
  routes: async (app) => {
    await onlineIdvRoutes(app);
    if (app.deps.config.idv.provider === 'simulator') await simulatorRoutes(app);
  },
  contentTypes: [ONLINE_IDV_CONTENT_TYPE],
  secrets: [IDV_SIMULATOR_SECRET],
} satisfies KestrelModule;
