import {
  caseDbsDetailsOut,
  caseDbsDetailsPatch,
  caseDbsDetailsSubjectOut,
  caseDbsDetailsSubjectPatch,
  caseRtwDetailsOut,
  caseRtwDetailsPatch,
  verifyDbsDetailsIn,
} from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runForRequest } from '../../platform/access.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly } from '../../platform/service-context.js';
import { CASE_DATA_AUDIENCES } from '../case-data/case-data.routes.js';
import { runForCaseRequest } from '../portal/subject-request.js';
import {
  countersignDbsDetails,
  patchDbsDetails,
  patchRtwDetails,
  retrieveDbsDetails,
  retrieveRtwDetails,
  subjectView,
  verifyDbsDetails,
} from './dbs-details.service.js';

const body = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? { ...value } : {};

/**
 * /api/{,ops/,s/}case-dbs-details/{case}/ (GET, PATCH), the staff and ops actions verify/
 * (cases.change_caseactivity) and countersign/ (cases.countersign_casedbsdetails: a
 * countersignatory), and /api/{,ops/,s/}case-rtw-details/{case}/.
 */
export async function dbsDetailsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['case data'];
  for (const { prefix, audience, read, write } of CASE_DATA_AUDIENCES) {
    const subject = audience === 'subject';
    const out = subject ? caseDbsDetailsSubjectOut : caseDbsDetailsOut;
    const item = `${prefix}case-dbs-details/:id/`;
    r.get(
      item,
      { schema: { tags, params: idParams, response: { 200: out } }, config: read },
      async (request) => {
        const id = parseId(request.params.id);
        const found = await runForCaseRequest(
          request,
          audience,
          { case: id },
          (ctx) => retrieveDbsDetails(ctx, audience, id),
          readOnly,
        );
        return subject ? subjectView(found) : found;
      },
    );
    r.patch(
      item,
      {
        schema: {
          tags,
          params: idParams,
          body: subject ? caseDbsDetailsSubjectPatch : caseDbsDetailsPatch,
          response: { 200: out },
        },
        config: write,
      },
      async (request) => {
        const id = parseId(request.params.id);
        const saved = await runForCaseRequest(request, audience, { case: id }, (ctx) =>
          patchDbsDetails(ctx, audience, id, body(request.body)),
        );
        return subject ? subjectView(saved) : saved;
      },
    );
    if (!subject) {
      const act = { access: { permissions: ['cases.change_caseactivity' as const] } };
      const countersigner = {
        access: { permissions: ['cases.countersign_casedbsdetails' as const] },
      };
      r.post(
        `${item}verify/`,
        {
          schema: {
            tags,
            params: idParams,
            body: verifyDbsDetailsIn.nullish(),
            response: { 200: caseDbsDetailsOut },
          },
          config: act,
        },
        async (request) => {
          const id = parseId(request.params.id);
          const notes = request.body?.discrepancy_notes;
          return runForRequest(request, audience, (ctx) =>
            verifyDbsDetails(ctx, audience, id, notes),
          );
        },
      );
      r.post(
        `${item}countersign/`,
        {
          schema: { tags, params: idParams, response: { 200: caseDbsDetailsOut } },
          config: countersigner,
        },
        async (request) => {
          const id = parseId(request.params.id);
          return runForRequest(request, audience, (ctx) =>
            countersignDbsDetails(ctx, audience, id),
          );
        },
      );
    }
    const rtw = `${prefix}case-rtw-details/:id/`;
    r.get(
      rtw,
      { schema: { tags, params: idParams, response: { 200: caseRtwDetailsOut } }, config: read },
      async (request) => {
        const id = parseId(request.params.id);
        return runForCaseRequest(
          request,
          audience,
          { case: id },
          (ctx) => retrieveRtwDetails(ctx, audience, id),
          readOnly,
        );
      },
    );
    r.patch(
      rtw,
      {
        schema: {
          tags,
          params: idParams,
          body: caseRtwDetailsPatch,
          response: { 200: caseRtwDetailsOut },
        },
        config: write,
      },
      async (request) => {
        const id = parseId(request.params.id);
        return runForCaseRequest(request, audience, { case: id }, (ctx) =>
          patchRtwDetails(ctx, audience, id, body(request.body)),
        );
      },
    );
  }
}
