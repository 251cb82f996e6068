import {
  accountToken,
  checkSessionOut,
  detailOut,
  loginBody,
  loginOut,
  noContent,
  passwordResetRequest,
  registrationFields,
  registrationOut,
} from '@kestrel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, SESSION_COOKIE } from '../../platform/access.js';
import { MaintenanceError, ValidationError } from '../../platform/errors.js';
import { viewWindow } from '../../platform/maintenance.js';
import { passwordSchema } from '../../platform/password-rule.js';
import type { RateLimitRule } from '../../platform/rate-limit.js';
import { customerTx } from '../../platform/service-context.js';
import {
  clearSessionCookie,
  setSessionCookie,
  startSession,
} from '../../platform/session-cookie.js';
import { passwordSignInRefused } from '../sso/sso.service.js';
import {
  auditLogin,
  authenticate,
  consumeTokenSetPassword,
  isOpsStaff,
  registerCustomer,
  requestPasswordReset,
} from './accounts.service.js';

/** The session check's answer (the contract: @kestrel/domain contracts/session.ts). */
export const checkSessionResponse = checkSessionOut;
const loginResponse = loginOut;

const detail = detailOut;
/** A token and a new password (reset confirmation, claiming an account). */
const tokenAndPassword = accountToken.extend({ password: passwordSchema });

/** Per-account and per-address limits for a credential endpoint, checked before hashing. */
export function limitKeys(request: FastifyRequest, kind: string, account: string) {
  const { perAccount, perAddress } = request.server.deps.config.rateLimits;
  return [
    { key: `${kind}:acct:${account.trim().toLowerCase().slice(0, 254)}`, max: perAccount },
    { key: `${kind}:ip:${request.ip}`, max: perAddress },
  ];
}

/**
 * The limits of a login, as OWASP advises: failures are counted per account *and* address, so an
 * attacker throttles only himself and the owner, from an address that has not been failing, still
 * gets in; no account is ever locked for everyone. The per-address limit stays. While an account
 * draws many attempts from anywhere (a distributed guess), each failing address gets fewer tries.
 * The first key (account and address) is cleared by a success.
 */
export function loginLimitKeys(request: FastifyRequest, username: string): RateLimitRule[] {
  const { perAccount, perAddress, accountUnderAttack, perSourceUnderAttack } =
    request.server.deps.config.rateLimits;
  const account = `login:acct:${username.trim().toLowerCase().slice(0, 254)}`;
  const accountAndSource = `${account}:ip:${request.ip}`;
  return [
    { key: accountAndSource, max: perAccount },
    { key: `login:ip:${request.ip}`, max: perAddress },
    {
      key: accountAndSource,
      max: perSourceUnderAttack,
      onlyIf: { key: account, atLeast: accountUnderAttack },
    },
    { key: account, max: Number.POSITIVE_INFINITY },
  ];
}

