import { and, desc, eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { jobActor } from '../../jobs/service-job.js';
import { NotFoundError } from '../../platform/errors.js';
import { runAsSystem, runInTenant, SYSTEM_TX } from '../../platform/service-context.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';
import { e2eFixturesEnabled } from '../e2e-fixtures/e2e-fixtures.routes.js';
import { runRegistrationExpiry } from './expiry-job.js';
import { settleRegistrationPayment } from './registrations.service.js';
import { portalRegistrations } from './regportals.table.js';

export const REGISTRATION_LINK_PATH = '/api/test-fixtures/registration-confirmation/';
export const REGISTRATION_EXPIRY_PATH = '/api/test-fixtures/registration-expiry/';
export const REGISTRATION_PAYMENT_PATH = '/api/test-fixtures/registration-payment/';

/**
 * Test-only endpoints for the browser tests of issue 31, served only with KESTREL_E2E_FIXTURES=1
 * (as modules/e2e-fixtures): the confirmation link last emailed to an address (read from the
 * local outbox, where the default mail provider keeps every email), the expiry run at a given
 * 'now', and a registration's payment outcome settled as the payment webhook will settle it.
 */
export async function regportalsE2eRoutes(app: FastifyInstance) {
  if (!e2eFixturesEnabled()) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;
  const config = { access: { audience: 'public' as const } };

  r.get(
    REGISTRATION_LINK_PATH,
    {
      schema: { hide: true, querystring: z.object({ email: z.string().min(3).max(254) }) },
      config,
    },
    async (request) => {
      const to = request.query.email.toLowerCase();
      const [m] = await deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, (tx) =>
        tx
          .select({ text: outboxEmails.text })
          .from(outboxEmails)
          .where(and(eq(outboxEmails.to, to), like(outboxEmails.text, '%?confirm=%')))
          .orderBy(desc(outboxEmails.id))
          .limit(1),
      );
      const url = m?.text.match(/https?:\/\/\S+\?confirm=[^\s&]+/)?.[0];
      if (!url) throw new NotFoundError('No confirmation email to this address yet.');
      const token = decodeURIComponent(new URL(url).searchParams.get('confirm') ?? '');
      return { url, path: url.replace(/^https?:\/\/[^/]+/, ''), token };
    },
  );

  r.post(
    REGISTRATION_EXPIRY_PATH,
    {
      schema: { hide: true, body: z.object({ now: z.iso.datetime({ offset: true }) }) },
      config,
    },
    async (request) => ({
      expired: await runRegistrationExpiry(deps, new Date(request.body.now)),
    }),
  );

  r.post(
    REGISTRATION_PAYMENT_PATH,
    {
      schema: {
        hide: true,
        body: z.object({
          registration_id: z.number().int().positive(),
          outcome: z.enum(['paid', 'declined']),
        }),
      },
      config,
    },
    async (request) => {
      const id = request.body.registration_id;
      const [found] = await runAsSystem(deps, ({ tx }) =>
        tx
          .select({ customerId: portalRegistrations.customerId })
          .from(portalRegistrations)
          .where(eq(portalRegistrations.id, id)),
      );
      if (!found) throw new NotFoundError();
      const row = await runInTenant(deps, jobActor(found.customerId), (ctx) =>
        settleRegistrationPayment(
          ctx,
          { publicUrl: deps.config.publicUrl },
          id,
          request.body.outcome,
        ),
      );
      return { state: row.state, case_id: row.caseId };
    },
  );
}
