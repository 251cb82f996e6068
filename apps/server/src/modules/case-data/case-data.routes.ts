import { caseDataListQuery, noContent, type Permission } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RouteAccess } from '../../platform/access.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly } from '../../platform/service-context.js';
import { runForCaseRequest } from '../../platform/subject-access.js';
import type { CaseDataAudience } from './case-access.js';
import {
  LIST_RESOURCES,
  type ListResource,
  type Record_,
  SINGLE_RESOURCES,
  type SingleResource,
} from './case-data.resources.js';
import {
  createItem,
  deleteItem,
  deleteSingle,
  listMany,
  patchItem,
  retrieveItem,
  retrieveSingle,
  saveSingle,
} from './case-data.service.js';

const permit = (p: Permission): { access: RouteAccess } => ({ access: { permissions: [p] } });
const none: { access: RouteAccess } = { access: {} };

/**
 * The three audiences of case data, with the same rules: customer staff (cases.view_case to read,
 * cases.change_case to write; tenant by RLS), operations (every customer, ops staff only) and the
 * subject (its own open cases; no writes once submitted).
 */
export const CASE_DATA_AUDIENCES = [
  {
    prefix: '/api/',
    audience: 'staff',
    read: permit('cases.view_case'),
    write: permit('cases.change_case'),
  },
  {
    prefix: '/api/ops/',
    audience: 'ops',
    read: permit('cases.view_case'),
    write: permit('cases.change_case'),
  },
  { prefix: '/api/s/', audience: 'subject', read: none, write: none },
] as const satisfies readonly {
  prefix: string;
  audience: CaseDataAudience;
  read: { access: RouteAccess };
  write: { access: RouteAccess };
}[];

const body = (value: unknown): Record_ =>
  typeof value === 'object' && value !== null ? { ...value } : {};

/** A record one per case: POST with `case`; GET, PUT, PATCH and DELETE by the case id. */
function singleRoutes(app: FastifyInstance, res: SingleResource) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['case data'];
  for (const { prefix, audience, read, write } of CASE_DATA_AUDIENCES) {
    const collection = `${prefix}${res.path}/`;
    const item = `${collection}:id/`;
    r.post(
      collection,
      { schema: { tags, body: res.create, response: { 201: res.out } }, config: write },
      async (request, reply) => {
        const data = body(request.body);
        const caseId = Number(data.case);
        const out = await runForCaseRequest(
          request,
          audience,
          { case: caseId, table: res.table },
          (ctx) => saveSingle(ctx, res, audience, caseId, data, 'create'),
        );
        return reply.code(201).send(out);
      },
    );
    r.get(
      item,
      { schema: { tags, params: idParams, response: { 200: res.out } }, config: read },
      async (request) => {
        const id = parseId(request.params.id);
        return runForCaseRequest(
          request,
          audience,
          { case: id, table: res.table },
          (ctx) => retrieveSingle(ctx, res, audience, id),
          readOnly,
        );
      },
    );
    for (const [method, schema] of [
      ['put', res.update],
      ['patch', res.patch],
    ] as const) {
      r[method](
        item,
        {
          schema: { tags, params: idParams, body: schema, response: { 200: res.out } },
          config: write,
        },
        async (request) => {
          const id = parseId(request.params.id);
          const data = body(request.body);
          return runForCaseRequest(request, audience, { case: id, table: res.table }, (ctx) =>
            saveSingle(ctx, res, audience, id, data, 'update'),
          );
        },
      );
    }
    r.delete(
      item,
      { schema: { tags, params: idParams, response: { 204: noContent } }, config: write },
      async (request, reply) => {
        const id = parseId(request.params.id);
        await runForCaseRequest(request, audience, { case: id, table: res.table }, (ctx) =>
          deleteSingle(ctx, res, audience, id),
        );
        return reply.code(204).send();
      },
    );
  }
}

/** Many records per case: GET ?case=ID, POST with `case`; GET, PATCH and DELETE by the id. */
function listRoutes(app: FastifyInstance, res: ListResource) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['case data'];
  for (const { prefix, audience, read, write } of CASE_DATA_AUDIENCES) {
    const collection = `${prefix}${res.path}/`;
    const item = `${collection}:id/`;
    r.get(
      collection,
      {
        schema: { tags, querystring: caseDataListQuery, response: { 200: res.listOut } },
        config: read,
      },
      async (request) => {
        const caseId = request.query.case;
        return runForCaseRequest(
          request,
          audience,
          { case: caseId, table: res.table },
          (ctx) => listMany(ctx, res, audience, caseId),
          readOnly,
        );
      },
    );
    r.post(
      collection,
      { schema: { tags, body: res.create, response: { 201: res.out } }, config: write },
      async (request, reply) => {
        const data = body(request.body);
        const out = await runForCaseRequest(
          request,
          audience,
          { case: Number(data.case), table: res.table },
          (ctx) => createItem(ctx, res, audience, data),
        );
        return reply.code(201).send(out);
      },
    );
    r.get(
      item,
      { schema: { tags, params: idParams, response: { 200: res.out } }, config: read },
      async (request) => {
        const id = parseId(request.params.id);
        return runForCaseRequest(
          request,
          audience,
          { table: res.table, id },
          (ctx) => retrieveItem(ctx, res, audience, id),
          readOnly,
        );
      },
    );
    r.patch(
      item,
      {
        schema: { tags, params: idParams, body: res.patch, response: { 200: res.out } },
        config: write,
      },
      async (request) => {
        const id = parseId(request.params.id);
        const data = body(request.body);
        return runForCaseRequest(request, audience, { table: res.table, id }, (ctx) =>
          patchItem(ctx, res, audience, id, data),
        );
      },
    );
    r.delete(
      item,
      { schema: { tags, params: idParams, response: { 204: noContent } }, config: write },
      async (request, reply) => {
        const id = parseId(request.params.id);
        await runForCaseRequest(request, audience, { table: res.table, id }, (ctx) =>
          deleteItem(ctx, res, audience, id),
        );
        return reply.code(204).send();
      },
    );
  }
}

/** Every case-data resource for the three audiences (spec point 7). */
export async function caseDataRoutes(app: FastifyInstance) {
  for (const res of SINGLE_RESOURCES) singleRoutes(app, res);
  for (const res of LIST_RESOURCES) listRoutes(app, res);
}
