import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kestrel</title></head>
<body><h1>Kestrel</h1><p>The API is running. The web app has not been built (apps/web/dist is missing).</p>
<p><a href="/api/docs/">API documentation</a></p></body></html>`;

/**
 * Serves the built SPA: hashed files under /assets/ cached for a year, precompressed .br/.gz when
 * present, and index.html for any other non-/api GET (SPA fallback). Static files are not rate
 * limited and need no session.
 */
export async function registerWebStatic(app: FastifyInstance, dist: string | null): Promise<void> {
  const hasIndex = dist !== null && existsSync(join(dist, 'index.html'));
  if (dist && hasIndex) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, path) {
        res.header(
          'cache-control',
          path.includes(`${join(dist, 'assets')}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !path.startsWith('/assets/')
    ) {
      reply.header('cache-control', 'no-cache');
      if (hasIndex) return reply.type('text/html').sendFile('index.html');
      return reply.type('text/html').send(PLACEHOLDER);
    }
    reply.code(404).send({ detail: 'Not found.' });
  });
}
