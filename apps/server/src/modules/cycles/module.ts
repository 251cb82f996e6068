import type { KestrelModule } from '../../platform/module.js';
import { cyclesRoutes } from './cycles.routes.js';
import { seedCyclesDemo } from './cycles.seed.js';
import { CYCLE_CT } from './cycles.service.js';
import { SUBSCRIPTION_CT } from './subscriptions.service.js';

/** Cycles and subscriptions (issue 31): checks that repeat on a schedule. */
export default {
  name: 'cycles',
  routes: cyclesRoutes,
  contentTypes: [CYCLE_CT, SUBSCRIPTION_CT],
  seedDemo: seedCyclesDemo,
  // after the workspace's processes and subjects (cases) and the pricebooks
  seedOrder: 230,
} satisfies KestrelModule;
