import {
  APPLICATION_STATES,
  type ApplicationState,
  applicationApplyInput,
  applicationApplyOut,
  applicationDetailOut,
  applicationGrantInput,
  applicationOut,
  applicationRefuseInput,
  applicationRequestInfoInput,
  applicationRespondInput,
  licenceRenewInput,
  MESSAGES,
  pageOut,
  registerEntryOut,
  subjectApplicationOut,
  subjectApplicationPortalOut,
} from '@kestrel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, type RouteAccess } from '../../platform/access.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { queryId, queryIsoDate, queryString } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInTenant, type ServiceContext } from '../../platform/service-context.js';
import {
  applyOnPortal,
  getApplication,
  grantApplication,
  listApplications,
  recordPayment,
  refuseApplication,
  renewLicence,
  requestInfo,
  respondToRequest,
  runTaxCheck,
  searchRegister,
  subjectApplications,
  subjectPortals,
  withdrawApplication,
} from './lms-applications.service.js';

type Perm = NonNullable<RouteAccess['permissions']>[number];
const gate = (permission: Perm) => ({ access: { permissions: [permission] } });
const VIEW_LIC = gate('lms_licences.view_licence');
const CHANGE_LIC = gate('lms_licences.change_licence');
const SUBJECT = { access: { audience: 'subject' as const } };
const opt = (d: string) => z.string().max(200).optional().describe(d);

const isState = (s: string): s is ApplicationState =>
  (APPLICATION_STATES as readonly string[]).includes(s);

/** `?dob=` as YYYY-MM-DD or null; 400 for another shape. */
/** `?dob=`: a real day or 400 `{dob: ['Invalid date']}` (the register's and the licences' filter). */
const dobOf = (query: unknown): string | null => queryIsoDate(query, 'dob', MESSAGES.invalidDate);

/**
 * Licence applications (issue 32): the council's list, detail and decisions
 * (`lms_licences.*`), its register of refusals, suspensions and revocations, a licence's renewal;
 * the subject's portals, apply, applications and answer (`/api/lms/s/`).
 */
