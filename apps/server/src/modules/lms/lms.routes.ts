import {
  applicationPortalCreate,
  applicationPortalOut,
  applicationPortalUpdate,
  LICENCE_ACTIONS,
  LICENCE_STATUSES,
  type LicenceStatus,
  licenceActionInput,
  licenceCreate,
  licenceDefinitionCreate,
  licenceDefinitionOut,
  licenceDefinitionUpdate,
  licenceGroupCreate,
  licenceGroupOut,
  licenceGroupUpdate,
  licenceOut,
  licenceRequirementConfigInput,
  licenceSubGroupCreate,
  licenceSubGroupOut,
  licenceSubGroupUpdate,
  licenceUpdate,
  MESSAGES,
  pageOut,
} from '@kestrel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, type RouteAccess } from '../../platform/access.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { ValidationError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { queryId, queryIsoDate, queryString } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant } from '../../platform/service-context.js';
import { lmsE2eRoutes } from './lms.e2e.js';
import {
  actOnLicence,
  createDefinition,
  createGroup,
  createPortal,
  createSubGroup,
  findDefinition,
  findGroup,
  findSubGroup,
  getLicence,
  getPortal,
  issueLicence,
  listDefinitions,
  listGroups,
  listLicences,
  listPortals,
  listSubGroups,
  presentDefinition,
  presentGroup,
  presentSubGroup,
  updateDefinition,
  updateGroup,
  updateLicenceConditions,
  updatePortal,
  updateRequirementConfig,
  updateSubGroup,
} from './lms.service.js';

type Perm = NonNullable<RouteAccess['permissions']>[number];
const gate = (permission: Perm) => ({ access: { permissions: [permission] } });
const VIEW_DEF = gate('lms_definitions.view_definition');
const ADD_DEF = gate('lms_definitions.add_definition');
const CHANGE_DEF = gate('lms_definitions.change_definition');
const VIEW_LIC = gate('lms_licences.view_licence');
const ADD_LIC = gate('lms_licences.add_licence');
const CHANGE_LIC = gate('lms_licences.change_licence');
const portalParams = idParams.extend({ appId: z.string().max(20) });
const requirementParams = idParams.extend({ activityType: z.string().max(50) });
const opt = (d: string) => z.string().max(200).optional().describe(d);

function isStatus(s: string): s is LicenceStatus {
  return (LICENCE_STATUSES as readonly string[]).includes(s);
}

