import {
  APPLICATION_KIND_LABELS,
  formatPence,
  licenceDurationText,
  type PublicApplicationPortalOut,
  pageOut,
  publicApplicationPortalOut,
  publicCustomerOut,
  publicLicenceGroupOut,
  publicLicenceSubGroupOut,
} from '@kestrel/domain';
import { and, asc, eq, exists, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import { NotFoundError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { queryId } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { SYSTEM_TX } from '../../platform/service-context.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { customers } from '../customers/customers.table.js';
import {
  licenceDefinitions,
  licenceGroups,
  licenceSubGroups,
  lmsApplicationPortals,
} from './lms.table.js';

/*
 * The public side of licensing (issue 32, spec point 7: /api/lms/public/...): the council
 * browsing pages read what councils have published, and nothing else: no applicant, no licence,
 * no unpublished group, sub-group or definition, no closed portal. Run as the system (across
 * councils), every query filtered to published rows; rate-limited per address.
 */

const countOf = sql<number>`count(*)::int`.mapWith(Number);

/** A group that is published. */
const groupPublished = eq(licenceGroups.isPublished, true);
/** A sub-group that is published, in a published group. */
const subGroupPublished = and(
  eq(licenceSubGroups.isPublished, true),
  exists(
    sql`(select 1 from ${licenceGroups} g where g.customer_id = ${licenceSubGroups.customerId}
      and g.id = ${licenceSubGroups.groupId} and g.is_published)`,
  ),
) as SQL;

// ---- councils ----

/** Councils with at least one published group. */
const councilPublishes = exists(
  sql`(select 1 from ${licenceGroups} g where g.customer_id = ${customers.id} and g.is_published)`,
);

async function councils(tx: Tx, page: { pageSize: number; offset: number }, id?: number) {
  const where = id === undefined ? councilPublishes : and(councilPublishes, eq(customers.id, id));
  const [total] = await tx.select({ n: countOf }).from(customers).where(where);
  const rows = await tx
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(where)
    .orderBy(asc(customers.name), asc(customers.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return { count: total?.n ?? 0, results: rows };
}

// ---- groups and sub-groups ----

async function groups(
  tx: Tx,
  page: { pageSize: number; offset: number },
  filter: { customer?: number | null; id?: number },
) {
  const where = and(
    groupPublished,
    filter.customer ? eq(licenceGroups.customerId, filter.customer) : undefined,
    filter.id === undefined ? undefined : eq(licenceGroups.id, filter.id),
  );
  const [total] = await tx.select({ n: countOf }).from(licenceGroups).where(where);
  const rows = await tx
    .select()
    .from(licenceGroups)
    .where(where)
    .orderBy(asc(licenceGroups.name), asc(licenceGroups.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return {
    count: total?.n ?? 0,
    results: rows.map((r) => ({
      id: r.id,
      customer: r.customerId,
      name: r.name,
      description: r.description,
    })),
  };
}

async function subGroups(
  tx: Tx,
  page: { pageSize: number; offset: number },
  filter: { group?: number | null; id?: number },
) {
  const where = and(
    subGroupPublished,
    filter.group ? eq(licenceSubGroups.groupId, filter.group) : undefined,
    filter.id === undefined ? undefined : eq(licenceSubGroups.id, filter.id),
  );
  const [total] = await tx.select({ n: countOf }).from(licenceSubGroups).where(where);
  const rows = await tx
    .select()
    .from(licenceSubGroups)
    .where(where)
    .orderBy(asc(licenceSubGroups.name), asc(licenceSubGroups.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return {
    count: total?.n ?? 0,
    results: rows.map((r) => ({
      id: r.id,
      customer: r.customerId,
      group: r.groupId,
      name: r.name,
      description: r.description,
    })),
  };
}

// ---- application portals ----

/** Open portals of published definitions in published sub-groups (also the subject's list). */
export async function publicPortals(
  tx: Tx,
  page: { pageSize: number; offset: number },
  filter: {
    customer?: number | null;
    subGroup?: number | null;
    id?: number;
    /** Renewal portals of these definitions (the holder's "Renew"). */
    renewalOf?: number[];
  },
): Promise<{ count: number; results: PublicApplicationPortalOut[] }> {
  const where = and(
    eq(lmsApplicationPortals.isOpen, true),
    filter.renewalOf === undefined
      ? undefined
      : and(
          eq(lmsApplicationPortals.kind, 'renewal'),
          inArray(lmsApplicationPortals.definitionId, filter.renewalOf),
        ),
    eq(licenceDefinitions.isPublished, true),
    subGroupPublished,
    filter.customer ? eq(lmsApplicationPortals.customerId, filter.customer) : undefined,
    filter.subGroup ? eq(licenceSubGroups.id, filter.subGroup) : undefined,
    filter.id === undefined ? undefined : eq(lmsApplicationPortals.id, filter.id),
  );
  // a portal with its definition and sub-group (the count and the page join alike)
  const joined = <Q extends PgSelect>(q: Q) =>
    q
      .innerJoin(
        licenceDefinitions,
        and(
          eq(licenceDefinitions.customerId, lmsApplicationPortals.customerId),
          eq(licenceDefinitions.id, lmsApplicationPortals.definitionId),
        ),
      )
      .innerJoin(
        licenceSubGroups,
        and(
          eq(licenceSubGroups.customerId, licenceDefinitions.customerId),
          eq(licenceSubGroups.id, licenceDefinitions.subGroupId),
        ),
      )
      .where(where);
  const [total] = await joined(tx.select({ n: countOf }).from(lmsApplicationPortals).$dynamic());
  const rows = await joined(
    tx
      .select({
        portal: lmsApplicationPortals,
        definition: licenceDefinitions,
        subGroup: licenceSubGroups,
        customerName: customers.name,
      })
      .from(lmsApplicationPortals)
      .innerJoin(customers, eq(customers.id, lmsApplicationPortals.customerId))
      .$dynamic(),
  )
    .orderBy(asc(customers.name), asc(lmsApplicationPortals.title), asc(lmsApplicationPortals.id))
    .limit(page.pageSize)
    .offset(page.offset);
  const codes = [
    ...new Set(rows.flatMap((r) => r.definition.requirements.map((q) => q.activity_type))),
  ];
  const names = codes.length
    ? await tx
        .select({ code: activityTypes.code, name: activityTypes.name })
        .from(activityTypes)
        .where(inArray(activityTypes.code, codes))
    : [];
  return {
    count: total?.n ?? 0,
    results: rows.map(({ portal, definition, subGroup, customerName }) => ({
      id: portal.id,
      customer: portal.customerId,
      customer_name: customerName,
      group: subGroup.groupId,
      sub_group: subGroup.id,
      definition: definition.id,
      definition_name: definition.name,
      title: portal.title,
      introduction: portal.introduction,
      kind: portal.kind,
      kind_label: APPLICATION_KIND_LABELS[portal.kind],
      duration_text: licenceDurationText(definition.durationYears),
      fee_pence: portal.feePence,
      fee_display: formatPence(portal.feePence),
      requirements: definition.requirements.map(
        (q) => names.find((n) => n.code === q.activity_type)?.name ?? q.activity_type,
      ),
      documents: definition.documents,
      declarations: definition.declarations,
    })),
  };
}

// ---- routes ----

const ONE = { pageSize: 1, offset: 0 };

/** GET /api/lms/public/...: the council browsing pages' data (audience public by its path). */
export async function lmsPublicRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['lms'];
  const config = { access: { audience: 'public' as const } };
  /** Per address, per window: browsing, not scraping. */
  const limited = (request: FastifyRequest) =>
    deps.rateLimiter.hit([
      {
        key: `lms-public:ip:${request.ip}`,
        max: deps.config.rateLimits.publicReadsPerAddress,
      },
    ]);
  // across councils, read only: every query above keeps to published rows
  const read = <T>(fn: (tx: Tx) => Promise<T>) =>
    deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, fn);
  const first = async <T>(out: Promise<{ results: T[] }>): Promise<T> => {
    const [row] = (await out).results;
    if (!row) throw new NotFoundError();
    return row;
  };

  const list = <T extends z.ZodType>(
    path: string,
    out: T,
    query: z.ZodObject,
    fetch: (
      tx: Tx,
      page: { pageSize: number; offset: number },
      q: unknown,
    ) => Promise<{ count: number; results: z.output<T>[] }>,
    fetchOne: (tx: Tx, id: number) => Promise<{ results: z.output<T>[] }>,
  ) => {
    r.get(
      path,
      { schema: { tags, querystring: query, response: { 200: pageOut(out) } }, config },
      async (request) => {
        await limited(request);
        const page = listPage(request.query);
        const found = await read((tx) => fetch(tx, page, request.query));
        return pageResponse(request, path, page.page, page.pageSize, found.count, found.results);
      },
    );
    // untyped (a generic schema defeats the type provider); it still validates and serialises
    const detail: z.ZodType = out;
    app.get(
      `${path}:id/`,
      { schema: { tags, params: idParams, response: { 200: detail } }, config },
      async (request) => {
        await limited(request);
        const id = parseId((request.params as { id: string }).id);
        return first(read((tx) => fetchOne(tx, id)));
      },
    );
  };

  const opt = (d: string) => z.string().max(20).optional().describe(d);
  list(
    '/api/lms/public/customers/',
    publicCustomerOut,
    listQuerySchema,
    (tx, page) => councils(tx, page),
    (tx, id) => councils(tx, ONE, id),
  );
  list(
    '/api/lms/public/licence-groups/',
    publicLicenceGroupOut,
    listQuerySchema.extend({ customer: opt('one council id') }),
    (tx, page, q) => groups(tx, page, { customer: queryId(q, 'customer') }),
    (tx, id) => groups(tx, ONE, { id }),
  );
  list(
    '/api/lms/public/licence-sub-groups/',
    publicLicenceSubGroupOut,
    listQuerySchema.extend({ group: opt('one group id') }),
    (tx, page, q) => subGroups(tx, page, { group: queryId(q, 'group') }),
    (tx, id) => subGroups(tx, ONE, { id }),
  );
  list(
    '/api/lms/public/application-portals/',
    publicApplicationPortalOut,
    listQuerySchema.extend({
      customer: opt('one council id'),
      sub_group: opt('one sub-group id'),
    }),
    (tx, page, q) =>
      publicPortals(tx, page, {
        customer: queryId(q, 'customer'),
        subGroup: queryId(q, 'sub_group'),
      }),
    (tx, id) => publicPortals(tx, ONE, { id }),
  );
}
