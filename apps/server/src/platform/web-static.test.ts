import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patternRegExp, registerWebStatic, spaPages, withFirstPaint } from './web-static.js';

let dist: string;
const INDEX = '<!doctype html><html><head><title>Kestrel</title></head><body></body></html>';

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'kestrel-spa-'));
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  const routes = [
    { pattern: '/login', audience: 'public', files: [], css: [] },
    { pattern: '/cases/:id', audience: 'product', files: ['js/case-detail-1.js'], css: [] },
    { pattern: '/cases/add', audience: 'product', files: ['js/case-add-1.js'], css: [] },
    {
      pattern: '/s/dashboard',
      audience: 'subject',
      files: ['js/subject-layout-1.js', 'js/dashboard-page-1.js'],
      css: ['css/user-menu-1.css'],
    },
    {
      pattern: '/payment-portal/:id',
      audience: 'public',
      files: ['js/pay-1.js'],
      css: [],
      reads: ['/api/public/payment-portal/:id/'],
    },
    {
      pattern: '/s/case-portal/:id/:section?',
      audience: 'subject',
      files: ['js/portal-1.js'],
      css: [],
      reads: ['/api/s/case-portal/:id/', '/api/s/other/:missing/'],
    },
  ];
  const fetch = { subject: ['/api/user/', '/api/s/content-types/?page_size=100'] };
  writeFileSync(join(dist, '.vite', 'route-preloads.json'), JSON.stringify({ routes, fetch }));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('route patterns', () => {
  it('match as react-router matches them', () => {
    expect(patternRegExp('/cases/:id').test('/cases/12')).toBe(true);
    expect(patternRegExp('/cases/:id').test('/cases/12/')).toBe(true);
    expect(patternRegExp('/cases/:id').test('/cases/12/activities')).toBe(false);
    expect(patternRegExp('/cases/:id').test('/cases')).toBe(false);
    expect(patternRegExp('/a/:b?').test('/a')).toBe(true);
    expect(patternRegExp('/docs/*').test('/docs/x/y')).toBe(true);
    expect(patternRegExp('/').test('/')).toBe(true);
    expect(patternRegExp('/a.b').test('/axb')).toBe(false);
  });
});

