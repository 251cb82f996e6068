import {
  detailOut,
  noContent,
  pageOut,
  portalRegistrationDetailOut,
  portalRegistrationListFilters,
  portalRegistrationOut,
  REGISTRATION_MESSAGES,
  registrationConfirm,
  registrationRequest,
  registrationResultOut,
  regPortalCreate,
  regPortalOut,
  regPortalPatch,
  regPortalPublicOut,
} from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { REGISTRATION_RATE_LIMITS } from '../../config.js';
import { actorOf, type RouteAccess } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import type { Actor } from '../../platform/context.js';
import { NotAuthenticatedError, NotFoundError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { passwordSchema } from '../../platform/password-rule.js';
import { hashPassword } from '../../platform/passwords.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runAsSystem, runInTenant, SYSTEM_TX } from '../../platform/service-context.js';
import { startSession } from '../../platform/session-cookie.js';
import { subjectUsers } from '../users/users.table.js';
import {
  createPortal,
  deletePortal,
  getPortal,
  listPortals,
  updatePortal,
} from './portals.service.js';
import { portalOfLink, publicView } from './public.service.js';
import { paymentLinkOf, startRegistrationPayment } from './registration-payment.js';
import {
  confirmAndProceed,
  getRegistration,
  listRegistrations,
  loginOfRegistration,
  registerPublic,
  registerSignedIn,
  registrationFilters,
  registrationOfToken,
  resendConfirmation,
} from './registrations.service.js';
import { regportalsE2eRoutes } from './regportals.e2e.js';

const portalParams = idParams.extend({ regPortalId: z.string().max(20) });
const linkParams = z.object({
  segmentId: z.string().max(20),
  portalPath: z.string().max(100),
});
const listQuery = listQuerySchema.extend({
  ...portalRegistrationListFilters,
  subject: z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(100)])
    .optional()
    .describe('subject ids, comma-separated (the registrations that came to those subjects)'),
});
/** Every route of the portals and their registrations needs the `regportals` entitlement. */
const gate = (permission: NonNullable<RouteAccess['permissions']>[number]) => ({
  access: { permissions: [permission], entitlements: ['regportals' as const] },
});
const VIEW_PORTAL = gate('processes.view_process');
const ADD_PORTAL = gate('processes.add_process');
const CHANGE_PORTAL = gate('processes.change_process');
const DELETE_PORTAL = gate('processes.delete_process');
const VIEW_REG = gate('subjects.view_subject');
/**
 * Sending a registration's confirmation again: the step that makes the person a subject (their
 * confirmation adds the subject record and opens the case), so the subjects area's add permission
 * (spec points 1 and 6), as a product user's resend-invitation needs users.add_productuser.
 */
const RESEND_REG = gate('subjects.add_subject');
const PUBLIC: { access: RouteAccess } = { access: { audience: 'public' } };
const SUBJECT: { access: RouteAccess } = { access: { audience: 'subject' } };

/** Who acts in a public registration: nobody signed in, in the portal's customer's tenant. */
function publicActor(request: FastifyRequest, customerId: number): Actor {
  return {
    ...actorOf(request),
    type: null,
    id: null,
    name: 'self-initiate',
    customerId,
    isOps: false,
    permissions: new Set(),
  };
}

/**
 * Registration portals (issue 31): a process's portals (/api/processes/{id}/registration-
 * portals/), the public self-initiate pages (/api/public/self-initiate/{segmentId}/{path}/,
 * confirm/), a signed-in subject's (/api/s/self-initiate/...), and the customer's registrations
 * (/api/portal-registrations/).
 */
