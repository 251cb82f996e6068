import {
  casePortalOut,
  dvlaReconsentCreate,
  portalProgressPatch,
  subjectCaseListOut,
  subjectCaseOut,
  subjectConsentCreate,
  subjectConsentListOut,
  subjectConsentOut,
} from '@kestrel/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { NotFoundError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import {
  caseOfSubjectRecord,
  runForSubjectCase,
  runSystemForSubjectCase,
  subjectCustomerIds,
} from '../../platform/subject-access.js';
import { cases } from '../cases/cases.table.js';
import { renewDvlaMandate } from '../expiry-calendar/dvla-reconsent.service.js';
import { consentsInTenant, giveConsent, withdrawConsent } from './consents.service.js';
import {
  caseFacts,
  portalPayload,
  saveProgress,
  subjectCase,
  submitPortal,
} from './portal.service.js';

const subject = { access: { audience: 'subject' as const } };
/** A portal write: the subject's own open case, not submitted (platform/subject-access.ts). */
const write = { intent: 'write' as const };
const page = <T>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

/**
 * The subject portal's API (spec points 2, 3, 4 and 7), across every customer holding the person
 * (decision 005): each case is read in its own customer's tenant, writes go through the portal
 * service after checking the case is the subject's own.
 */
export async function portalRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['subject portal'];

  const payload = (actor: ReturnType<typeof actorOf>, caseId: number) =>
    runForSubjectCase(deps, actor, caseId, (ctx) => portalPayload(ctx, caseId), readOnly);

  r.get(
    '/api/s/case-portal/:id/',
    { schema: { tags, params: idParams, response: { 200: casePortalOut } }, config: subject },
    async (request) => payload(actorOf(request), parseId(request.params.id)),
  );

  r.patch(
    '/api/s/case-portal/:id/',
    {
      schema: {
        tags,
        params: idParams,
        body: portalProgressPatch,
        response: { 200: casePortalOut },
      },
      config: subject,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const actor = actorOf(request);
      const value = request.body.portal_last_completed_section;
      await runForSubjectCase(deps, actor, id, (ctx) => saveProgress(ctx, id, value), write);
      return payload(actor, id);
    },
  );

  r.post(
    '/api/s/case-portal/:id/submit/',
    { schema: { tags, params: idParams, response: { 200: casePortalOut } }, config: subject },
    async (request) => {
      const id = parseId(request.params.id);
      const actor = actorOf(request);
      // submitting moves the case's activities on: the check engine's transition, run as the
      // system on behalf of the subject once the policy allowed it (its own open case)
      await runSystemForSubjectCase(deps, actor, id, (ctx) => submitPortal(ctx, id));
      return payload(actor, id);
    },
  );

  // The person's cases, every customer's, oldest first (unarchived; finished ones included).
  r.get(
    '/api/s/cases/',
    {
      schema: { tags, querystring: listQuerySchema, response: { 200: subjectCaseListOut } },
      config: subject,
    },
    async (request) => {
      const { page: number, pageSize, offset } = listPage(request.query);
      const actor = actorOf(request);
      const out = [];
      for (const customerId of await subjectCustomerIds(deps, actor)) {
        const list = await runInTenant(
          deps,
          { ...actor, customerId },
          async ({ tx }) => {
            const ids = await tx
              .select({ id: cases.id })
              .from(cases)
              .where(and(eq(cases.customerId, customerId), isNull(cases.archivedAt)));
            return (
              await caseFacts(
                tx,
                ids.map((x) => x.id),
              )
            ).map(subjectCase);
          },
          readOnly,
        );
        out.push(...list);
      }
      out.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
      const rows = out.slice(offset, offset + pageSize);
      return pageResponse(request, '/api/s/cases/', number, pageSize, out.length, rows);
    },
  );

  r.get(
    '/api/s/cases/:id/',
    { schema: { tags, params: idParams, response: { 200: subjectCaseOut } }, config: subject },
    async (request) => {
      const id = parseId(request.params.id);
      return runForSubjectCase(
        deps,
        actorOf(request),
        id,
        async ({ tx }) => {
          const [facts] = await caseFacts(tx, [id]);
          if (!facts) throw new NotFoundError();
          return subjectCase(facts);
        },
        { readOnly: true, intent: 'any' },
      );
    },
  );

  /** The person's consents at every customer, oldest first. */
  const allConsents = async (actor: ReturnType<typeof actorOf>) => {
    const out = [];
    for (const customerId of await subjectCustomerIds(deps, actor)) {
      out.push(
        ...(await runInTenant(
          deps,
          { ...actor, customerId },
          ({ tx, clock }) => consentsInTenant(tx, clock.now()),
          readOnly,
        )),
      );
    }
    return out.sort((a, b) => a.given_at.localeCompare(b.given_at) || a.id - b.id);
  };

  r.get(
    '/api/s/consents/',
    { schema: { tags, response: { 200: subjectConsentListOut } }, config: subject },
    async (request) => page(await allConsents(actorOf(request))),
  );

  // The driving licence consents due for renewal (expiring or expired): what the dashboard
  // prompts for and /s/dvla-reconsent renews.
  r.get(
    '/api/s/dvla-reconsent/',
    { schema: { tags, response: { 200: subjectConsentListOut } }, config: subject },
    async (request) =>
      page(
        (await allConsents(actorOf(request))).filter(
          (c) => c.kind === 'driver-data' && (c.status === 'expiring' || c.status === 'expired'),
        ),
      ),
  );

  r.post(
    '/api/s/consents/',
    {
      schema: { tags, body: subjectConsentCreate, response: { 201: subjectConsentOut } },
      config: subject,
    },
    async (request, reply) => {
      const out = await runForSubjectCase(
        deps,
        actorOf(request),
        request.body.case,
        (ctx) => giveConsent(ctx, request.body),
        write,
      );
      return reply.code(201).send(out);
    },
  );

  r.post(
    '/api/s/consents/:id/withdraw/',
    { schema: { tags, params: idParams, response: { 200: subjectConsentOut } }, config: subject },
    async (request) => {
      const id = parseId(request.params.id);
      // a consent outlives the portal: withdrawn after submission too
      // withdrawing moves the activity to the customer's attention (the engine's transition):
      // the system on behalf of the subject, once the policy allowed the consent's case
      const actor = actorOf(request);
      const caseId = await caseOfSubjectRecord(deps, actor, 'subject_consents', id);
      if (caseId === null) throw new NotFoundError();
      return runSystemForSubjectCase(deps, actor, caseId, (ctx) => withdrawConsent(ctx, id), {
        intent: 'any',
      });
    },
  );

  r.post(
    '/api/s/dvla-reconsent/',
    {
      schema: { tags, body: dvlaReconsentCreate, response: { 201: subjectConsentOut } },
      config: subject,
    },
    async (request, reply) => {
      // the system on behalf of the subject (as a withdrawal), once the policy allowed the
      // consent's case: the renewal also tells the customer's administrators
      const actor = actorOf(request);
      const id = request.body.consent;
      const caseId = await caseOfSubjectRecord(deps, actor, 'subject_consents', id);
      if (caseId === null) throw new NotFoundError();
      const out = await runSystemForSubjectCase(
        deps,
        actor,
        caseId,
        (ctx) => renewDvlaMandate(ctx, { publicUrl: deps.config.publicUrl }, id),
        { intent: 'any' },
      );
      return reply.code(201).send(out);
    },
  );
}
