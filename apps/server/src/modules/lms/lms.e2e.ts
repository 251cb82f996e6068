import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import { NotFoundError } from '../../platform/errors.js';
import { runAsSystem, runInTenant } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { e2eFixturesEnabled } from '../e2e-fixtures/e2e-fixtures.routes.js';
import { lmsApplications } from './lms-applications.table.js';

export const APPLICATION_CHECKS_COMPLETE_PATH = '/api/test-fixtures/lms-application-checks/';

/**
 * Test-only endpoint for the browser tests of issue 32, served only with KESTREL_E2E_FIXTURES=1
 * (as modules/e2e-fixtures): every check of an application's case complete, the simulators'
 * outcome set directly (as the server tests' `completeChecks`), so a browser test can open an
 * application that is ready to grant without running each check's journey.
 */
export async function lmsE2eRoutes(app: FastifyInstance) {
  if (!e2eFixturesEnabled()) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;

  r.post(
    APPLICATION_CHECKS_COMPLETE_PATH,
    {
      schema: {
        hide: true,
        body: z.object({ application_id: z.number().int().positive() }),
      },
      config: { access: { audience: 'public' as const } },
    },
    async (request) => {
      const id = request.body.application_id;
      const [found] = await runAsSystem(deps, ({ tx }) =>
        tx
          .select({ customerId: lmsApplications.customerId, caseId: lmsApplications.caseId })
          .from(lmsApplications)
          .where(eq(lmsApplications.id, id)),
      );
      if (!found) throw new NotFoundError();
      const { customerId, caseId } = found;
      if (caseId === null) throw new NotFoundError('The application has no case yet.');
      const done = await runInTenant(deps, jobActor(customerId), ({ tx }) =>
        tx
          .update(caseActivities)
          .set({ state: 'ca-complete' })
          .where(and(eq(caseActivities.customerId, customerId), eq(caseActivities.caseId, caseId)))
          .returning({ id: caseActivities.id }),
      );
      return { case_id: caseId, completed: done.length };
    },
  );
}
