import type { KestrelModule } from '../../platform/module.js';
import { accountsRoutes } from './accounts.routes.js';

export default {
  name: 'accounts',
  routes: accountsRoutes,
  contentTypes: ['users.productuser', 'users.subjectuser', 'customers.customer'],
} satisfies KestrelModule;