export async function lmsApplicationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const mail = { publicUrl: deps.config.publicUrl };
  const tenant = <T>(
    request: FastifyRequest,
    fn: (ctx: ServiceContext) => Promise<T>,
    read = false,
  ) => runInTenant(deps, actorOf(request), fn, read ? readOnly : {});
  const tags = ['lms'];

  // ---- the council's applications ----
  r.get(
    '/api/lms/applications/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend({
          state: opt('states, comma-separated'),
          definition: opt('one definition id'),
          portal: opt('one application portal id'),
          q: opt('applicant name or email (prefix), or reference'),
        }),
        response: { 200: pageOut(applicationOut) },
      },
      config: VIEW_LIC,
    },
    async (request) => {
      const page = listPage(request.query);
      const states = (queryString(request.query, 'state') ?? '').split(',').filter(Boolean);
      const bad = states.filter((s) => !isState(s));
      if (bad.length) throw new ValidationError({ state: [`Unknown state '${bad[0]}'.`] });
      const q = (queryString(request.query, 'q') ?? '').trim().toLowerCase();
      const filters = {
        state: states.filter(isState),
        definition: queryId(request.query, 'definition'),
        portal: queryId(request.query, 'portal'),
        q: q === '' ? null : q,
      };
      const out = await tenant(request, (ctx) => listApplications(ctx, page, filters), true);
      const path = '/api/lms/applications/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.get(
    '/api/lms/applications/:id/',
    {
      schema: { tags, params: idParams, response: { 200: applicationDetailOut } },
      config: VIEW_LIC,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(request, (ctx) => getApplication(ctx, id), true);
    },
  );
  const decision = <B extends z.ZodType>(
    action: string,
    body: B,
    run: (
      ctx: ServiceContext,
      id: number,
      body: z.output<B>,
    ) => Promise<z.output<typeof applicationDetailOut>>,
  ) =>
    app.post(
      `/api/lms/applications/:id/${action}/`,
      {
        schema: { tags, params: idParams, body, response: { 200: applicationDetailOut } },
        preValidation: absentBodyAsEmpty,
        config: CHANGE_LIC,
      },
      async (request) => {
        const id = parseId((request.params as { id: string }).id);
        const parsed = request.body as z.output<B>;
        return tenant(request, (ctx) => run(ctx, id, parsed));
      },
    );
  decision('grant', applicationGrantInput, (ctx, id, b) => grantApplication(ctx, id, b.conditions));
  decision('refuse', applicationRefuseInput, (ctx, id, b) => refuseApplication(ctx, id, b.reason));
  decision('request-info', applicationRequestInfoInput, (ctx, id, b) =>
    requestInfo(ctx, id, b.message),
  );
  decision(
    'record-payment',
    z.object({ note: z.string().trim().max(500).default('') }),
    (ctx, id, b) => recordPayment(ctx, mail, id, b.note),
  );
  r.post(
    '/api/lms/applications/:id/tax-check/',
    {
      schema: { tags, params: idParams, response: { 200: applicationDetailOut } },
      config: CHANGE_LIC,
    },
    async (request) => runTaxCheck(deps, actorOf(request), parseId(request.params.id)),
  );

  // ---- a licence's renewal ----
  r.post(
    '/api/lms/licences/:id/renew/',
    {
      schema: {
        tags,
        params: idParams,
        body: licenceRenewInput,
        response: { 201: applicationDetailOut },
      },
      preValidation: absentBodyAsEmpty,
      config: CHANGE_LIC,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await renewLicence(deps, mail, actorOf(request), id, request.body);
      return reply.code(201).send(out);
    },
  );

  // ---- the register ----
  r.get(
    '/api/lms/register/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend({
          q: opt('name (prefix) or licence number (prefix)'),
          dob: opt('date of birth, YYYY-MM-DD'),
          licence_number: opt('licence number (exact)'),
        }),
        response: { 200: pageOut(registerEntryOut) },
      },
      config: VIEW_LIC,
    },
    async (request) => {
      const page = listPage(request.query);
      const q = (queryString(request.query, 'q') ?? '').trim().toLowerCase();
      const number = (queryString(request.query, 'licence_number') ?? '').trim().toUpperCase();
      const filters = {
        q: q === '' ? null : q,
        dob: dobOf(request.query),
        licenceNumber: number === '' ? null : number,
      };
      const out = await tenant(request, (ctx) => searchRegister(ctx, page, filters), true);
      const path = '/api/lms/register/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );

  // ---- the subject's side ----
  r.get(
    '/api/lms/s/application-portals/',
    {
      schema: {
        tags,
        querystring: listQuerySchema.extend({
          customer: opt('one council id'),
          sub_group: opt('one sub-group id'),
        }),
        response: { 200: pageOut(subjectApplicationPortalOut) },
      },
      config: SUBJECT,
    },
    async (request) => {
      const page = listPage(request.query);
      const out = await subjectPortals(deps, actorOf(request), page, {
        customer: queryId(request.query, 'customer'),
        subGroup: queryId(request.query, 'sub_group'),
      });
      const path = '/api/lms/s/application-portals/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.get(
    '/api/lms/s/application-portals/:id/',
    {
      schema: { tags, params: idParams, response: { 200: subjectApplicationPortalOut } },
      config: SUBJECT,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const out = await subjectPortals(deps, actorOf(request), { pageSize: 1, offset: 0 }, { id });
      const [row] = out.results;
      if (!row) throw new NotFoundError();
      return row;
    },
  );
  r.post(
    '/api/lms/s/application-portals/:id/apply/',
    {
      schema: {
        tags,
        params: idParams,
        body: applicationApplyInput,
        response: { 200: applicationApplyOut, 201: applicationApplyOut },
      },
      preValidation: absentBodyAsEmpty,
      config: SUBJECT,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const { out, created } = await applyOnPortal(deps, mail, actorOf(request), id, request.body);
      return reply.code(created ? 201 : 200).send(out);
    },
  );
  r.get(
    '/api/lms/s/applications/',
    {
      schema: {
        tags,
        querystring: listQuerySchema,
        response: { 200: pageOut(subjectApplicationOut) },
      },
      config: SUBJECT,
    },
    async (request) => {
      const page = listPage(request.query);
      const out = await subjectApplications(deps, actorOf(request), page);
      const path = '/api/lms/s/applications/';
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );
  r.get(
    '/api/lms/s/applications/:id/',
    {
      schema: { tags, params: idParams, response: { 200: subjectApplicationOut } },
      config: SUBJECT,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const out = await subjectApplications(deps, actorOf(request), { pageSize: 1, offset: 0 }, id);
      const [row] = out.results;
      if (!row) throw new NotFoundError();
      return row;
    },
  );
  r.post(
    '/api/lms/s/applications/:id/respond/',
    {
      schema: {
        tags,
        params: idParams,
        body: applicationRespondInput,
        response: { 200: subjectApplicationOut },
      },
      preValidation: absentBodyAsEmpty,
      config: SUBJECT,
    },
    async (request) =>
      respondToRequest(deps, actorOf(request), parseId(request.params.id), request.body.message),
  );
  r.post(
    '/api/lms/s/applications/:id/withdraw/',
    {
      schema: { tags, params: idParams, response: { 200: subjectApplicationOut } },
      config: SUBJECT,
    },
    async (request) => withdrawApplication(deps, actorOf(request), parseId(request.params.id)),
  );
}
