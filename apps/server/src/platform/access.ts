import { type Entitlement, type Permission, TOTP_REQUIRED_NOTICE } from '@kestrel/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordRefusal } from './audit.js';
import type { Actor, SessionState, SessionUser } from './context.js';
import { brandAddressOf } from './email-site.js';
import {
  CsrfError,
  MaintenanceError,
  NotAuthenticatedError,
  PermissionDeniedError,
} from './errors.js';
import { viewWindow } from './maintenance.js';
import {
  type RunOptions,
  runAsSystem,
  runInOps,
  runInTenant,
  type ServiceContext,
} from './service-context.js';
import { safeEqual } from './tokens.js';

/**
 * Who may call a route:
 * - `public`: anyone (a session is still needed for CSRF on unsafe methods);
 * - `authenticated`: any logged-in user; `product`: customer or ops staff;
 * - `subject`: subject users; `ops`: operations staff.
 * Paths decide first: /api/ops/ is ops, /api/s/ and /api/lms/s/ are subject,
 * /api/public/ and /api/lms/public/ are public. Elsewhere the default is `product`.
 */
export type Audience = 'public' | 'authenticated' | 'product' | 'subject' | 'ops';

/** Declared on each route as `config: { access: {...} }`; checked in one place (`checkAccess`). */
export interface RouteAccess {
  audience?: Audience;
  permissions?: readonly Permission[];
  entitlements?: readonly Entitlement[];
  /** Still answer while a maintenance window is open (login, logout, check-session). */
  duringMaintenance?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The valid session of this request, or null. Set by `checkAccess`. */
    session: SessionState | null;
  }
}

export const SESSION_COOKIE = 'kestrel_session';
export const CSRF_HEADER = 'x-csrftoken';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The audience a path belongs to, whatever a route declares. */
export function audienceOf(url: string, declared: Audience | undefined): Audience {
  if (url.startsWith('/api/ops/')) return 'ops';
  if (url.startsWith('/api/s/') || url.startsWith('/api/lms/s/')) return 'subject';
  if (url.startsWith('/api/public/') || url.startsWith('/api/lms/public/')) return 'public';
  return declared ?? 'product';
}

/** The user of the request; throws 401 when there is none. */
export function requireUser(request: FastifyRequest): SessionUser {
  const user = request.session?.user;
  if (!user) throw new NotAuthenticatedError();
  return user;
}

/** The actor of the request for services and audit. */
export function actorOf(request: FastifyRequest): Actor {
  const s = request.session;
  const u = s?.user ?? null;
  return {
    type: u?.type ?? null,
    id: u?.id ?? null,
    name: u?.name || u?.username || 'anonymous',
    customerId: s?.customerId ?? null,
    isOps: u?.isOps ?? false,
    permissions: u?.permissions ?? new Set(),
    ip: request.ip,
    requestId: String(request.id),
    brandAddress: brandAddressOf(request),
  };
}

/**
 * The actor of an /api/ops/ request: its customer cleared, so nothing is scoped to an ops
 * session's customer by accident (run with `runInOps`, which refuses anyone but ops staff).
 */
export function opsActorOf(request: FastifyRequest): Actor {
  return { ...actorOf(request), customerId: null };
}

/**
 * Runs `fn` for a route of either scope: `tenant` with the request's actor (`runInTenant`), `ops`
 * across every tenant with its ops actor (`runInOps`, 403 for anyone but ops staff). A route's
 * audience names its scope too: `staff` and `subject` run in their tenant.
 */
export function runForRequest<T>(
  request: FastifyRequest,
  scope: 'tenant' | 'ops' | 'staff' | 'subject',
  fn: (ctx: ServiceContext) => Promise<T>,
  opts?: RunOptions,
): Promise<T> {
  const deps = request.server.deps;
  return scope === 'ops'
    ? runInOps(deps, opsActorOf(request), fn, opts)
    : runInTenant(deps, actorOf(request), fn, opts);
}

function isSameOrigin(request: FastifyRequest, origin: string, publicUrl: string): boolean {
  if (origin === publicUrl) return true;
  return origin === `${request.protocol}://${request.host}`;
}

/**
 * Records a refused authorisation in a transaction of its own: not one audit row per request
 * (a client looping on a refused call would flood the customer's activity trail) but one
 * `security_refusals` row per actor, customer, route and window, counted (recordRefusal).
 */
export async function auditRefusal(request: FastifyRequest, reason: string): Promise<void> {
  const route = request.is404 ? undefined : request.routeOptions.url;
  const path = request.url.split('?')[0] ?? '';
  await runAsSystem(
    request.server.deps,
    ({ tx, actor, clock }) =>
      recordRefusal(tx, actor, {
        route: `${request.method} ${route ?? path}`,
        path,
        reason,
        at: clock.now(),
      }),
    actorOf(request),
  );
}

