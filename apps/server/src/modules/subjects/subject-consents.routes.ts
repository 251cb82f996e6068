import {
  CONSENT_KIND_LABELS,
  CONSENT_KINDS,
  type ConsentKind,
  consentListFilters,
  pageOut,
  type StaffConsentOut,
  staffConsentOut,
} from '@kestrel/domain';
import { and, asc, desc, eq, gt, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/connection.js';
import { actorOf } from '../../platform/access.js';
import { iso } from '../../platform/clock.js';
import { listPage, pageResponse, totalColumn } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { consentStatus } from '../portal/consents.service.js';
import { subjectConsents } from '../portal/consents.table.js';
import { getSubject } from './subjects.service.js';
import { subjects } from './subjects.table.js';

const view = { access: { permissions: ['subjects.view_subject' as const] } };
const tags = ['subjects'];
const isKind = (k: string): k is ConsentKind => (CONSENT_KINDS as readonly string[]).includes(k);

/**
 * The consents subjects gave in the portal (portal module's subject_consents), as the customer's
 * staff see them: the tenant's rows under RLS (a user limited to segments sees only their
 * segments' cases'), renewed ones left out (the renewal carries on). Expiring soonest first,
 * those without an end next, withdrawn ones last; then the newest given.
 */
async function listConsents(
  tx: Tx,
  now: Date,
  filter: { subject?: number; kind?: ConsentKind; state?: 'given' | 'withdrawn' | 'expired' },
  page: { limit: number; offset: number } | null,
): Promise<{ count: number; results: StaffConsentOut[] }> {
  const state: SQL | undefined =
    filter.state === 'withdrawn'
      ? isNotNull(subjectConsents.withdrawnAt)
      : filter.state === 'expired'
        ? and(isNull(subjectConsents.withdrawnAt), lte(subjectConsents.expiresAt, now))
        : filter.state === 'given'
          ? and(
              isNull(subjectConsents.withdrawnAt),
              or(isNull(subjectConsents.expiresAt), gt(subjectConsents.expiresAt, now)),
            )
          : undefined;
  const where = and(
    isNull(subjectConsents.renewedAt),
    filter.kind ? eq(subjectConsents.kind, filter.kind) : undefined,
    filter.subject !== undefined ? eq(cases.subjectId, filter.subject) : undefined,
    state,
  );
  const total = tx
    .select({ n: sql`count(*)` })
    .from(subjectConsents)
    .innerJoin(
      cases,
      and(eq(cases.customerId, subjectConsents.customerId), eq(cases.id, subjectConsents.caseId)),
    )
    .where(where);
  const q = tx
    .select({
      c: subjectConsents,
      subjectId: subjects.id,
      firstName: subjects.firstName,
      lastName: subjects.lastName,
      activityTypeName: activityTypes.name,
      total: totalColumn(total),
    })
    .from(subjectConsents)
    .innerJoin(
      cases,
      and(eq(cases.customerId, subjectConsents.customerId), eq(cases.id, subjectConsents.caseId)),
    )
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .innerJoin(
      caseActivities,
      and(
        eq(caseActivities.customerId, subjectConsents.customerId),
        eq(caseActivities.id, subjectConsents.caseActivityId),
      ),
    )
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(where)
    .orderBy(
      sql`${subjectConsents.withdrawnAt} is not null`,
      sql`${subjectConsents.expiresAt} asc nulls last`,
      desc(subjectConsents.givenAt),
      asc(subjectConsents.id),
    );
  const rows = page ? await q.limit(page.limit).offset(page.offset) : await q;
  return {
    count: rows[0]?.total ?? 0,
    results: rows.map(({ c, subjectId, firstName, lastName, activityTypeName }) => {
      const kind = isKind(c.kind) ? c.kind : 'dbs-application';
      return {
        id: c.id,
        subject: { id: subjectId, name: `${firstName} ${lastName}`.trim() },
        case: c.caseId,
        case_activity: c.caseActivityId,
        activity_type_name: activityTypeName,
        kind,
        kind_display: CONSENT_KIND_LABELS[kind],
        given_at: c.givenAt.toISOString(),
        expires_at: iso(c.expiresAt),
        withdrawn_at: iso(c.withdrawnAt),
        status: consentStatus(c, now),
      };
    }),
  };
}

/** GET /api/consents/ (across subjects) and /api/subjects/{id}/consents/ (issue 30). */
export async function subjectConsentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/consents/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend(consentListFilters.shape),
        response: { 200: pageOut(staffConsentOut) },
      },
      config: view,
    },
    async (request) => {
      const { page, pageSize, offset } = listPage(request.query);
      const { kind, state } = request.query;
      const result = await runInTenant(
        deps,
        actorOf(request),
        ({ tx, clock }) =>
          listConsents(
            tx,
            clock.now(),
            { ...(kind ? { kind } : {}), ...(state ? { state } : {}) },
            { limit: pageSize, offset },
          ),
        readOnly,
      );
      return pageResponse(request, '/api/consents/', page, pageSize, result.count, result.results);
    },
  );

  r.get(
    '/api/subjects/:id/consents/',
    {
      schema: {
        tags,
        params: idParams,
        querystring: listQuerySchema.extend(consentListFilters.shape),
        response: { 200: pageOut(staffConsentOut) },
      },
      config: view,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const { page, pageSize, offset } = listPage(request.query);
      const { kind, state } = request.query;
      const result = await runInTenant(
        deps,
        actorOf(request),
        async ({ tx, clock }) => {
          await getSubject(tx, id); // 404 for another tenant's or an unknown subject
          return listConsents(
            tx,
            clock.now(),
            { subject: id, ...(kind ? { kind } : {}), ...(state ? { state } : {}) },
            { limit: pageSize, offset },
          );
        },
        readOnly,
      );
      return pageResponse(
        request,
        `/api/subjects/${id}/consents/`,
        page,
        pageSize,
        result.count,
        result.results,
      );
    },
  );
}
