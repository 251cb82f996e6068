import type { KestrelModule } from '../../platform/module.js';
import { remindersRoutes } from './reminders.routes.js';

/** Reminders and the invitation lifecycle (issue 33): the due job, expiry, resend. */
export default { name: 'reminders', routes: remindersRoutes } satisfies KestrelModule;
