import type { KestrelModule } from '../../platform/module.js';
import { bulkInviteRoutes } from './bulk-invite.routes.js';

/** Bulk invite from a CSV (issue 33): a case each for the people of a file, under one process. */
export default { name: 'bulk-invite', routes: bulkInviteRoutes } satisfies KestrelModule;
