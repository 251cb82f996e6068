import type { KestrelModule } from '../../platform/module.js';
import { licenceCheckRoutes } from '../checks/licence-check/davis-email.js';

/**
 * The driving licence check's own route (operations' Davis email confirmation): the kind lives
 * in checks/licence-check; module discovery reads only this level of folders.
 */
export default {
  name: 'licence-check',
  routes: licenceCheckRoutes,
} satisfies KestrelModule;
