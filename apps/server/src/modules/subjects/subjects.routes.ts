import {
  detailOut,
  duplicatePairOut,
  pageOut,
  subjectCreate,
  subjectListFilters,
  subjectMerge,
  subjectOut,
  subjectUpdate,
} from '@kestrel/domain';
import { and, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { PermissionDeniedError } from '../../platform/errors.js';
import {
  listPage,
  type OrderingRule,
  pageResponse,
  parseOrdering,
  totalColumn,
} from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { queryDate, queryString } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { resendInvitation, resendInvitationRule } from './commands/resend-invitation.js';
import { subjectSearchCondition } from './subject-search.js';
import {
  archiveSubject,
  findDuplicates,
  getSubject,
  insertSubject,
  mergeSubjects,
  presentSubjects,
  type SubjectOut,
  subjectColumns,
  updateSubject,
} from './subjects.service.js';
import { subjects } from './subjects.table.js';

const view = { access: { permissions: ['subjects.view_subject' as const] } };
/** `?ordering=`: by name by default; the id tiebreaker always ascending. */
const ORDERING = {
  fields: {
    last_name: subjects.lastName,
    first_name: subjects.firstName,
    email: subjects.email,
    created_at: subjects.createdAt,
  },
  id: subjects.id,
  fallback: 'last_name,first_name',
  tiebreak: 'asc',
} satisfies OrderingRule;

/** `?is_archived=`: default unarchived only; `true` archived only; `all` both. */
function archivedCondition(raw: string | undefined): SQL | undefined {
  if (raw === 'all') return undefined;
  if (raw === 'true' || raw === 'True' || raw === '1') return isNotNull(subjects.archivedAt);
  return isNull(subjects.archivedAt);
}

/**
 * Filters by field name, as DRF's filterset fields: `email`, `first_name` and `last_name` match
 * the whole value in any case (on the lower-case columns: `lower()` in the query is not leakproof,
 * so under RLS no index would serve it), `dob` a date (YYYY-MM-DD, else 400).
 */
function fieldFilters(query: unknown): SQL[] {
  const out: SQL[] = [];
  const text = (name: string) => queryString(query, name)?.trim().toLowerCase() || undefined;
  const email = text('email');
  if (email) out.push(eq(subjects.searchEmail, email));
  const first = text('first_name');
  if (first) out.push(eq(subjects.searchFirst, first));
  const last = text('last_name');
  if (last) out.push(eq(subjects.searchLast, last));
  const dob = queryDate(query, 'dob');
  if (dob) out.push(eq(subjects.dob, dob.toISOString().slice(0, 10)));
  return out;
}

const duplicatesOut = pageOut(duplicatePairOut);

/** /api/subjects/: the customer's subjects, duplicates and merge. */
export async function subjectsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const clock = app.deps.clock;

  r.get(
    '/api/subjects/',
    {
      schema: {
        tags: ['subjects'],
        querystring: listQuerySchema.extend(subjectListFilters),
        response: { 200: pageOut(subjectOut) },
      },
      config: view,
    },
    async (request) => {
      const { page, pageSize, offset } = listPage(request.query);
      const result = await runInTenant(
        deps,
        actorOf(request),
        async ({ tx, actor }) => {
          const conds: (SQL | undefined)[] = [
            actor.customerId === null ? undefined : eq(subjects.customerId, actor.customerId),
            archivedCondition(queryString(request.query, 'is_archived')),
          ];
          const term = request.query.search?.trim();
          if (term) conds.push(subjectSearchCondition(term));
          conds.push(...fieldFilters(request.query));
          const where = and(...conds);
          const total = tx.select({ n: sql`count(*)` }).from(subjects).where(where);
          const rows = await tx
            .select({ s: subjectColumns, total: totalColumn(total) })
            .from(subjects)
            .where(where)
            .orderBy(...parseOrdering(request.query.ordering, ORDERING).order)
            .limit(pageSize)
            .offset(offset);
          return {
            count: rows[0]?.total ?? 0,
            results: await presentSubjects(
              tx,
              rows.map((x) => x.s),
            ),
          };
        },
        readOnly,
      );
      return pageResponse(request, '/api/subjects/', page, pageSize, result.count, result.results);
    },
  );

  r.post(
    '/api/subjects/',
    {
      schema: { tags: ['subjects'], body: subjectCreate, response: { 201: subjectOut } },
      config: { access: { permissions: ['subjects.add_subject'] } },
    },
    async (request, reply) => {
      const data = request.body;
      const out = await runInTenant(deps, actorOf(request), async ({ tx, actor }) => {
        if (actor.customerId === null) throw new PermissionDeniedError();
        const row = await insertSubject(tx, actor, actor.customerId, data);
        return (await presentSubjects(tx, [row]))[0];
      });
      reply.code(201);
      return out;
    },
  );

  const dedup = {
    access: {
      permissions: ['subjects.view_subject' as const],
      entitlements: ['subject_dedup' as const],
    },
  };
  const duplicates = (subjectId?: number) => async (request: FastifyRequest) => {
    const { page, pageSize, offset } = listPage(
      request.query as { page?: number; page_size?: number },
    );
    const result = await runInTenant(
      deps,
      actorOf(request),
      async ({ tx }) => {
        if (subjectId !== undefined) await getSubject(tx, subjectId);
        const found = await findDuplicates(tx, {
          ...(subjectId === undefined ? {} : { subjectId }),
          limit: pageSize,
          offset,
        });
        const ids = [...new Set(found.pairs.flatMap((p) => [p.a, p.b]))];
        const rows =
          ids.length === 0
            ? []
            : await tx.select(subjectColumns).from(subjects).where(inArray(subjects.id, ids));
        const byId = new Map<number, SubjectOut>(
          (await presentSubjects(tx, rows)).map((s) => [s.id, s]),
        );
        return {
          count: found.count,
          // Both subjects were read in the same transaction as the pairs.
          results: found.pairs.flatMap((p) => {
            const subject = byId.get(p.a);
            const duplicate = byId.get(p.b);
            return subject && duplicate ? [{ subject, duplicate, reasons: p.reasons }] : [];
          }),
        };
      },
      readOnly,
    );
    const path =
      subjectId === undefined
        ? '/api/subjects/duplicates/'
        : `/api/subjects/${subjectId}/duplicates/`;
    return pageResponse(request, path, page, pageSize, result.count, result.results);
  };

  r.get(
    '/api/subjects/duplicates/',
    {
      schema: {
        tags: ['subjects'],
        querystring: listQuerySchema,
        response: { 200: duplicatesOut },
      },
      config: dedup,
    },
    async (request) => duplicates()(request),
  );
  r.get(
    '/api/subjects/:id/duplicates/',
    {
      schema: {
        tags: ['subjects'],
        params: idParams,
        querystring: listQuerySchema,
        response: { 200: duplicatesOut },
      },
      config: dedup,
    },
    async (request) => duplicates(parseId(request.params.id))(request),
  );

  r.post(
    '/api/subjects/:id/merge/',
    {
      schema: {
        tags: ['subjects'],
        params: idParams,
        body: subjectMerge,
        response: { 200: subjectOut },
      },
      config: {
        access: {
          permissions: ['subjects.change_subject', 'subjects.archive'],
          entitlements: ['subject_dedup'],
        },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const data = request.body;
      return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        mergeSubjects(tx, actor, id, data.duplicate, clock.now()),
      );
    },
  );

  r.get(
    '/api/subjects/:id/',
    {
      schema: { tags: ['subjects'], params: idParams, response: { 200: subjectOut } },
      config: view,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(
        deps,
        actorOf(request),
        async ({ tx }) => (await presentSubjects(tx, [await getSubject(tx, id)]))[0],
        readOnly,
      );
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    r.route({
      method,
      url: '/api/subjects/:id/',
      schema: {
        tags: ['subjects'],
        params: idParams,
        body: method === 'PUT' ? subjectCreate : subjectUpdate,
        response: { 200: subjectOut },
      },
      config: { access: { permissions: ['subjects.change_subject'] } },
      handler: async (request) => {
        const id = parseId(request.params.id);
        const data = request.body;
        return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
          updateSubject(tx, actor, id, data),
        );
      },
    });
  }

  r.post(
    '/api/subjects/:id/archive/',
    {
      schema: { tags: ['subjects'], params: idParams, response: { 200: subjectOut } },
      config: { access: { permissions: ['subjects.archive'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        archiveSubject(tx, actor, id, clock.now()),
      );
    },
  );

  r.post(
    '/api/subjects/:id/resend-invitation/',
    {
      schema: { tags: ['subjects'], params: idParams, response: { 200: detailOut } },
      config: { access: { permissions: ['subjects.change_subject'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const actor = actorOf(request);
      if (actor.customerId !== null) {
        await deps.rateLimiter.hit([resendInvitationRule(actor.customerId, id)]);
      }
      return runInTenant(deps, actor, (ctx) =>
        resendInvitation(ctx, { publicUrl: deps.config.publicUrl }, id),
      );
    },
  );
  // The subject's consents: subject-consents.routes.ts. Its subscriptions (GET/POST
  // /api/subjects/{id}/subscriptions/): modules/cycles/cycles.routes.ts (issue 31).
}