export async function regportalsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;
  const mail = { publicUrl: deps.config.publicUrl };
  const tenant = <T>(
    request: FastifyRequest,
    fn: Parameters<typeof runInTenant<T>>[2],
    read = false,
  ) => runInTenant(deps, actorOf(request), fn, read ? readOnly : {});
  const tags = ['registration-portals'];
  // the browser tests' fixtures (only with KESTREL_E2E_FIXTURES=1)
  await regportalsE2eRoutes(app);

  // ---- a process's portals

  r.get(
    '/api/processes/:id/registration-portals/',
    {
      schema: {
        tags,
        params: idParams,
        querystring: listQuerySchema,
        response: { 200: pageOut(regPortalOut) },
      },
      config: VIEW_PORTAL,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const page = listPage(request.query);
      const out = await tenant(request, (ctx) => listPortals(ctx, id, page), true);
      const path = `/api/processes/${id}/registration-portals/`;
      return pageResponse(request, path, page.page, page.pageSize, out.count, out.results);
    },
  );

  r.post(
    '/api/processes/:id/registration-portals/',
    {
      schema: { tags, params: idParams, body: regPortalCreate, response: { 201: regPortalOut } },
      preValidation: absentBodyAsEmpty,
      config: ADD_PORTAL,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await tenant(request, (ctx) => createPortal(ctx, id, request.body));
      return reply.code(201).send(out);
    },
  );

  r.get(
    '/api/processes/:id/registration-portals/:regPortalId/',
    {
      schema: { tags, params: portalParams, response: { 200: regPortalOut } },
      config: VIEW_PORTAL,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const portalId = parseId(request.params.regPortalId);
      return tenant(request, (ctx) => getPortal(ctx, id, portalId), true);
    },
  );

  r.patch(
    '/api/processes/:id/registration-portals/:regPortalId/',
    {
      schema: { tags, params: portalParams, body: regPortalPatch, response: { 200: regPortalOut } },
      preValidation: absentBodyAsEmpty,
      config: CHANGE_PORTAL,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const portalId = parseId(request.params.regPortalId);
      return tenant(request, (ctx) => updatePortal(ctx, id, portalId, request.body));
    },
  );

  r.delete(
    '/api/processes/:id/registration-portals/:regPortalId/',
    {
      schema: { tags, params: portalParams, response: { 204: noContent } },
      config: DELETE_PORTAL,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const portalId = parseId(request.params.regPortalId);
      await tenant(request, (ctx) => deletePortal(ctx, id, portalId));
      return reply.code(204).send();
    },
  );

  // ---- public self-initiate

  /** The portal of the link (the system's read), 404 when there is none. */
  const portalOf = (params: { segmentId: string; portalPath: string }) => {
    const segmentId = parseId(params.segmentId);
    return deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, (tx) =>
      portalOfLink(tx, segmentId, params.portalPath),
    );
  };
  // the registrations' limits per address and per portal (config.rateLimits, in its window)
  const perAddress =
    deps.config.rateLimits.registrationsPerAddress ??
    REGISTRATION_RATE_LIMITS.registrationsPerAddress;
  const perPortal =
    deps.config.rateLimits.registrationsPerPortal ??
    REGISTRATION_RATE_LIMITS.registrationsPerPortal;
  const limited = (request: FastifyRequest, portalId: number) =>
    deps.rateLimiter.hit([
      { key: `self-initiate:ip:${request.ip}`, max: perAddress },
      { key: `self-initiate:portal:${portalId}`, max: perPortal },
    ]);

  for (const base of ['/api/public/self-initiate', '/api/s/self-initiate'] as const) {
    r.get(
      `${base}/:segmentId/:portalPath/`,
      {
        schema: { tags, params: linkParams, response: { 200: regPortalPublicOut } },
        config: base.startsWith('/api/s/') ? SUBJECT : PUBLIC,
      },
      async (request) => {
        const portal = await portalOf(request.params);
        return runInTenant(
          deps,
          publicActor(request, portal.customerId),
          (ctx) => publicView(ctx, portal),
          readOnly,
        );
      },
    );
  }

  r.post(
    '/api/public/self-initiate/:segmentId/:portalPath/',
    {
      schema: {
        tags,
        params: linkParams,
        body: registrationRequest,
        response: { 200: registrationResultOut, 201: registrationResultOut },
      },
      preValidation: absentBodyAsEmpty,
      config: PUBLIC,
    },
    async (request, reply) => {
      const portal = await portalOf(request.params);
      await limited(request, portal.id);
      const out = await runInTenant(deps, publicActor(request, portal.customerId), (ctx) =>
        registerPublic(ctx, mail, portal.id, request.body, paymentLinkOf),
      );
      return reply.code(out.existing ? 200 : 201).send(out);
    },
  );

  r.post(
    '/api/public/self-initiate/:segmentId/:portalPath/confirm/',
    {
      schema: {
        tags,
        params: linkParams,
        body: registrationConfirm.extend({ password: passwordSchema }),
        response: { 200: registrationResultOut },
      },
      preValidation: absentBodyAsEmpty,
      config: PUBLIC,
    },
    async (request, reply) => {
      const portal = await portalOf(request.params);
      await deps.rateLimiter.hit([
        { key: `self-initiate-confirm:ip:${request.ip}`, max: deps.config.rateLimits.perAddress },
      ]);
      const actor = publicActor(request, portal.customerId);
      const { token, password } = request.body;
      // 1. the token checked, the person's login found or made (no password yet)
      const loginId = await runInTenant(deps, actor, async (ctx) =>
        loginOfRegistration(ctx.tx, await registrationOfToken(ctx, portal.id, token)),
      );
      // 2. the password set (the system's: logins are no tenant's), as a claimed account's
      const passwordHash = await hashPassword(password);
      await runAsSystem(deps, async (ctx) => {
        await ctx.tx
          .update(subjectUsers)
          .set({ passwordHash, passwordChangedAt: ctx.clock.now() })
          .where(eq(subjectUsers.id, loginId));
        await recordAudit(
          ctx.tx,
          { ...actor, type: 'SubjectUser', id: loginId },
          {
            verb: 'account_claimed',
            contentType: 'users.subjectuser',
            objectId: loginId,
            customerId: portal.customerId,
          },
        );
      });
      await deps.sessions.destroyAllForUser('SubjectUser', loginId);
      // 3. confirmed, then the case or the payment (the token checked again under the lock)
      const out = await runInTenant(deps, actor, async (ctx) =>
        confirmAndProceed(
          ctx,
          mail,
          await registrationOfToken(ctx, portal.id, token),
          loginId,
          startRegistrationPayment,
        ),
      );
      await startSession(request, reply, {
        user: { type: 'SubjectUser', id: loginId },
        customerId: portal.customerId,
      });
      return out;
    },
  );

  r.post(
    '/api/s/self-initiate/:segmentId/:portalPath/',
    {
      schema: {
        tags,
        params: linkParams,
        response: { 200: registrationResultOut, 201: registrationResultOut },
      },
      config: SUBJECT,
    },
    async (request, reply) => {
      const user = request.session?.user;
      if (!user) throw new NotAuthenticatedError();
      if (user.type !== 'SubjectUser') throw new NotAuthenticatedError();
      const portal = await portalOf(request.params);
      await limited(request, portal.id);
      const [login] = await deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, (tx) =>
        tx.select().from(subjectUsers).where(eq(subjectUsers.id, user.id)).limit(1),
      );
      if (!login) throw new NotFoundError();
      const actor: Actor = {
        ...publicActor(request, portal.customerId),
        name: user.name || user.username || 'subject',
      };
      const out = await runInTenant(deps, actor, (ctx) =>
        registerSignedIn(
          ctx,
          mail,
          portal.id,
          {
            id: login.id,
            email: login.email,
            firstName: login.firstName,
            lastName: login.lastName,
            dob: login.dob,
            phone: login.phoneNumber,
          },
          paymentLinkOf,
          startRegistrationPayment,
        ),
      );
      return reply.code(out.existing ? 200 : 201).send(out);
    },
  );

  // ---- the customer's registrations

  r.get(
    '/api/portal-registrations/',
    {
      schema: { tags, querystring: listQuery, response: { 200: pageOut(portalRegistrationOut) } },
      config: VIEW_REG,
    },
    async (request) => {
      const page = listPage(request.query);
      const conds = registrationFilters(request.query);
      const out = await tenant(request, (ctx) => listRegistrations(ctx, conds, page), true);
      return pageResponse(
        request,
        '/api/portal-registrations/',
        page.page,
        page.pageSize,
        out.count,
        out.results,
      );
    },
  );

  r.get(
    '/api/portal-registrations/:id/',
    {
      schema: { tags, params: idParams, response: { 200: portalRegistrationDetailOut } },
      config: VIEW_REG,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return tenant(request, (ctx) => getRegistration(ctx, id), true);
    },
  );

  r.post(
    '/api/portal-registrations/:id/resend-confirmation/',
    {
      schema: { tags, params: idParams, response: { 200: detailOut } },
      config: RESEND_REG,
    },
    async (request) => {
      const id = parseId(request.params.id);
      await tenant(request, (ctx) => resendConfirmation(ctx, mail, id));
      return { detail: REGISTRATION_MESSAGES.confirmationSent };
    },
  );
}
