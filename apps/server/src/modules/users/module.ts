import type { KestrelModule } from '../../platform/module.js';
import { userRoutes } from './user.routes.js';
import { usersRoutes } from './users.routes.js';

export default {
  name: 'users',
  routes: async (app) => {
    await userRoutes(app);
    await usersRoutes(app);
  },
} satisfies KestrelModule;
