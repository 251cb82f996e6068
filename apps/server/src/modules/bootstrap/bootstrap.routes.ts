import {
  activeFlagsOut,
  activityTypeOut,
  contentTypeOut,
  countryMapOut,
  entitlementOut,
  verbOut,
} from '@kestrel/domain';
import { asc, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { registerResource } from '../../platform/resource-router.js';
import { customerTx, runInTenant } from '../../platform/service-context.js';
import { customerEntitlements } from '../customers/customers.table.js';
import { activityTypes, contentTypes, countries, verbs } from './bootstrap.table.js';

const countryMap = countryMapOut;

/** Bootstrap data the web app loads after login. */
export async function bootstrapRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const [path, audience] of [
    ['/api/content-types/', 'product'],
    ['/api/s/content-types/', 'subject'],
  ] as const) {
    registerResource(app, {
      path,
      table: contentTypes,
      id: contentTypes.id,
      contentType: 'contenttypes.contenttype',
      operations: ['list', 'retrieve'],
      access: { read: { audience } },
      present: (c) => ({ id: c.id, app_label: c.appLabel, model: c.model }),
      output: contentTypeOut,
      filters: { app_label: contentTypes.appLabel, model: contentTypes.model },
      defaultOrdering: 'id',
    });
  }

  registerResource(app, {
    path: '/api/activity-types/',
    table: activityTypes,
    id: activityTypes.id,
    contentType: 'activities.activitytype',
    operations: ['list', 'retrieve'],
    access: { read: { audience: 'authenticated' } },
    present: (t) => ({ id: t.id, code: t.code, name: t.name, kind: t.kind }),
    output: activityTypeOut,
    filters: { code: activityTypes.code, kind: activityTypes.kind },
    search: [activityTypes.name, activityTypes.code],
    ordering: { name: activityTypes.name, code: activityTypes.code },
    defaultOrdering: 'id',
    // The session customer's types (RLS limits customer_activity_types); ops outside a customer see all.
    where: ({ actor }): SQL | undefined =>
      actor.isOps && actor.customerId === null
        ? undefined
        : sql`exists (select 1 from customer_activity_types cat
               where cat.activity_type_id = ${activityTypes.id} and cat.enabled)`,
  });

  registerResource(app, {
    path: '/api/verbs/',
    table: verbs,
    id: verbs.id,
    contentType: 'audit.verb',
    operations: ['list', 'retrieve'],
    access: { read: { audience: 'authenticated' } },
    present: (v) => ({ id: v.id, code: v.code, name: v.name }),
    output: verbOut,
    defaultOrdering: 'id',
  });

  registerResource(app, {
    path: '/api/entitlements/',
    table: customerEntitlements,
    id: customerEntitlements.id,
    contentType: 'customers.entitlement',
    operations: ['list', 'retrieve'],
    access: { read: { audience: 'authenticated' } },
    present: (e) => ({ id: e.id, entitlement: e.entitlement }),
    output: entitlementOut,
    defaultOrdering: 'id',
  });

  r.get(
    '/api/flags/active-count/',
    {
      schema: { tags: ['flags'], response: { 200: activeFlagsOut } },
      config: { access: { permissions: ['flags.view_flag'] } },
    },
    async (request) => {
      const customerId = request.session?.customerId ?? null;
      if (customerId === null) return { active: 0 };
      // read as the user: one limited to segments counts only their cases' flags (as check-session)
      const rows = await app.deps.db.readInline(
        { ...customerTx(customerId), userId: request.session?.user?.id ?? null },
        'select count(*)::int as n from flags where active',
      );
      return { active: Number(rows[0]?.n ?? 0) };
    },
  );

  const countriesHandler = async (request: FastifyRequest) => {
    const rows = await runInTenant(app.deps, actorOf(request), ({ tx }) =>
      tx.select().from(countries).orderBy(asc(countries.sortOrder), asc(countries.name)),
    );
    return Object.fromEntries(
      rows.map((c) => [
        c.code,
        {
          name: c.name,
          nationality: c.nationality,
          deprecated: c.deprecated,
          ebulk_missing: c.ebulkMissing,
        },
      ]),
    );
  };
  r.get(
    '/api/countries/',
    {
      schema: { tags: ['bootstrap'], response: { 200: countryMap } },
      config: { access: { audience: 'authenticated' } },
    },
    countriesHandler,
  );
  r.get(
    '/api/s/cases/country-map/',
    { schema: { tags: ['bootstrap'], response: { 200: countryMap } } },
    countriesHandler,
  );
}
