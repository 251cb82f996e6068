import type { KestrelModule } from '../../platform/module.js';
import { outboxRoutes } from './outbox.routes.js';

export default { name: 'outbox', routes: outboxRoutes } satisfies KestrelModule;
