import type { FastifyInstance } from 'fastify';
import type { KestrelModule } from '../../platform/module.js';
import { dataArchiveRoutes } from './data-archive.routes.js';
import { seedDataRequestsDemo } from './data-requests.seed.js';
import { erasureRoutes } from './erasure.routes.js';
import { ERASURE_REQUEST_CT } from './erasure-requests.table.js';

/** Subject access (the data archive) and erasure requests (issue 34). */
export default {
  name: 'data-requests',
  routes: async (app: FastifyInstance) => {
    await dataArchiveRoutes(app);
    await erasureRoutes(app);
  },
  contentTypes: [ERASURE_REQUEST_CT],
  seedDemo: seedDataRequestsDemo,
  // after the subjects' and the documents' demo data
  seedOrder: 400,
} satisfies KestrelModule;
