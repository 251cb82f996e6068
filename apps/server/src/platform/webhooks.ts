import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import { keepRawBodies, parseJsonText } from './body-parsing.js';
import { fieldErrorsOf, NotAuthenticatedError, NotFoundError, ValidationError } from './errors.js';

/*
 * The one mechanism of inbound signed webhooks (a provider calling Kestrel back: the
 * criminal-record providers' callbacks, the identity provider's, the payment provider's events).
 *
 * - The signature: header `<name>: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
 *   with the endpoint's secret (Stripe's scheme; several `v1` are accepted, as when a provider
 *   rolls its secret). Over the exact bytes sent: the body is kept raw.
 * - The timestamp window: a signature older or newer than WEBHOOK_TOLERANCE_SECONDS is refused,
 *   so a captured delivery cannot be replayed later.
 * - A real provider configured without its own secret has every webhook refused (the
 *   simulators' secrets are the installation's, not the provider's).
 * - The body: the one JSON parser (depth and content limits), then the user's schema; 400 with
 *   field errors otherwise.
 * - Then the user's `receive`: the inbox (the verified event stored under its event id, unique:
 *   a replay answers 'duplicate' and changes nothing) and the hand-off of its work (a job, or the
 *   same transaction), and its answer.
 *
 * Each user declares its path, secret, header, schema and receiver (signedWebhook below).
 */

/** A signature this far (seconds) from the server's time is refused either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The hex HMAC-SHA256 of `<timestamp>.<body>` with `secret`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The signature header's value for `body` sent at `timestamp` (unix seconds); `key` names the
 * signature (`v1`, Stripe's; a provider may call it otherwise, as `sha256`).
 */
export function signWebhook(secret: string, timestamp: number, body: string, key = 'v1'): string {
  return `t=${timestamp},${key}=${webhookSignature(secret, timestamp, body)}`;
}

export type SignatureCheck = 'ok' | 'missing' | 'malformed' | 'expired' | 'mismatch';

/** Checks `header` against the raw `body` at `nowSeconds`, in constant time. */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
  key = 'v1',
): SignatureCheck {
  if (!header || !secret) return 'missing';
  let t: number | null = null;
  const sent: string[] = [];
  for (const item of header.split(',')) {
    const i = item.indexOf('=');
    const name = item.slice(0, i).trim();
    const value = item.slice(i + 1).trim();
    if (name === 't' && t === null) t = /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
    if (name === key && /^[0-9a-f]{64}$/.test(value)) sent.push(value);
  }
  if (t === null || !Number.isInteger(t) || sent.length === 0) return 'malformed';
  if (Math.abs(nowSeconds - t) > WEBHOOK_TOLERANCE_SECONDS) return 'expired';
  const expected = Buffer.from(webhookSignature(secret, t, body), 'hex');
  return sent.some((v) => timingSafeEqual(Buffer.from(v, 'hex'), expected)) ? 'ok' : 'mismatch';
}

/** True when `header` signs `body` with `secret` within the window (the providers' `verify`). */
export const isSignedWebhook = (
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
): boolean => verifyWebhookSignature(secret, header, body, nowSeconds) === 'ok';

/** A verified webhook's body, through the one JSON parser, then `schema` (400 otherwise). */
export function parseWebhookBody<T>(schema: z.ZodType<T>, raw: string): T {
  const parsed = schema.safeParse(parseJsonText(raw));
  if (!parsed.success) {
    throw new ValidationError(
      fieldErrorsOf(
        parsed.error.issues.map((i) => ({ key: i.path.join('.'), message: i.message })),
      ),
    );
  }
  return parsed.data;
}

/** How one request to an endpoint is checked (per request: a path may name its provider). */
export interface WebhookSigning<E> {
  /** The secret; null when a real provider is configured without it (every webhook refused). */
  secret: string | null;
  /** The header the signature comes in (lower case). */
  header: string;
  /** The body's schema (the event id and what names the tenant's object among its fields). */
  schema: z.ZodType<E>;
  /** Another scheme than the platform's (a provider's own); the platform's by default. */
  verify?: (secret: string, header: string | undefined, raw: string, nowSeconds: number) => boolean;
}

export interface SignedWebhook<P, E, A> {
  /** The route (outside /api/: no session, no CSRF token). */
  path: string;
  /** What a refused signature answers (401). */
  refusal: string;
  /** The route's schema for Fastify (the answer's; hidden or not from the API document). */
  routeSchema?: FastifySchema;
  /** How this request is signed; null: no such endpoint (404). */
  signing: (request: FastifyRequest<{ Params: P }>) => WebhookSigning<E> | null;
  /**
   * The verified event: stored in its inbox under its event id (a replay answered as such,
   * changing nothing), its work handed on (a job, or the same transaction), and the answer. An
   * event naming what is not the endpoint's (another tenant's object) is refused here.
   */
  receive: (request: FastifyRequest<{ Params: P }>, event: E) => Promise<A>;
}

/** Serves `def` in its own scope (raw JSON bodies). */
export async function signedWebhook<P, E, A>(
  app: FastifyInstance,
  def: SignedWebhook<P, E, A>,
): Promise<void> {
  await app.register(async (scope) => {
    keepRawBodies(scope, 'application/json');
    scope.post<{ Params: P }>(
      def.path,
      { schema: def.routeSchema ?? { hide: true } },
      async (request, reply) => {
        const signing = def.signing(request);
        if (!signing) throw new NotFoundError();
        const raw = typeof request.body === 'string' ? request.body : '';
        const header = request.headers[signing.header];
        const nowSeconds = Math.floor(request.server.deps.clock.now().getTime() / 1000);
        const verify = signing.verify ?? isSignedWebhook;
        const signed =
          signing.secret !== null &&
          verify(signing.secret, typeof header === 'string' ? header : undefined, raw, nowSeconds);
        if (!signed) throw new NotAuthenticatedError(def.refusal);
        const event = parseWebhookBody(signing.schema, raw);
        return reply.code(200).send(await def.receive(request, event));
      },
    );
  });
}
