import type { KestrelModule } from '../../platform/module.js';
import { applicationPaidJob } from './application-paid-job.js';
import { lmsPublicRoutes } from './lms.public.js';
import { lmsRoutes } from './lms.routes.js';
import { seedLmsDemo } from './lms.seed.js';
import { DEFINITION_CT, GROUP_CT, LICENCE_CT, PORTAL_CT, SUB_GROUP_CT } from './lms.service.js';
import { lmsApplicationRoutes } from './lms-applications.routes.js';
import { APPLICATION_CT, FEE_PURPOSE } from './lms-applications.service.js';
import { lmsSignUpRoutes } from './lms-signup.routes.js';
import { updateServiceCatchUp } from './update-service-cycles-job.js';

/**
 * Licensing, the council's side (issue 32): licence groups and sub-groups, licence definitions
 * with their requirements, application portals, and issued licences with their status trail.
 */
export default {
  name: 'lms',
  routes: async (app) => {
    await lmsRoutes(app);
    await lmsPublicRoutes(app);
    await lmsApplicationRoutes(app);
    await lmsSignUpRoutes(app);
    // a server started after a missed 06:30 run makes the update service cycles up soon after
    // (the queue is started by then: the root's onReady hooks run before a module's)
    app.addHook('onReady', async () => {
      if (app.deps.config.startupCatchUp) await updateServiceCatchUp(app.deps);
    });
  },
  contentTypes: [GROUP_CT, SUB_GROUP_CT, DEFINITION_CT, PORTAL_CT, LICENCE_CT, APPLICATION_CT],
  // Northgate Council's licensing: after the subjects and the ops customers' demo
  seedDemo: seedLmsDemo,
  seedOrder: 240,
  // an application's fee paid through the payment portal: its case opened by a job in the
  // council's tenant (declined: the applicant pays again with a new intent)
  paymentPurposes: {
    [FEE_PURPOSE]: {
      settle: async (ctx, intent, outcome) => {
        if (outcome !== 'paid' || intent.purposeId === null) return;
        await ctx.enqueue(applicationPaidJob(intent.customerId, intent.purposeId, intent.publicId));
      },
    },
  },
} satisfies KestrelModule;
