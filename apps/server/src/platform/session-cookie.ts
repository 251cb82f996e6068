import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../db/connection.js';
import { SESSION_COOKIE } from './access.js';
import type { UserType } from './context.js';

/**
 * Starts a new session for the request (replacing, i.e. rotating, the current one) and sets the
 * cookie. Returns the new CSRF token (kept when `keepCsrf`).
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: {
    user: { type: UserType; id: number } | null;
    customerId: number | null;
    keepCsrf?: boolean;
    /** Keep the original authentication time (rotation without a new login). */
    keepAuthTime?: boolean;
    /** More writes of the session's transaction (the audit of a login or a customer switch). */
    also?: (tx: Tx) => Promise<unknown>;
  },
): Promise<string> {
  const old = request.session;
  const { token, csrfToken } = await request.server.deps.sessions.create({
    user: opts.user,
    customerId: opts.customerId,
    meta: { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
    replaces: old,
    ...(opts.keepCsrf && old ? { csrfToken: old.csrfToken } : {}),
    ...(opts.keepAuthTime && old ? { authenticatedAt: old.authenticatedAt } : {}),
    ...(opts.also ? { also: opts.also } : {}),
  });
  setSessionCookie(request, reply, token);
  return csrfToken;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}
