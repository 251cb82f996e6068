import type { KestrelModule } from '../../platform/module.js';
import { seedExpiryDemo } from './demo.seed.js';
import { expiryCalendarRoutes } from './expiry-calendar.routes.js';

/** The expiry calendar (issue 33): what runs out in the next 90 days, and its reminders' job. */
export default {
  name: 'expiry-calendar',
  routes: expiryCalendarRoutes,
  // after the core seed's cases and the case data's demo
  seedOrder: 960,
  seedDemo: seedExpiryDemo,
} satisfies KestrelModule;
