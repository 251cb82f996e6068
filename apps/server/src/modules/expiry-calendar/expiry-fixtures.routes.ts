import { DVLA_CONSENT_YEARS } from '@kestrel/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jobActor } from '../../jobs/service-job.js';
import { parseBody } from '../../platform/query-params.js';
import { runInTenant } from '../../platform/service-context.js';
import { e2eFixturesEnabled } from '../e2e-fixtures/e2e-fixtures.routes.js';
import { subjectConsents } from '../portal/consents.table.js';
import { runExpiryReminders } from './expiry-reminders-job.js';

/**
 * `POST {customer, days_left}` (browser tests only, with KESTREL_E2E_FIXTURES=1, as the other
 * test fixtures): the customer's DVLA mandates in force are moved back so that each ends in
 * `days_left` days (given 3 years before that), then the expiry calendar's reminders run for that
 * customer alone, now. A world's mandate due for renewal without moving the server's clock.
 */
export const DVLA_MANDATES_DUE_PATH = '/api/test-fixtures/dvla-mandates-due/';

const DAY = 86_400_000;

const mandatesDueIn = z.object({
  customer: z.number().int().positive(),
  days_left: z.number().int().min(-365).max(365),
});

/** Registers nothing unless KESTREL_E2E_FIXTURES=1. */
export async function expiryFixturesRoutes(app: FastifyInstance) {
  if (!e2eFixturesEnabled()) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    DVLA_MANDATES_DUE_PATH,
    {
      schema: { hide: true, body: mandatesDueIn },
      config: { access: { audience: 'public' } },
    },
    async (request) => {
      const input = parseBody(mandatesDueIn, request.body);
      const deps = app.deps;
      const moved = await runInTenant(deps, jobActor(input.customer), async ({ tx, clock }) => {
        const expiresAt = new Date(clock.now().getTime() + input.days_left * DAY);
        const givenAt = new Date(expiresAt);
        givenAt.setUTCFullYear(givenAt.getUTCFullYear() - DVLA_CONSENT_YEARS);
        const rows = await tx
          .update(subjectConsents)
          .set({ givenAt, expiresAt })
          .where(
            and(
              eq(subjectConsents.customerId, input.customer),
              eq(subjectConsents.kind, 'driver-data'),
              isNull(subjectConsents.withdrawnAt),
              isNull(subjectConsents.renewedAt),
            ),
          )
          .returning({ id: subjectConsents.id });
        return rows.length;
      });
      const { reminders } = await runExpiryReminders(deps, input.customer);
      return { consents: moved, reminders };
    },
  );
}
