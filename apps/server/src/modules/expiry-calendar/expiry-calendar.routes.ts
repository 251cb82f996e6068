import {
  expiryCalendarCsv,
  expiryCalendarOut,
  expiryCalendarQuery,
  expiryWindowEnd,
} from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { PermissionDeniedError } from '../../platform/errors.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { SUBJECT_CT } from '../subjects/subjects.service.js';
import { expiringItems, presentItem } from './expiry-calendar.service.js';
import { expiryFixturesRoutes } from './expiry-fixtures.routes.js';

const access = { permissions: ['subjects.view_subject'] } as const;

/**
 * The expiry calendar (issue 33): GET /api/expiry-calendar/ lists what expires in the next
 * `days` (90 unless asked, up to ten years: a mandate renewed today ends in three) by date and subject, filterable by kind and by a subject's name or
 * email; GET /api/expiry-calendar/export/ is the same as a CSV file (audited). Staff who see
 * subjects, of their own customer.
 */
export async function expiryCalendarRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  // the browser tests' fixture of a DVLA mandate due (nothing unless KESTREL_E2E_FIXTURES=1)
  await expiryFixturesRoutes(app);

  r.get(
    '/api/expiry-calendar/',
    {
      schema: {
        tags: ['subjects'],
        querystring: expiryCalendarQuery,
        response: { 200: expiryCalendarOut },
      },
      config: { access },
    },
    async (request) => {
      const q = request.query;
      return runInTenant(
        deps,
        actorOf(request),
        async ({ tx, clock }) => {
          const today = clock.now().toISOString().slice(0, 10);
          const until = expiryWindowEnd(today, q.days);
          const items = await expiringItems(tx, today, until, q);
          return { days: q.days, until, count: items.length, results: items.map(presentItem) };
        },
        readOnly,
      );
    },
  );

  r.get(
    '/api/expiry-calendar/export/',
    {
      schema: { tags: ['subjects'], querystring: expiryCalendarQuery },
      config: { access },
    },
    async (request, reply) => {
      const q = request.query;
      const csv = await runInTenant(deps, actorOf(request), async ({ tx, clock, actor }) => {
        // Ops staff export a customer's calendar once they act for it (the export is audited there).
        if (actor.customerId === null) throw new PermissionDeniedError();
        const today = clock.now().toISOString().slice(0, 10);
        const items = await expiringItems(tx, today, expiryWindowEnd(today, q.days), q);
        await recordAudit(tx, actor, {
          verb: 'exported',
          contentType: SUBJECT_CT,
          objectRepr: `Expiry calendar: ${items.length} items`,
          changes: { query: q, rows: items.length },
        });
        return expiryCalendarCsv(items.map(presentItem));
      });
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="expiry-calendar.csv"');
      return csv;
    },
  );
}
