import type { KestrelModule } from '../../platform/module.js';
import { opsRoutes } from './ops.routes.js';

export default { name: 'ops', routes: opsRoutes } satisfies KestrelModule;
