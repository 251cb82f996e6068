import { onlineIdvOut, onlineIdvStartOut, subjectOnlineIdvOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, runForRequest } from '../../platform/access.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly } from '../../platform/service-context.js';
import { runForCaseRequest, runSystemForSubjectCase } from '../../platform/subject-access.js';
import {
  caseOnlineIdvOf,
  fetchAndStore,
  startOnlineIdv,
  subjectOnlineIdv,
} from './online-idv.service.js';
import { idvProviderOf } from './provider-of.js';

/** The subject's online identity check (contracts/online-idv.ts). */
export async function onlineIdvRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['online identity check'];
  const base = '/api/s/case-online-idv/:id/';

  // customer staff and operations: the point 3 data of a case, retrieved by the case id
  for (const [prefix, audience] of [
    ['/api/', 'staff'],
    ['/api/ops/', 'ops'],
  ] as const) {
    r.get(
      `${prefix}case-online-idv/:id/`,
      {
        schema: { tags, params: idParams, response: { 200: onlineIdvOut } },
        config: { access: { permissions: ['cases.view_case'] } },
      },
      async (request) => {
        const caseId = parseId(request.params.id);
        return runForRequest(
          request,
          audience,
          (ctx) => caseOnlineIdvOf(ctx, audience, caseId),
          readOnly,
        );
      },
    );
  }

  r.get(
    base,
    {
      schema: { tags, params: idParams, response: { 200: subjectOnlineIdvOut } },
      config: { access: {} },
    },
    async (request) => {
      const caseId = parseId(request.params.id);
      return runForCaseRequest(
        request,
        'subject',
        { case: caseId },
        (ctx) => subjectOnlineIdv(ctx, caseId),
        readOnly,
      );
    },
  );

  r.post(
    `${base}start/`,
    {
      schema: { tags, params: idParams, response: { 201: onlineIdvStartOut } },
      config: { access: {} },
    },
    async (request, reply) => {
      const caseId = parseId(request.params.id);
      const deps = request.server.deps;
      // the provider's session is the system's to store (the subject's role only reads it), on
      // behalf of the subject after the policy allowed it: its own open case with this section
      const out = await runSystemForSubjectCase(
        deps,
        actorOf(request),
        caseId,
        (ctx) =>
          startOnlineIdv(
            ctx,
            { provider: idvProviderOf(deps), publicUrl: deps.config.publicUrl },
            ctx.actor,
            caseId,
          ),
        { need: { section: 'online-idv' } },
      );
      return reply.code(201).send(out);
    },
  );

  r.post(
    `${base}refresh/`,
    {
      schema: { tags, params: idParams, response: { 200: subjectOnlineIdvOut } },
      config: { access: {} },
    },
    async (request) => {
      const caseId = parseId(request.params.id);
      const deps = request.server.deps;
      await runSystemForSubjectCase(
        deps,
        actorOf(request),
        caseId,
        (ctx) => fetchAndStore(ctx, idvProviderOf(deps), ctx.actor, caseId),
        { intent: 'read' },
      );
      return runForCaseRequest(
        request,
        'subject',
        { case: caseId },
        (ctx) => subjectOnlineIdv(ctx, caseId),
        readOnly,
      );
    },
  );
}