describe('the SPA page of an address', () => {
  it("preloads a public route's chunks for anyone", () => {
    const page = spaPages(dist, 'kestrel_session')('/payment-portal/pit_A', undefined);
    expect(page.html).toContain('<link rel="modulepreload" crossorigin href="/js/pay-1.js">');
    expect(page.html.indexOf('/js/pay-1.js')).toBeLessThan(page.html.indexOf('</head>'));
    expect(brotliDecompressSync(page.br).toString()).toBe(page.html);
    expect(gunzipSync(page.gz).toString()).toBe(page.html);
  });

  it("preloads a protected route's chunks only with a session cookie", () => {
    const pageFor = spaPages(dist, 'kestrel_session');
    expect(pageFor('/s/dashboard', undefined).html).toBe(INDEX);
    expect(pageFor('/s/dashboard', 'other=1').html).toBe(INDEX);
    const signedIn = pageFor('/s/dashboard', 'a=1; kestrel_session=abc').html;
    expect(signedIn).toContain('href="/js/subject-layout-1.js"');
    expect(signedIn).toContain('href="/js/dashboard-page-1.js"');
    expect(signedIn).toContain(
      '<link rel="preload" as="style" crossorigin href="/css/user-menu-1.css">',
    );
  });

  it("preloads a signed-in audience's bootstrap reads, never for a visitor or a public page", () => {
    const pageFor = spaPages(dist, 'kestrel_session');
    const signedIn = pageFor('/s/dashboard', 'kestrel_session=abc').html;
    expect(signedIn).toContain('<link rel="preload" as="fetch" crossorigin href="/api/user/">');
    expect(signedIn).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/s/content-types/?page_size=100">',
    );
    expect(pageFor('/s/dashboard', undefined).html).not.toContain('as="fetch"');
    expect(pageFor('/login', 'kestrel_session=abc').html).not.toContain('as="fetch"');
    expect(pageFor('/cases/7', 'kestrel_session=abc').html).not.toContain('as="fetch"');
  });

  it("preloads a route's first reads with the address's parameters, encoded", () => {
    const pageFor = spaPages(dist, 'kestrel_session');
    const pay = pageFor('/payment-portal/pit_A', undefined).html;
    expect(pay).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/public/payment-portal/pit_A/">',
    );
    expect(pageFor('/payment-portal/pit_B', undefined).html).toContain('payment-portal/pit_B/');
    const portal = pageFor('/s/case-portal/80/done', 'kestrel_session=abc').html;
    expect(portal).toContain('href="/api/s/case-portal/80/"');
    expect(portal).toContain('href="/api/user/"');
    // A parameter the address does not give: that read is left out.
    expect(portal).not.toContain('/api/s/other/');
    // Without a session cookie a protected route preloads nothing.
    expect(pageFor('/s/case-portal/80', undefined).html).toBe(INDEX);
    const odd = pageFor('/payment-portal/%22%3E%3Cscript%3E', undefined).html;
    expect(odd).toContain('href="/api/public/payment-portal/%22%3E%3Cscript%3E/"');
    expect(odd).not.toContain('<script>');
  });

  it('prefers static segments over parameters, and serves index.html for the rest', () => {
    const pageFor = spaPages(dist, 'kestrel_session');
    const add = pageFor('/cases/add', 'kestrel_session=abc').html;
    expect(add).toContain('case-add-1.js');
    expect(add).not.toContain('case-detail-1.js');
    expect(pageFor('/cases/7', 'kestrel_session=abc').html).toContain('case-detail-1.js');
    expect(pageFor('/login', undefined).html).toBe(INDEX);
    expect(pageFor('/nowhere', 'kestrel_session=abc').html).toBe(INDEX);
  });

  it('serves the plain index.html without a preload list (an older build)', () => {
    const bare = mkdtempSync(join(tmpdir(), 'kestrel-spa-'));
    try {
      writeFileSync(join(bare, 'index.html'), INDEX);
      expect(spaPages(bare, 'kestrel_session')('/payment-portal/x', undefined).html).toBe(INDEX);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe("the sign-in page's pre-rendered first paint", () => {
  const PAGE = `<!doctype html>
<html lang="en">
  <head><title>Sign in</title></head>
  <body>
    <div id="boot-loader" style="display:flex" aria-busy="true"><p style="margin:0">Loading…</p></div>
    <link rel="stylesheet" crossorigin href="/css/web-1.css">
    <div id="root"></div>
  </body>
</html>`;
  const MARKUP = '<div id="boot-loader" data-prerendered="login" inert=""><h1>Kestrel</h1></div>';
  const HARRIER = '<div id="boot-loader" data-prerendered="login" inert=""><h1>Harrier</h1></div>';
  let site: string;
  beforeAll(() => {
    site = mkdtempSync(join(tmpdir(), 'kestrel-spa-'));
    mkdirSync(join(site, '.vite'));
    writeFileSync(join(site, 'index.html'), PAGE);
    const routes = [
      { name: 'login', pattern: '/login', audience: 'public', files: [], css: [] },
      { name: 'signup', pattern: '/signup', audience: 'public', files: ['js/su-1.js'], css: [] },
      { name: 'case', pattern: '/cases/:id', audience: 'product', files: ['js/c-1.js'], css: [] },
      { name: 'ops:home', pattern: '/ops', audience: 'ops', files: ['js/o-1.js'], css: [] },
      {
        name: 's:dashboard',
        pattern: '/s/dashboard',
        audience: 'subject',
        files: ['js/d-1.js'],
        css: [],
      },
    ];
    writeFileSync(join(site, '.vite', 'route-preloads.json'), JSON.stringify({ routes }));
    writeFileSync(
      join(site, '.vite', 'prerender.json'),
      JSON.stringify({
        brands: [
          { id: 'kestrel', hosts: ['localhost'], fallback: true, pages: { login: MARKUP } },
          {
            id: 'harrier',
            name: 'Harrier',
            hosts: ['harrier.test'],
            fallback: false,
            pages: { login: HARRIER },
          },
        ],
        css: '.a{color:red}',
      }),
    );
  });
  afterAll(() => rmSync(site, { recursive: true, force: true }));

  it('inlines the stylesheet in place of its link, the markup after it, before #root, light', () => {
    const html = withFirstPaint(PAGE, MARKUP, '.a{color:red}');
    expect(html).toContain('<title>Sign in</title>');
    // with the brand's name, the title the app gives the page (screens.test: 'Sign in · Harrier')
    expect(withFirstPaint(PAGE, MARKUP, '', 'Harrier & Co')).toContain(
      '<title>Sign in · Harrier &amp; Co</title>',
    );
    expect(html).not.toContain('Loading…');
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html).toContain('<html lang="en" data-mantine-color-scheme="light">');
    const css = html.indexOf('<style>.a{color:red}</style>');
    const markup = html.indexOf(MARKUP);
    expect(css).toBeGreaterThan(0);
    expect(markup).toBeGreaterThan(css);
    expect(html.indexOf('<div id="root">')).toBeGreaterThan(markup);
    // An index.html without #root is left as it is.
    expect(withFirstPaint('<html lang="en"><body></body></html>', MARKUP, '')).not.toContain(
      MARKUP,
    );
  });

  it('says the page varies by host as well as encoding and session (one brand per host)', async () => {
    const app = Fastify();
    await registerWebStatic(app, site);
    const res = await app.inject({
      method: 'GET',
      url: '/login',
      headers: { host: 'harrier.test' },
    });
    expect(res.headers.vary).toBe('accept-encoding, cookie, host');
    expect(res.body).toContain('<title>Sign in · Harrier</title>');
    await app.close();
  });

  it('serves it on /login and on a protected staff page for a visitor without a session', () => {
    const pageFor = spaPages(site, 'kestrel_session');
    for (const path of ['/login', '/cases/1', '/ops']) {
      const page = pageFor(path, undefined, { host: 'localhost:8080', search: '?next=%2F' });
      expect(page.html, path).toContain(MARKUP);
      expect(page.html, path).not.toContain('Loading…');
      expect(brotliDecompressSync(page.br).toString()).toBe(page.html);
    }
    // the host's brand names the page from the first paint, as the app does once it runs
    // (and the answer varies by host, for a shared cache: 'vary' below)
    expect(pageFor('/login', undefined, { host: 'harrier.test' }).html).toContain(
      '<title>Sign in · Harrier</title>',
    );
  });

  it("serves the host's brand's, and the first brand's on an unknown host", () => {
    const pageFor = spaPages(site, 'kestrel_session');
    const html = (host?: string) => pageFor('/login', undefined, { host }).html;
    expect(html('Harrier.test:8080')).toContain(HARRIER);
    expect(html('harrier.test')).not.toContain(MARKUP);
    expect(html('localhost')).toContain(MARKUP);
    expect(html('elsewhere.example')).toContain(MARKUP);
    expect(html(undefined)).toContain(MARKUP);
  });

  it('keeps the loader with a session, for a subject and on other pages', () => {
    const pageFor = spaPages(site, 'kestrel_session');
    const loader = (path: string, cookie?: string, request = {}) =>
      expect(pageFor(path, cookie, request).html, path).toContain('Loading…');
    loader('/login', 'kestrel_session=abc');
    loader('/cases/1', 'kestrel_session=abc');
    loader('/login', undefined, { search: '?subject=y&next=%2Fs%2Fdashboard' });
    loader('/s/dashboard');
    loader('/signup');
    loader('/nowhere');
  });
});
