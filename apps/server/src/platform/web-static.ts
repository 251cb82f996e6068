import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kestrel</title></head>
<body><h1>Kestrel</h1><p>The API is running. The web app has not been built (apps/web/dist is missing).</p>
<p><a href="/api/docs/">API documentation</a></p></body></html>`;

/** Vite's output folders: a missing file there is a 404, never the SPA page. */
const ASSET_DIRS = /^\/(assets|js|css)\//;
/** Content-hashed build output (e.g. js/index-8sXypwbA.js), safe to cache for a year. */
const HASHED = /^(assets|js|css)\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.(br|gz))?$/;

/**
 * Serves the built SPA: hashed files under /assets/, /js/ and /css/ cached for a year, precompressed .br/.gz when
 * present, and index.html for any other non-/api GET (SPA fallback). Static files are not rate
 * limited and need no session.
 */
export async function registerWebStatic(app: FastifyInstance, dist: string | null): Promise<void> {
  const hasIndex = dist !== null && existsSync(join(dist, 'index.html'));
  // A page address with doubled slashes ('//cases', a pasted or hand-edited link) would reach the
  // static files' router, which refuses it with a JSON 403: send the browser to the same address
  // with single slashes, where the app answers. The API keeps JSON answers.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const at = request.url.indexOf('?');
    const path = at === -1 ? request.url : request.url.slice(0, at);
    if (!path.includes('//')) return;
    const clean = path.replace(/\/{2,}/g, '/');
    if (clean.startsWith('/api/') || clean === '/api') {
      return reply.code(404).send({ detail: 'Not found.' });
    }
    return reply.redirect(`${clean}${at === -1 ? '' : request.url.slice(at)}`, 308);
  });
  if (dist && hasIndex) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, path) {
        const rel = relative(dist, path).split(sep).join('/');
        const hashed = HASHED.test(rel);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !ASSET_DIRS.test(path)
    ) {
      reply.header('cache-control', 'no-cache');
      if (hasIndex) return reply.type('text/html').sendFile('index.html');
      return reply.type('text/html').send(PLACEHOLDER);
    }
    reply.code(404).send({ detail: 'Not found.' });
  });
}
