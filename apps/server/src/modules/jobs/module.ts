import type { KestrelModule } from '../../platform/module.js';
import { jobsRoutes } from './jobs.routes.js';

export default { name: 'jobs', routes: jobsRoutes } satisfies KestrelModule;
