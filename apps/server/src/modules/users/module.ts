import type { KestrelModule } from '../../platform/module.js';
import { userRoutes } from './user.routes.js';

export default {
  name: 'users',
  routes: userRoutes,
  contentTypes: ['users.role'],
} satisfies KestrelModule;
