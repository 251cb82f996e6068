import type { KestrelModule } from '../../platform/module.js';
import { dbsDetailsRoutes } from './dbs-details.routes.js';
import { DBS_DETAILS_CONTENT_TYPE, RTW_DETAILS_CONTENT_TYPE } from './dbs-details.service.js';

export default {
  name: 'dbs-details',
  routes: dbsDetailsRoutes,
  contentTypes: [DBS_DETAILS_CONTENT_TYPE, RTW_DETAILS_CONTENT_TYPE],
} satisfies KestrelModule;
