import type { KestrelModule } from '../../platform/module.js';
import { userRoutes } from './user.routes.js';
import { usersRoutes } from './users.routes.js';
import { seedUsersDemo } from './users.seed.js';

export default {
  name: 'users',
  routes: async (app) => {
    await userRoutes(app);
    await usersRoutes(app);
  },
  seedDemo: seedUsersDemo,
  // after the customers' demo data
  seedOrder: 205,
} satisfies KestrelModule;
