import type { KestrelModule } from '../../platform/module.js';
import { retentionRoutes } from './retention.routes.js';
import { seedRetentionDemo } from './retention.seed.js';

/** Retention and automatic redaction (issue 34): rules, legal holds, the due job. */
export default {
  name: 'retention',
  routes: retentionRoutes,
  contentTypes: ['retention.retentionsettings', 'retention.caseretention', 'retention.expiry'],
  seedDemo: seedRetentionDemo,
  seedOrder: 900,
} satisfies KestrelModule;
