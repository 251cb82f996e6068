import {
  archivabilityOut,
  caseCancel,
  caseCreate,
  caseDecision,
  caseDetailOut,
  caseListFilters,
  caseListItemOut,
  detailOut,
  opsListFilters,
  pageOut,
} from '@kestrel/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, opsActorOf, runForRequest } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { NotFoundError, PermissionDeniedError } from '../../platform/errors.js';
import { pageJson } from '../../platform/json-sql.js';
import { listQuerySchema, pageOf } from '../../platform/pagination.js';
import { idParams, pageResponse, parseId } from '../../platform/resource-query.js';
import { readOnly, runInOps, runInTenant } from '../../platform/service-context.js';
import { recordsViews } from '../access-log/access-log.service.js';
import {
  CSV_HEADER,
  caseListWhere,
  caseOrdering,
  csvRow,
  selectCaseExport,
  selectCaseListJson,
} from './cases.repo.js';
import {
  archiveCase,
  CASE_CT,
  cancelCase,
  caseArchivable,
  caseDetail,
  logPdfGeneration,
  recordDecision,
} from './cases.service.js';
import { openCase } from './commands/open-case.js';
import { sendReminder } from './commands/send-reminder.js';

export const EXPORT_LIMIT = 10_000;
const view = { access: { permissions: ['cases.view_case' as const] } };
const change = { access: { permissions: ['cases.change_case' as const] } };

/** /api/cases/: list (filters, search, ordering), detail, create and the case actions. */
export async function casesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const mail = { publicUrl: deps.config.publicUrl };

  // The list: the session customer's cases, and on /api/ops/cases/ every customer's (ops staff,
  // `?customer=ID` for one). Same filters, ordering and rows (each carries its `customer`).
  for (const [path, scope] of [
    ['/api/cases/', 'tenant'],
    ['/api/ops/cases/', 'ops'],
  ] as const) {
    r.get(
      path,
      {
        schema: {
          tags: ['cases'],
          querystring: listQuerySchema.extend({ ...caseListFilters, ...opsListFilters }),
          response: { 200: pageOut(caseListItemOut) },
        },
        config: view,
      },
      async (request, reply) => {
        const { page, pageSize } = pageOf(request.query);
        const result = await runForRequest(
          request,
          scope,
          async ({ tx, actor }) => {
            const where = await caseListWhere(tx, request.query, actor, scope);
            // a user limited to segments: the total of the cases they see (in the same statement)
            const found = await selectCaseListJson(
              tx,
              where,
              caseOrdering(request.query.ordering),
              pageSize,
              (page - 1) * pageSize,
            );
            if (found.json.length === 0 && page > 1) throw NotFoundError.page();
            return found;
          },
          readOnly,
        );
        // The rows are JSON texts already: joined into the page, not serialised again.
        // The response schema (for the OpenAPI document) types `send` as an object; this payload
        // is its JSON text, checked against caseListItemOut by cases.routes.test.ts.
        const body = pageResponse(request, path, page, pageSize, result.count, [], result.capped);
        const raw: FastifyReply = reply;
        return raw
          .type('application/json; charset=utf-8')
          .send(pageJson(body.count, body.next, body.previous, result.json, body.count_capped));
      },
    );
  }

  r.get(
    '/api/cases/export/',
    {
      schema: { tags: ['cases'], querystring: listQuerySchema.extend(caseListFilters) },
      config: view,
      onSend: recordsViews('cases', 'export'),
    },
    async (request, reply) => {
      const rows = await runInTenant(deps, actorOf(request), async ({ tx, actor }) => {
        // Ops staff export a customer's cases once they act for it (the export is audited there).
        if (actor.customerId === null) throw new PermissionDeniedError();
        // the rows without the list's total (issue 28: a filtered export counted its matches too)
        const rows = await selectCaseExport(
          tx,
          await caseListWhere(tx, request.query, actor),
          caseOrdering(request.query.ordering),
          EXPORT_LIMIT,
        );
        await recordAudit(tx, actor, {
          verb: 'exported',
          contentType: CASE_CT,
          objectRepr: `${rows.length} cases`,
          changes: { query: request.query, rows: rows.length },
        });
        return rows;
      });
      const csv = [CSV_HEADER.join(','), ...rows.map(csvRow)].join('\r\n');
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="cases.csv"');
      return `${csv}\r\n`;
    },
  );

  r.post(
    '/api/cases/',
    {
      schema: { tags: ['cases'], body: caseCreate, response: { 201: caseDetailOut } },
      config: { access: { permissions: ['cases.add_case'] } },
    },
    async (request, reply) => {
      const data = request.body;
      const out = await runInTenant(deps, actorOf(request), (ctx) => openCase(ctx, mail, data));
      reply.code(201);
      return out;
    },
  );

  r.get(
    '/api/cases/:id/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: caseDetailOut } },
      config: view,
      onSend: recordsViews('case'),
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(
        deps,
        actorOf(request),
        ({ tx, actor }) => caseDetail(tx, id, actor),
        readOnly,
      );
    },
  );

  r.get(
    '/api/ops/cases/:id/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: caseDetailOut } },
      config: view,
      onSend: recordsViews('case'),
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInOps(
        deps,
        opsActorOf(request),
        async ({ tx, actor }) => caseDetail(tx, id, actor),
        readOnly,
      );
    },
  );

  r.post(
    '/api/cases/:id/record_decision/',
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        body: caseDecision,
        response: { 200: caseDetailOut },
      },
      config: change,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const data = request.body;
      return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        recordDecision(tx, actor, id, data, deps.clock.now()),
      );
    },
  );

  r.post(
    '/api/cases/:id/cancel/',
    {
      schema: {
        tags: ['cases'],
        params: idParams,
        body: caseCancel,
        response: { 200: caseDetailOut },
      },
      // The body may be left out: then it is `{}` (no reason).
      preValidation: absentBodyAsEmpty,
      config: change,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const data = request.body;
      return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        cancelCase(tx, actor, id, data.reason, deps.clock.now()),
      );
    },
  );

  r.get(
    '/api/cases/:id/archivable/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: archivabilityOut } },
      config: view,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), ({ tx }) => caseArchivable(tx, id), readOnly);
    },
  );

  r.post(
    '/api/cases/:id/archive/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: caseDetailOut } },
      config: { access: { permissions: ['cases.archive'] } },
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        archiveCase(tx, actor, id, deps.clock.now()),
      );
    },
  );

  r.post(
    '/api/cases/:id/send-reminder/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: detailOut } },
      config: change,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), (ctx) => sendReminder(ctx, mail, id));
    },
  );

  r.post(
    '/api/cases/:id/log-pdf-generation/',
    {
      schema: { tags: ['cases'], params: idParams, response: { 200: detailOut } },
      config: view,
      onSend: recordsViews('case', 'export'),
    },
    async (request) => {
      const id = parseId(request.params.id);
      return runInTenant(deps, actorOf(request), ({ tx, actor }) =>
        logPdfGeneration(tx, actor, id),
      );
    },
  );
}
