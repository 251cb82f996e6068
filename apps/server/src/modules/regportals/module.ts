import type { KestrelModule } from '../../platform/module.js';
import { REG_PORTAL_CT } from './portals.service.js';
import { REGISTRATION_PURPOSE, registrationPaymentPurpose } from './registration-payment.js';
import { REGISTRATION_CT } from './registrations.service.js';
import { regportalsRoutes } from './regportals.routes.js';
import { seedRegportalsDemo } from './regportals.seed.js';

/** Registration portals, self-initiate and portal registrations (issue 31). */
export default {
  name: 'regportals',
  routes: regportalsRoutes,
  contentTypes: [REG_PORTAL_CT, REGISTRATION_CT],
  seedDemo: seedRegportalsDemo,
  // a subject-paid registration's payment intent, settled by the payments webhook
  paymentPurposes: { [REGISTRATION_PURPOSE]: registrationPaymentPurpose },
  // after the workspace's processes, subjects and cases, and the segments
  seedOrder: 235,
} satisfies KestrelModule;