/**
 * Resolves an `Authorization: Bearer <key>` to the state a request acts with (issue 33: a
 * customer's API key, modules/api-keys): a product actor of the key's customer holding exactly
 * its scopes. It throws 401 for an unknown or revoked key and 429 past the key's rate limit.
 */
export type BearerResolver = (request: FastifyRequest, token: string) => Promise<SessionState>;
let bearerResolver: BearerResolver | null = null;

/** Sets how bearer tokens are resolved (the api-keys module, when its routes register). */
export function useBearerResolver(resolve: BearerResolver): void {
  bearerResolver = resolve;
}

/** The token of an `Authorization: Bearer ...` header, or null when there is none. */
export function bearerTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^Bearer\s/i.test(header)) return null;
  const m = /^Bearer\s+(\S{1,200})\s*$/i.exec(header);
  if (!m?.[1]) throw new NotAuthenticatedError('Invalid API key.');
  return m[1];
}

/** Routes of the signed-in person's own account. */
const ownAccount = (route: string) =>
  route.startsWith('/api/user/') || route.startsWith('/api/accounts/');

/** 403; the error handler audits it (as every PermissionDeniedError). */
function deny(reason: string): never {
  throw new PermissionDeniedError(undefined, reason);
}

/**
 * The one place access is decided, for every /api/ request (an onRequest hook, so it runs
 * before body parsing and validation): session, maintenance (503), CSRF and Origin (403),
 * audience (401/403), permissions and entitlements (403, audited).
 */
export async function checkAccess(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // Decided on the route the router matched, never on the raw URL: the router decodes the path
  // (`/%61pi/s/...` reaches `/api/s/...`), so a test of the raw URL could be stepped around.
  const route = request.is404 ? undefined : request.routeOptions.url;
  const api = route?.startsWith('/api/') === true;
  if (api || request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  // Unknown /api/ paths (and the static wildcard) are not API routes: they answer 404.
  if (!api || route === undefined) return;
  const { sessions, maintenance, config } = request.server.deps;
  // A bearer key stands instead of the cookie: no session, so no CSRF to check (a browser never
  // adds the header by itself to another site's request).
  const bearer = bearerTokenOf(request);
  if (bearer !== null && !bearerResolver) throw new NotAuthenticatedError('Invalid API key.');
  const session =
    bearer !== null && bearerResolver
      ? await bearerResolver(request, bearer)
      : await sessions.resolve(request.cookies[SESSION_COOKIE]);
  request.session = session;
  const access = request.routeOptions.config.access ?? {};
  const user = session?.user ?? null;

  if (!access.duringMaintenance && !user?.isOps) {
    const open = await maintenance.open();
    if (open) throw new MaintenanceError(viewWindow(open));
  }

  if (UNSAFE.has(request.method) && bearer === null) {
    const origin = request.headers.origin;
    if (origin && !isSameOrigin(request, origin, config.publicUrl)) throw new CsrfError();
    const sent = request.headers[CSRF_HEADER];
    // A visitor without a session: the token signed for its anonymous cookie (no stored row).
    const expected =
      session?.csrfToken ??
      request.server.deps.anonymousCsrf.tokenFor(request.cookies[SESSION_COOKIE]);
    if (!expected || typeof sent !== 'string' || !safeEqual(sent, expected)) {
      throw new CsrfError();
    }
  }

  const audience = audienceOf(route, access.audience);
  if (audience === 'public') return;
  if (!user) throw new NotAuthenticatedError();
  // A key acts for its customer's product screens only: never ops, a subject, or an account.
  if (bearer !== null && (audience !== 'product' || ownAccount(route))) deny('api key audience');
  if (audience === 'product' && user.type !== 'ProductUser') deny('audience');
  if (audience === 'subject' && user.type !== 'SubjectUser') deny('audience');
  if (audience === 'ops' && !user.isOps) deny('audience');

  const missing = (access.permissions ?? []).filter((p) => !user.permissions.has(p));
  if (missing.length > 0) deny(`missing ${missing.join(', ')}`);
  // The organisation requires two-factor sign-in and this user has not set it up: their own
  // account (sign-out, profile, setting up TOTP) and the reference lists every screen loads stay
  // open; nothing that needs a permission (the organisation's data) does until they have.
  if (user.totpSetupRequired && (access.permissions ?? []).length > 0 && !ownAccount(route)) {
    throw new PermissionDeniedError(TOTP_REQUIRED_NOTICE, 'two-factor setup required');
  }
  if (!user.isOps && session) {
    const lacking = (access.entitlements ?? []).filter((e) => !session.entitlements.includes(e));
    if (lacking.length > 0) deny(`entitlement ${lacking.join(', ')}`);
  }
}
