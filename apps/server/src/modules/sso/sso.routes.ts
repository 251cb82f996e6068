import {
  ssoCallbackIn,
  ssoCallbackOut,
  ssoConfigIn,
  ssoConfigOut,
  ssoDiscoveryIn,
  ssoDiscoveryOut,
  ssoStartIn,
  ssoStartOut,
} from '@kestrel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, SESSION_COOKIE } from '../../platform/access.js';
import { emailSite } from '../../platform/email-site.js';
import { startSession } from '../../platform/session-cookie.js';
import { limitKeys } from '../accounts/accounts.routes.js';
import {
  auditSsoLogin,
  finishSignIn,
  getSsoConfig,
  putSsoConfig,
  runDiscoveryTest,
  startSignIn,
} from './sso.service.js';

/** The customer-change permission of the organisation's account (route 'customer-account'). */
const ADMIN = {
  access: { audience: 'product' as const, permissions: ['customers.change_customer' as const] },
};
const PUBLIC = { access: { audience: 'public' as const } };

/** The web page the provider sends the person back to, on the host they came through. */
export function redirectUriOf(request: FastifyRequest): string {
  const actor = actorOf(request);
  const base = emailSite(actor.brandAddress, request.server.deps.config.publicUrl).publicUrl;
  // normalised (http://host:80 is http://host) as the library sends it back at the exchange
  return new URL('/auth/callback', base).href;
}

/** The browser's cookie (anonymous or not): a sign-in is finished by the browser that began it. */
function browserOf(request: FastifyRequest): string {
  return request.cookies[SESSION_COOKIE] ?? '';
}

/**
 * Organisation sign-in (OpenID Connect, issue 30): the administrator's configuration
 * (GET/PUT /api/sso-config/, POST /api/sso-config/test-discovery/) and the sign-in itself
 * (POST /api/accounts/sso/start/ then /api/accounts/sso/callback/).
 */
export async function ssoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  r.get(
    '/api/sso-config/',
    { schema: { tags: ['sso'], response: { 200: ssoConfigOut } }, config: ADMIN },
    async (request) => getSsoConfig(deps, actorOf(request)),
  );

  r.put(
    '/api/sso-config/',
    {
      schema: { tags: ['sso'], body: ssoConfigIn, response: { 200: ssoConfigOut } },
      config: ADMIN,
    },
    async (request) => putSsoConfig(deps, actorOf(request), request.body),
  );

  r.post(
    '/api/sso-config/test-discovery/',
    {
      schema: { tags: ['sso'], body: ssoDiscoveryIn, response: { 200: ssoDiscoveryOut } },
      config: ADMIN,
    },
    async (request) => runDiscoveryTest(deps, actorOf(request), request.body.issuer),
  );

  r.post(
    '/api/accounts/sso/start/',
    {
      schema: { tags: ['accounts'], body: ssoStartIn, response: { 200: ssoStartOut } },
      config: PUBLIC,
    },
    async (request) => {
      await deps.rateLimiter.hit(limitKeys(request, 'sso-start', request.body.email));
      const url = await startSignIn(deps, {
        email: request.body.email,
        next: request.body.next,
        redirectUri: redirectUriOf(request),
        browser: browserOf(request),
      });
      return { authorization_url: url };
    },
  );

  r.post(
    '/api/accounts/sso/callback/',
    {
      schema: { tags: ['accounts'], body: ssoCallbackIn, response: { 200: ssoCallbackOut } },
      // not during a maintenance window (503 before anything): only ops staff sign in then,
      // and they have no organisation
      config: PUBLIC,
    },
    async (request, reply) => {
      await deps.rateLimiter.hit(limitKeys(request, 'sso-callback', request.body.state));
      const actor = actorOf(request);
      const who = await finishSignIn(deps, actor, { ...request.body, browser: browserOf(request) });
      const csrf = await startSession(request, reply, {
        user: { type: 'ProductUser', id: who.userId },
        customerId: who.customerId,
        also: auditSsoLogin(actor, who),
      });
      return { csrf_token: csrf, user_type: 'ProductUser' as const, next: who.next };
    },
  );
}
