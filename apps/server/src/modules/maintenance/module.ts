import type { KestrelModule } from '../../platform/module.js';
import { maintenanceRoutes } from './maintenance.routes.js';

export default { name: 'maintenance', routes: maintenanceRoutes } satisfies KestrelModule;
