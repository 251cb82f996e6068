import type { KestrelModule } from '../../platform/module.js';
import { escalationRoutes } from './escalation.routes.js';

/** Expected completion dates of open checks and the escalation of overdue ones (issue 33). */
export default { name: 'escalation', routes: escalationRoutes } satisfies KestrelModule;
