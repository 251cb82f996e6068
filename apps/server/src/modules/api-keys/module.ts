import type { KestrelModule } from '../../platform/module.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { seedApiKeysDemo } from './api-keys.seed.js';
import { API_KEY_CT, API_KEY_PEPPER_SECRET } from './api-keys.service.js';

export default {
  name: 'api-keys',
  routes: apiKeysRoutes,
  contentTypes: [API_KEY_CT],
  secrets: [API_KEY_PEPPER_SECRET],
  seedDemo: seedApiKeysDemo,
  // after the customers' and users' demo data
  seedOrder: 220,
} satisfies KestrelModule;
