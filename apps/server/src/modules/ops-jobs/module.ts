import type { KestrelModule } from '../../platform/module.js';
import { opsJobsRoutes } from './ops-jobs.routes.js';
import { JOB_CT } from './ops-jobs.service.js';

/** Operations' dead jobs (issue 33): retry and discard (the list is modules/jobs'). */
export default {
  name: 'ops-jobs',
  routes: opsJobsRoutes,
  contentTypes: [JOB_CT],
} satisfies KestrelModule;
