import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from './access.js';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kestrel</title></head>
<body><h1>Kestrel</h1><p>The API is running. The web app has not been built (apps/web/dist is missing).</p>
<p><a href="/api/docs/">API documentation</a></p></body></html>`;

/** Vite's output folders: a missing file there is a 404, never the SPA page. */
const ASSET_DIRS = /^\/(assets|js|css)\//;
/** Content-hashed build output (e.g. js/index-8sXypwb.js: scripts carry 7 characters of hash, vite.config.ts), safe to cache for a year. */
const HASHED = /^(assets|js|css)\/.+-[A-Za-z0-9_-]{7,}\.[a-z0-9]+(\.(br|gz))?$/;

interface RoutePreload {
  name?: string;
  pattern: string;
  audience: string;
  files: string[];
  css: string[];
  /** The screen's first API reads, `:name` standing for the route's parameter. */
  reads?: string[];
}

/** dist/.vite/prerender.json (web vite.config.ts, prerenderPages): each brand's pages' first paint. */
interface PrerenderFile {
  brands: {
    /** The brand's name: the pre-rendered page's title is '{index.html's title} · {name}'. */
    name?: string;
    hosts: string[];
    /** The brand of unknown hosts. */
    fallback: boolean;
    /** Markup by page name ('login'). */
    pages: Record<string, string>;
  }[];
  /** The text of the stylesheets index.html links, inlined in a pre-rendered page. */
  css: string;
}

interface PreloadsFile {
  routes: RoutePreload[];
  /** API reads the app makes at once for a signed-in audience (its bootstrap), by audience. */
  fetch?: Record<string, string[]>;
}

/** A react-router pattern ('/cases/:id', '/docs/*', '/a/:b?') as an anchored regular expression. */
export function patternRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .filter((s) => s !== '')
    .map((seg) => {
      if (seg === '*') return '(?:/.*)?';
      const optional = seg.endsWith('?');
      const s = optional ? seg.slice(0, -1) : seg;
      const part = s.startsWith(':') ? '/[^/]+' : `/${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      return optional ? `(?:${part})?` : part;
    })
    .join('');
  return new RegExp(`^${body || '/'}/?$`);
}

const PROTECTED = new Set(['product', 'ops', 'subject']);