/** Licensing, the council's side (issue 32): groups, sub-groups, definitions, portals, licences. */
export async function lmsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tenant = <T>(
    request: FastifyRequest,
    fn: Parameters<typeof runInTenant<T>>[2],
    read = false,
  ) => runInTenant(deps, actorOf(request), fn, read ? readOnly : {});
  const tags = ['lms'];
  // the browser tests' fixtures (only with KESTREL_E2E_FIXTURES=1)
  await lmsE2eRoutes(app);

  // ---- groups ----
  r.get(
    '/api/lms/licence-groups/',
    {
      schema: { tags, querystring: listQuerySchema, response: { 200: pageOut(licenceGroupOut) } },
      config: VIEW_DEF,
    },
    async (request) => {
      const page = listPage(request.query);
      const out = await tenant(request, (ctx) => listGroups(ctx, page), true);
      const path = '/api/lms/licence-groups/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.post(
    '/api/lms/licence-groups/',
    {
      schema: { tags, body: licenceGroupCreate, response: { 201: licenceGroupOut } },
      preValidation: absentBodyAsEmpty,
      config: ADD_DEF,
    },
    async (request, reply) =>
      reply.code(201).send(await tenant(request, (ctx) => createGroup(ctx, request.body))),
  );
  r.get(
    '/api/lms/licence-groups/:id/',
    { schema: { tags, params: idParams, response: { 200: licenceGroupOut } }, config: VIEW_DEF },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(request, async (ctx) => presentGroup(ctx, await findGroup(ctx.tx, id)), true);
    },
  );

  // ---- sub-groups ----
  r.get(
    '/api/lms/licence-sub-groups/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend({ group: opt('one group id') }),
        response: { 200: pageOut(licenceSubGroupOut) },
      },
      config: VIEW_DEF,
    },
    async (request) => {
      const page = listPage(request.query);
      const group = queryId(request.query, 'group');
      const out = await tenant(request, (ctx) => listSubGroups(ctx, page, group), true);
      const path = '/api/lms/licence-sub-groups/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.post(
    '/api/lms/licence-sub-groups/',
    {
      schema: { tags, body: licenceSubGroupCreate, response: { 201: licenceSubGroupOut } },
      preValidation: absentBodyAsEmpty,
      config: ADD_DEF,
    },
    async (request, reply) =>
      reply.code(201).send(await tenant(request, (ctx) => createSubGroup(ctx, request.body))),
  );
  r.get(
    '/api/lms/licence-sub-groups/:id/',
    {
      schema: { tags, params: idParams, response: { 200: licenceSubGroupOut } },
      config: VIEW_DEF,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(
        request,
        async (ctx) => presentSubGroup(ctx, await findSubGroup(ctx.tx, id)),
        true,
      );
    },
  );

  // ---- definitions ----
  r.get(
    '/api/lms/definitions/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend({ sub_group: opt('one sub-group id') }),
        response: { 200: pageOut(licenceDefinitionOut) },
      },
      config: VIEW_DEF,
    },
    async (request) => {
      const page = listPage(request.query);
      const sub = queryId(request.query, 'sub_group');
      const out = await tenant(request, (ctx) => listDefinitions(ctx, page, sub), true);
      const path = '/api/lms/definitions/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.post(
    '/api/lms/definitions/',
    {
      schema: { tags, body: licenceDefinitionCreate, response: { 201: licenceDefinitionOut } },
      preValidation: absentBodyAsEmpty,
      config: ADD_DEF,
    },
    async (request, reply) =>
      reply.code(201).send(await tenant(request, (ctx) => createDefinition(ctx, request.body))),
  );
  r.get(
    '/api/lms/definitions/:id/',
    {
      schema: { tags, params: idParams, response: { 200: licenceDefinitionOut } },
      config: VIEW_DEF,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(
        request,
        async (ctx) => presentDefinition(ctx, await findDefinition(ctx.tx, id)),
        true,
      );
    },
  );
  // one check's configuration (issue 32): the whole of its settings, as the editor holds them
  r.patch(
    '/api/lms/definitions/:id/requirements/:activityType/',
    {
      schema: {
        tags,
        params: requirementParams,
        body: licenceRequirementConfigInput,
        response: { 200: licenceDefinitionOut },
      },
      config: CHANGE_DEF,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const { activityType } = request.params;
      return tenant(request, (ctx) => updateRequirementConfig(ctx, id, activityType, request.body));
    },
  );
  r.get(
    '/api/lms/definitions/:id/application_portals/',
    {
      schema: {
        tags,
        params: idParams,
        querystring: listQuerySchema,
        response: { 200: pageOut(applicationPortalOut) },
      },
      config: VIEW_DEF,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const page = listPage(request.query);
      const out = await tenant(request, (ctx) => listPortals(ctx, id, page), true);
      const path = `/api/lms/definitions/${id}/application_portals/`;
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.post(
    '/api/lms/definitions/:id/application_portals/',
    {
      schema: {
        tags,
        params: idParams,
        body: applicationPortalCreate,
        response: { 201: applicationPortalOut },
      },
      preValidation: absentBodyAsEmpty,
      config: ADD_DEF,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await tenant(request, (ctx) => createPortal(ctx, id, request.body));
      return reply.code(201).send(out);
    },
  );
  r.get(
    '/api/lms/definitions/:id/application_portals/:appId/',
    {
      schema: { tags, params: portalParams, response: { 200: applicationPortalOut } },
      config: VIEW_DEF,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const appId = parseId(request.params.appId);
      return tenant(request, (ctx) => getPortal(ctx, id, appId), true);
    },
  );

  for (const method of ['put', 'patch'] as const) {
    const partial = method === 'patch';
    r[method](
      '/api/lms/licence-groups/:id/',
      {
        schema: {
          tags,
          params: idParams,
          body: partial ? licenceGroupUpdate.partial() : licenceGroupUpdate,
          response: { 200: licenceGroupOut },
        },
        preValidation: absentBodyAsEmpty,
        config: CHANGE_DEF,
      },
      async (request) =>
        tenant(request, (ctx) => updateGroup(ctx, parseId(request.params.id), request.body)),
    );
    r[method](
      '/api/lms/licence-sub-groups/:id/',
      {
        schema: {
          tags,
          params: idParams,
          body: partial ? licenceSubGroupUpdate.partial() : licenceSubGroupUpdate,
          response: { 200: licenceSubGroupOut },
        },
        preValidation: absentBodyAsEmpty,
        config: CHANGE_DEF,
      },
      async (request) =>
        tenant(request, (ctx) => updateSubGroup(ctx, parseId(request.params.id), request.body)),
    );
    r[method](
      '/api/lms/definitions/:id/',
      {
        schema: {
          tags,
          params: idParams,
          body: partial ? licenceDefinitionUpdate.partial() : licenceDefinitionUpdate,
          response: { 200: licenceDefinitionOut },
        },
        preValidation: absentBodyAsEmpty,
        config: CHANGE_DEF,
      },
      async (request) =>
        tenant(request, (ctx) => updateDefinition(ctx, parseId(request.params.id), request.body)),
    );
    r[method](
      '/api/lms/definitions/:id/application_portals/:appId/',
      {
        schema: {
          tags,
          params: portalParams,
          body: partial ? applicationPortalUpdate.partial() : applicationPortalUpdate,
          response: { 200: applicationPortalOut },
        },
        preValidation: absentBodyAsEmpty,
        config: CHANGE_DEF,
      },
      async (request) => {
        const id = parseId(request.params.id);
        const appId = parseId(request.params.appId);
        return tenant(request, (ctx) => updatePortal(ctx, id, appId, request.body));
      },
    );
  }

  // ---- licences ----
  r.get(
    '/api/lms/licences/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend({
          status: opt('statuses, comma-separated'),
          group: opt('one group id'),
          sub_group: opt('one sub-group id'),
          definition: opt('one definition id'),
          q: opt('holder name or licence number (prefix)'),
          dob: opt('holder date of birth, YYYY-MM-DD'),
        }),
        response: { 200: pageOut(licenceOut) },
      },
      config: VIEW_LIC,
    },
    async (request) => {
      const page = listPage(request.query);
      const statusRaw = queryString(request.query, 'status') ?? '';
      const status = statusRaw.split(',').filter((s) => s !== '');
      const bad = status.filter((s) => !isStatus(s));
      if (bad.length) throw new ValidationError({ status: [`Unknown status '${bad[0]}'.`] });
      const dob = queryIsoDate(request.query, 'dob', MESSAGES.invalidDate);
      const q = (queryString(request.query, 'q') ?? '').trim().toLowerCase();
      const filters = {
        status: status.filter(isStatus),
        group: queryId(request.query, 'group'),
        subGroup: queryId(request.query, 'sub_group'),
        definition: queryId(request.query, 'definition'),
        q: q === '' ? null : q,
        dob,
      };
      const out = await tenant(request, (ctx) => listLicences(ctx, page, filters), true);
      const path = '/api/lms/licences/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.post(
    '/api/lms/licences/',
    {
      schema: { tags, body: licenceCreate, response: { 201: licenceOut } },
      preValidation: absentBodyAsEmpty,
      config: ADD_LIC,
    },
    async (request, reply) =>
      reply.code(201).send(await tenant(request, (ctx) => issueLicence(ctx, request.body))),
  );
  r.get(
    '/api/lms/licences/:id/',
    { schema: { tags, params: idParams, response: { 200: licenceOut } }, config: VIEW_LIC },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(request, (ctx) => getLicence(ctx, id), true);
    },
  );
  r.patch(
    '/api/lms/licences/:id/',
    {
      schema: { tags, params: idParams, body: licenceUpdate, response: { 200: licenceOut } },
      preValidation: absentBodyAsEmpty,
      config: CHANGE_LIC,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(request, (ctx) => updateLicenceConditions(ctx, id, request.body.conditions));
    },
  );
  for (const action of LICENCE_ACTIONS) {
    r.post(
      `/api/lms/licences/:id/${action}/`,
      {
        schema: { tags, params: idParams, body: licenceActionInput, response: { 200: licenceOut } },
        preValidation: absentBodyAsEmpty,
        config: CHANGE_LIC,
      },
      async (request) => {
        const id = parseId(request.params.id);
        return tenant(request, (ctx) => actOnLicence(ctx, id, action, request.body.reason));
      },
    );
  }
}