/** /api/accounts/: session check, login, logout, password reset, registration. */
export async function accountsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/accounts/check-session/',
    {
      schema: { tags: ['accounts'], response: { 200: checkSessionResponse } },
      config: { access: { audience: 'public', duringMaintenance: true } },
    },
    async (request, reply) => {
      const session = request.session;
      const user = session?.user ?? null;
      if (user && !user.isOps) {
        const open = await deps.maintenance.open();
        if (open) throw new MaintenanceError(viewWindow(open));
      }
      let csrf = session?.csrfToken;
      if (!csrf) {
        // No session row for a visitor: a CSRF token signed for its anonymous cookie.
        const cookie = request.cookies[SESSION_COOKIE];
        const signed = deps.anonymousCsrf.tokenFor(cookie);
        if (signed) csrf = signed;
        else {
          const fresh = deps.anonymousCsrf.newCookie();
          setSessionCookie(request, reply, fresh);
          csrf = deps.anonymousCsrf.tokenFor(fresh) ?? '';
        }
      }
      const customerId = session?.customerId ?? null;
      let activeFlags = 0;
      // The navigation badge of those who may see flags (as /api/flags/active-count/): never a
      // subject user's, nor a staff member's without flags.view_flag.
      if (user && customerId !== null && user.permissions.has('flags.view_flag')) {
        // Polled every few seconds by every tab: cached like the session (SESSION_CACHE_MS),
        // dropped by this process's writes for the customer (see Database.readCached).
        // Read as the user: one limited to segments counts only their cases' flags (security.ts).
        const rows = await deps.db.readCached(
          { ...customerTx(customerId), userId: user.id },
          'select count(*)::int as n from flags where active',
          deps.config.sessionCacheMs,
        );
        activeFlags = Number(rows[0]?.n ?? 0);
      }
      const announced = await deps.maintenance.announced();
      return {
        authenticated: user !== null,
        csrf_token: csrf,
        user_type: user?.type ?? null,
        session_customer: user ? customerId : null,
        active_flags: activeFlags,
        maintenance_window: announced ? viewWindow(announced) : null,
      };
    },
  );

  r.post(
    '/api/accounts/login/',
    {
      schema: {
        tags: ['accounts'],
        body: loginBody,
        response: { 200: loginResponse },
      },
      config: { access: { audience: 'public', duringMaintenance: true } },
    },
    async (request, reply) => {
      const keys = loginLimitKeys(request, request.body.username);
      await deps.rateLimiter.hit(keys);
      // An organisation that signs its staff in itself may refuse their passwords (sso module).
      const refused = await passwordSignInRefused(deps, request.body.username);
      if (refused) throw ValidationError.of('non_field_errors', refused);
      const who = await authenticate(deps, actorOf(request), request.body);
      // During a maintenance window only ops staff may log in (others get the 503 of every call).
      const open = await deps.maintenance.open();
      if (open && !(who.type === 'ProductUser' && (await isOpsStaff(deps, who.id)))) {
        throw new MaintenanceError(viewWindow(open));
      }
      const csrf = await startSession(request, reply, {
        user: { type: who.type, id: who.id },
        customerId: who.customerId,
        also: auditLogin(actorOf(request), who, 'logged_in'),
      });
      await deps.rateLimiter.reset([keys[0]?.key ?? '']);
      return { csrf_token: csrf, user_type: who.type };
    },
  );

  r.post(
    '/api/accounts/logout/',
    {
      schema: { tags: ['accounts'], response: { 204: noContent } },
      config: { access: { audience: 'public', duringMaintenance: true } },
    },
    async (request, reply) => {
      const session = request.session;
      if (session) {
        const user = session.user;
        await deps.sessions.destroy(
          session,
          user
            ? auditLogin(
                actorOf(request),
                {
                  type: user.type,
                  id: user.id,
                  customerId: session.customerId,
                  name: user.username,
                },
                'logged_out',
              )
            : undefined,
        );
      }
      clearSessionCookie(request, reply);
      reply.code(204).send();
    },
  );

  r.post(
    '/api/accounts/password-reset/',
    {
      schema: {
        tags: ['accounts'],
        body: passwordResetRequest,
        response: { 200: detail },
      },
      config: { access: { audience: 'public' } },
    },
    async (request) => {
      await deps.rateLimiter.hit(limitKeys(request, 'reset', request.body.email));
      await requestPasswordReset(
        { db: deps.db, clock: deps.clock, publicUrl: deps.config.publicUrl },
        actorOf(request),
        request.body.email,
      );
      return { detail: 'Password reset e-mail has been sent.' };
    },
  );

  r.post(
    '/api/accounts/password-reset-confirm/',
    {
      schema: {
        tags: ['accounts'],
        body: tokenAndPassword,
        response: { 200: detail },
      },
      config: { access: { audience: 'public' } },
    },
    async (request) => {
      await deps.rateLimiter.hit(limitKeys(request, 'reset-confirm', request.body.token));
      await consumeTokenSetPassword(
        deps,
        actorOf(request),
        'reset',
        request.body.token,
        request.body.password,
      );
      return { detail: 'Password has been reset with the new password.' };
    },
  );

  r.post(
    '/api/accounts/registration/',
    {
      schema: {
        tags: ['accounts'],
        body: registrationFields.extend({ password: passwordSchema }),
        response: { 201: registrationOut },
      },
      config: { access: { audience: 'public' } },
    },
    async (request, reply) => {
      await deps.rateLimiter.hit(limitKeys(request, 'register', request.body.email));
      const who = await registerCustomer(deps, actorOf(request), request.body);
      const csrf = await startSession(request, reply, {
        user: { type: who.type, id: who.id },
        customerId: who.customerId,
      });
      reply.code(201);
      return { csrf_token: csrf, user_type: who.type, customer: who.customerId ?? 0 };
    },
  );

  // Subjects claim the account a customer created for them, with the emailed token.
  r.post(
    '/api/user/claim-account/',
    {
      schema: {
        tags: ['accounts'],
        body: tokenAndPassword,
        response: { 200: loginResponse },
      },
      config: { access: { audience: 'public' } },
    },
    async (request, reply) => {
      await deps.rateLimiter.hit(limitKeys(request, 'claim', request.body.token));
      const who = await consumeTokenSetPassword(
        deps,
        actorOf(request),
        'claim',
        request.body.token,
        request.body.password,
      );
      const csrf = await startSession(request, reply, {
        user: { type: who.type, id: who.id },
        customerId: who.customerId,
      });
      return { csrf_token: csrf, user_type: who.type };
    },
  );
}