/** A route's reads with its parameters taken from the address (encoded: they go in an attribute). */
export function readsFor(pattern: string, path: string, reads: readonly string[]): string[] {
  const names = pattern.split('/');
  const values = path.split('/');
  const params = new Map<string, string>();
  names.forEach((seg, i) => {
    const value = values[i];
    if (seg.startsWith(':') && value) params.set(seg.slice(1).replace(/\?$/, ''), value);
  });
  const out: string[] = [];
  for (const url of reads) {
    let missing = false;
    const filled = url.replace(/:(\w+)/g, (_m, name: string) => {
      const value = params.get(name);
      if (value === undefined) missing = true;
      return encodeURIComponent(safeDecode(value ?? ''));
    });
    if (!missing) out.push(filled);
  }
  return out;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The SPA page for one address: index.html with `<link rel=modulepreload>` for the matched route's
 * layout and screen chunks (from dist/.vite/route-preloads.json, written by the web build) and
 * `<link rel=preload as=style>` for their CSS, so a first visit fetches them with the entry instead
 * of after the entry ran and the guard decided. A protected route preloads only for a request that
 * carries a session cookie: a visitor without one is sent to sign in, whose page is in the entry.
 * With the cookie, the audience's bootstrap reads (the `fetch` lists of the same file, e.g. the
 * subject's profile) are preloaded too (`<link rel=preload as=fetch>`): the app's own requests
 * for them, made once check-session answered, take the answers already on their way; so do a
 * route's own first reads (`reads`, e.g. the subject's dashboard lists, the case portal's case).
 * Pages are built once per route and session state, with brotli and gzip copies.
 */
export function spaPages(dist: string, sessionCookie: string) {
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  const prerender = readPrerender(dist);
  let preloads: RoutePreload[] = [];
  let fetches: Record<string, string[]> = {};
  try {
    const parsed = JSON.parse(
      readFileSync(join(dist, '.vite', 'route-preloads.json'), 'utf8'),
    ) as PreloadsFile;
    preloads = parsed.routes;
    fetches = parsed.fetch ?? {};
  } catch {
    // An older build without the file: the plain index.html.
  }
  const dynamic = (p: string) => p.split('/').filter((s) => s.startsWith(':') || s === '*').length;
  // Static segments win over parameters ('/cases/add' before '/cases/:id'), as in react-router.
  const routes = preloads
    .map((r) => ({ ...r, re: patternRegExp(r.pattern) }))
    .sort((a, b) => dynamic(a.pattern) - dynamic(b.pattern));
  const cookieRe = new RegExp(`(?:^|;\\s*)${sessionCookie}=[^;]`);
  type Page = { html: string; br: Buffer; gz: Buffer };
  const pages = new Map<string, Page>();
  const make = (html: string): Page => ({
    html,
    br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gz: gzipSync(html, { level: 9 }),
  });
  const plain = make(index);
  // The sign-in page by host name: its brand's pre-rendered first paint.
  const signIns = new Map<string, Page>();
  let signInElsewhere = plain;
  for (const brand of prerender?.brands ?? []) {
    const login = brand.pages.login;
    if (!login) continue;
    const page = make(withFirstPaint(index, login, prerender?.css ?? '', brand.name));
    for (const host of brand.hosts) signIns.set(host.toLowerCase(), page);
    if (brand.fallback) signInElsewhere = page;
  }
  return (
    path: string,
    cookieHeader: string | undefined,
    request: { host?: string; search?: string } = {},
  ): Page => {
    const route = routes.find((r) => r.re.test(path));
    if (!route) return plain;
    const signedIn = cookieRe.test(cookieHeader ?? '');
    // The sign-in page's first paint, in the host's brand, for a visitor without a session: on
    // /login and where such a visitor is sent to it (a staff page; a subject's page goes to its
    // own wording, ?subject=y, which keeps the loader).
    if (
      !signedIn &&
      ((route.name === 'login' && !/(?:^|[?&])subject=y(?:&|$)/.test(request.search ?? '')) ||
        route.audience === 'product' ||
        route.audience === 'ops')
    ) {
      const host = (request.host ?? '').replace(/:\d+$/, '').toLowerCase();
      return signIns.get(host) ?? signInElsewhere;
    }
    if (route.files.length === 0 && route.css.length === 0 && !route.reads?.length) return plain;
    if (PROTECTED.has(route.audience) && !signedIn) return plain;
    // A page whose reads name the route's parameters is made for its address (not kept: one
    // per address would grow without end); the others once per route.
    const perAddress = (route.reads ?? []).some((url) => url.includes(':'));
    const cached = perAddress ? undefined : pages.get(route.pattern);
    if (cached) return cached;
    const links = [
      ...[
        ...(PROTECTED.has(route.audience) ? (fetches[route.audience] ?? []) : []),
        ...readsFor(route.pattern, path, route.reads ?? []),
      ].map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`),
      ...route.css.map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
      ...route.files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ].join('\n    ');
    const page = make(index.replace('</head>', `    ${links}\n  </head>`));
    if (!perAddress) pages.set(route.pattern, page);
    return page;
  };
}

function readPrerender(dist: string): PrerenderFile | undefined {
  try {
    const parsed = JSON.parse(
      readFileSync(join(dist, '.vite', 'prerender.json'), 'utf8'),
    ) as PrerenderFile;
    return Array.isArray(parsed.brands) && typeof parsed.css === 'string' ? parsed : undefined;
  } catch {
    // A build without pre-rendered pages: the plain index.html.
    return undefined;
  }
}

/**
 * index.html with a pre-rendered page as its first paint: the loader out, and the linked
 * stylesheets (the entry's, the only one) inlined with the page after them, before #root. The
 * page paints once the HTML is parsed, before any script or stylesheet arrived: with a linked
 * stylesheet the paint waited for it, the scripts arrived with it and ran first; with the page
 * before the link, the link's rules arriving later overrode the page's own (a layout shift).
 * Lazy stylesheets still go before #root (late-styles.ts), after the inlined one. Light, as
 * signed-out pages are.
 */
export function withFirstPaint(
  index: string,
  markup: string,
  css: string,
  brandName?: string,
): string {
  // The loader (index.html): one div without divs inside.
  const loader = /\s*<div id="boot-loader"[^>]*>[\s\S]*?<\/div>/;
  const links = /\s*<link rel="stylesheet"[^>]*>/g;
  const root = '<div id="root">';
  if (!index.includes(root) || !loader.test(index)) return index;
  return index
    .replace(loader, '')
    .replace(links, '')
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace(/<title>([^<]*)<\/title>/, (whole, title: string) =>
      // the title the app gives the page once it runs (guard.tsx), from the first paint on
      brandName ? `<title>${title} · ${escapeHtml(brandName)}</title>` : whole,
    )
    .replace(root, () => `<style>${css}</style>\n    ${markup}\n    ${root}`);
}

/**
 * Serves the built SPA: hashed files under /assets/, /js/ and /css/ cached for a year, precompressed .br/.gz when
 * present, and index.html for any other non-/api GET (SPA fallback). Static files are not rate
 * limited and need no session.
 */
export async function registerWebStatic(app: FastifyInstance, dist: string | null): Promise<void> {
  const hasIndex = dist !== null && existsSync(join(dist, 'index.html'));
  const pageFor = dist !== null && hasIndex ? spaPages(dist, SESSION_COOKIE) : null;
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
      if (pageFor) {
        const at = request.url.indexOf('?');
        const page = pageFor(path, request.headers.cookie, {
          host: request.headers.host,
          search: at === -1 ? '' : request.url.slice(at),
        });
        const accept = String(request.headers['accept-encoding'] ?? '');
        // the page differs by encoding, session and host (each brand's pre-rendered sign-in)
        reply.header('vary', 'accept-encoding, cookie, host').type('text/html; charset=utf-8');
        if (/\bbr\b/.test(accept)) return reply.header('content-encoding', 'br').send(page.br);
        if (/\bgzip\b/.test(accept)) return reply.header('content-encoding', 'gzip').send(page.gz);
        return reply.send(page.html);
      }
      return reply.type('text/html').send(PLACEHOLDER);
    }
    reply.code(404).send({ detail: 'Not found.' });
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);
