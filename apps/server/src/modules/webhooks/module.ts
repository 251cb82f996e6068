import type { KestrelModule } from '../../platform/module.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { seedWebhooksDemo } from './webhooks.seed.js';
import { WEBHOOK_ENDPOINT_CT } from './webhooks.service.js';

export default {
  name: 'webhooks',
  routes: webhooksRoutes,
  contentTypes: [WEBHOOK_ENDPOINT_CT],
  seedDemo: seedWebhooksDemo,
  // after the customers' and users' demo data
  seedOrder: 220,
} satisfies KestrelModule;
