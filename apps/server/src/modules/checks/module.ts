import type { FastifyInstance } from 'fastify';
import type { KestrelModule } from '../../platform/module.js';
import { checksRoutes } from './callbacks.js';
import { simulatorControlRoutes } from './simulator-control.js';

export default {
  name: 'checks',
  routes: async (app: FastifyInstance) => {
    await checksRoutes(app);
    await simulatorControlRoutes(app);
  },
} satisfies KestrelModule;
