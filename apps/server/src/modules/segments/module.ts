import type { KestrelModule } from '../../platform/module.js';
import { segmentsRoutes } from './segments.routes.js';
import { seedSegmentsDemo } from './segments.seed.js';
import { SEGMENT_CT } from './segments.service.js';

export default {
  name: 'segments',
  routes: segmentsRoutes,
  contentTypes: [SEGMENT_CT],
  seedDemo: seedSegmentsDemo,
  // after the customers', users' and processes' demo data
  seedOrder: 210,
} satisfies KestrelModule;
