import type { KestrelModule } from '../../platform/module.js';
import { auditRoutes } from './audit.routes.js';

export default { name: 'audit', routes: auditRoutes } satisfies KestrelModule;
