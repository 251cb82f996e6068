import type { FastifyInstance } from 'fastify';
import type { KestrelModule } from '../../platform/module.js';
import { seedTrustToRideDemo } from './demo.seed.js';
import { BOOKING_CT, SESSION_CT } from './sessions.service.js';
import { trustToRideSubjectRoutes } from './subject.routes.js';
import { trustToRideOpsRoutes } from './trust-to-ride.routes.js';

export default {
  name: 'trust-to-ride',
  contentTypes: [SESSION_CT, BOOKING_CT],
  routes: async (app: FastifyInstance) => {
    await trustToRideOpsRoutes(app);
    await trustToRideSubjectRoutes(app);
  },
  // after the cases (100) and the checks' results (120)
  seedOrder: 130,
  seedDemo: seedTrustToRideDemo,
} satisfies KestrelModule;
