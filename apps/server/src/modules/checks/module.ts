import type { FastifyInstance } from 'fastify';
import type { KestrelModule } from '../../platform/module.js';
import { checksRoutes } from './callbacks.js';
import { SIMULATOR_SECRET_NAMES } from './config.js';
import { CHECK_DEMO_RESULTS } from './demo-seeds.js';
import { kindEngine } from './kind-engine.js';
import { CHECK_KINDS } from './registry.js';
import { simulatorControlRoutes } from './simulator-control.js';

export default {
  name: 'checks',
  secrets: SIMULATOR_SECRET_NAMES,
  routes: async (app: FastifyInstance) => {
    await checksRoutes(app);
    await simulatorControlRoutes(app);
    // the kinds' own routes (an ops form's endpoint): a kind is its folder and its registry line
    for (const kind of Object.values(CHECK_KINDS)) await kind.routes?.(app, kindEngine);
  },
  // after the cases (100), the portal (105) and the case data (110): their completed checks
  seedOrder: 120,
  seedDemo: async (ctx) => {
    for (const seed of CHECK_DEMO_RESULTS) await seed(ctx);
  },
} satisfies KestrelModule;
