import {
  erasureDecision,
  erasureListFilters,
  erasureRequestCreate,
  erasureRequestOut,
  pageOut,
  type SubjectErasureRequestOut,
  subjectErasureRequestCreate,
  subjectErasureRequestOut,
} from '@kestrel/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runAsSystem, runInTenant } from '../../platform/service-context.js';
import { subjectCustomerIds, subjectLogin } from '../../platform/subject-access.js';
import { customers } from '../customers/customers.table.js';
import { subjects } from '../subjects/subjects.table.js';
import { closeSignInAfterErasure } from './close-sign-in.js';
import {
  decideErasureRequest,
  ERASURE_STATE_WORDS,
  getErasureRequest,
  listErasureRequests,
  presentErasureRequest,
  recordErasureRequest,
} from './erasure.service.js';
import { erasureRequests } from './erasure-requests.table.js';

const tags = ['data requests'];
const view = { access: { permissions: ['subjects.view_subject' as const] } };
const record = { access: { permissions: ['subjects.change_subject' as const] } };
const decide = { access: { permissions: ['subjects.archive' as const] } };

/** Already asked everywhere (or erased): the subject's request refused. */
export const SUBJECT_ALREADY_ASKED = 'You have already asked for your data to be erased.';

/** Erasure requests (issue 34): the customer's list, record and decide; the subject's own. */
export async function erasureRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/erasure-requests/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend(erasureListFilters.shape),
        response: { 200: pageOut(erasureRequestOut) },
      },
      config: view,
    },
    async (request) => {
      const { page, pageSize, offset } = listPage(request.query);
      const { state, subject } = request.query;
      const result = await runInTenant(
        deps,
        actorOf(request),
        ({ tx }) =>
          listErasureRequests(
            tx,
            { ...(state ? { state } : {}), ...(subject ? { subject } : {}) },
            { limit: pageSize, offset },
          ),
        readOnly,
      );
      return pageResponse(
        request,
        '/api/erasure-requests/',
        page,
        pageSize,
        result.count,
        result.results.map(presentErasureRequest),
      );
    },
  );

  r.get(
    '/api/erasure-requests/:id/',
    { schema: { tags, params: idParams, response: { 200: erasureRequestOut } }, config: view },
    async (request) => {
      const id = parseId(request.params.id);
      const row = await runInTenant(
        deps,
        actorOf(request),
        ({ tx }) => getErasureRequest(tx, id),
        readOnly,
      );
      return presentErasureRequest(row);
    },
  );

  r.post(
    '/api/erasure-requests/',
    {
      schema: { tags, body: erasureRequestCreate, response: { 201: erasureRequestOut } },
      config: record,
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const customerId = actor.customerId;
      if (customerId === null) throw new NotFoundError();
      const { subject, reason } = request.body;
      const row = await runInTenant(deps, actor, async (ctx) => {
        const [found] = await ctx.tx
          .select({ id: subjects.id })
          .from(subjects)
          .where(eq(subjects.id, subject));
        if (!found) throw ValidationError.doesNotExist('subject', subject);
        return recordErasureRequest(ctx, customerId, subject, reason);
      });
      return reply.code(201).send(presentErasureRequest(row));
    },
  );

  r.post(
    '/api/erasure-requests/:id/decide/',
    {
      schema: {
        tags,
        params: idParams,
        body: erasureDecision,
        response: { 200: erasureRequestOut },
      },
      config: decide,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const actor = actorOf(request);
      const { decision, reason } = request.body;
      const done = await runInTenant(deps, actor, (ctx) =>
        decideErasureRequest(ctx, deps.storage, id, { approve: decision === 'approve', reason }),
      );
      if (done.state !== 'completed') return presentErasureRequest(done);
      // once committed: the person's sign-in (as the system: one login across customers)
      await closeSignInAfterErasure(deps, actor, done.customerId, done.subjectId, id);
      const row = await runInTenant(deps, actor, ({ tx }) => getErasureRequest(tx, id), readOnly);
      return presentErasureRequest(row);
    },
  );

  // the subject's own: its requests at every customer holding it, and asking for erasure
  const subjectRequests = async (login: number): Promise<SubjectErasureRequestOut[]> =>
    runAsSystem(deps, async ({ tx }) => {
      const rows = await tx
        .select({ r: erasureRequests, customerName: customers.name })
        .from(erasureRequests)
        .innerJoin(
          subjects,
          and(
            eq(subjects.customerId, erasureRequests.customerId),
            eq(subjects.id, erasureRequests.subjectId),
          ),
        )
        .innerJoin(customers, eq(customers.id, erasureRequests.customerId))
        .where(eq(subjects.userId, login))
        .orderBy(asc(erasureRequests.createdAt), asc(erasureRequests.id));
      return rows.map(({ r: x, customerName }) => {
        const state = x.state === 'refused' || x.state === 'completed' ? x.state : 'pending';
        return {
          id: x.id,
          customer: { id: x.customerId, name: customerName },
          state,
          state_display: ERASURE_STATE_WORDS[state],
          reason: x.reason,
          created_at: x.createdAt.toISOString(),
          decided_at: x.decidedAt ? x.decidedAt.toISOString() : null,
          decision_reason: x.decisionReason,
          completed_at: x.completedAt ? x.completedAt.toISOString() : null,
        };
      });
    });

  r.get(
    '/api/s/erasure-requests/',
    {
      schema: { tags, response: { 200: pageOut(subjectErasureRequestOut) } },
      config: { access: { audience: 'subject' } },
    },
    async (request) => {
      const results = await subjectRequests(subjectLogin(actorOf(request)));
      return { count: results.length, next: null, previous: null, results };
    },
  );

  r.post(
    '/api/s/erasure-requests/',
    {
      schema: {
        tags,
        body: subjectErasureRequestCreate,
        response: { 201: pageOut(subjectErasureRequestOut) },
      },
      config: { access: { audience: 'subject' } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const login = subjectLogin(actor);
      let made = 0;
      // one request per organisation holding the person, each decided by that organisation
      for (const customerId of await subjectCustomerIds(deps, actor)) {
        try {
          await runInTenant(deps, { ...actor, customerId }, async (ctx) => {
            const [own] = await ctx.tx
              .select({ id: subjects.id })
              .from(subjects)
              .where(and(eq(subjects.customerId, customerId), eq(subjects.userId, login)));
            if (!own) return;
            await recordErasureRequest(ctx, customerId, own.id, request.body.reason);
            made += 1;
          });
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
        }
      }
      if (made === 0) throw new ConflictError(SUBJECT_ALREADY_ASKED);
      const results = await subjectRequests(login);
      return reply.code(201).send({ count: results.length, next: null, previous: null, results });
    },
  );
}
