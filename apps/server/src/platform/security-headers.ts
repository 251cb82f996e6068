import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';

/** Helmet's headers for Kestrel: CSP for a same-origin SPA; HSTS is added per request on HTTPS. */
export const helmetOptions: Readonly<HelmetOptions> = {
  hsts: false,
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
};

/**
 * `helmetOptions` with more origins the browser may connect to (the live address search's, when
 * configured): those only, never a wildcard.
 */
export function helmetOptionsFor(extra: { connectSrc: readonly string[] }): HelmetOptions {
  const csp = helmetOptions.contentSecurityPolicy;
  if (extra.connectSrc.length === 0 || typeof csp !== 'object' || !csp.directives) {
    return helmetOptions;
  }
  return {
    ...helmetOptions,
    contentSecurityPolicy: {
      ...csp,
      directives: { ...csp.directives, connectSrc: ["'self'", ...extra.connectSrc] },
    },
  };
}

/**
 * The headers helmet sets, computed once. They depend only on the options, so running helmet's
 * middleware on every request (as @fastify/helmet does, rebuilding it each time, parsing the CSP
 * directives included) repeats the same work: measured at several per cent of a list request.
 */
export function securityHeaders(options: Readonly<HelmetOptions> = helmetOptions) {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  let failed: unknown = null;
  helmet(options)(res.req, res, (err?: unknown) => {
    failed = err ?? null;
  });
  if (failed) throw failed;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined)
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
