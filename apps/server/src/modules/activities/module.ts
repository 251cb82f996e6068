import type { FastifyInstance } from 'fastify';
import type { KestrelModule } from '../../platform/module.js';
import { activitiesRoutes } from './activities.routes.js';
import { activityClaimRoutes } from './activity-claims.js';
import { activityOpsRoutes } from './activity-ops.routes.js';

/** The case activity: its table, state machine, presenter and every route of it. */
export default {
  name: 'activities',
  routes: async (app: FastifyInstance) => {
    await activitiesRoutes(app);
    await activityOpsRoutes(app);
    await activityClaimRoutes(app);
  },
} satisfies KestrelModule;
