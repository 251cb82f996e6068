import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patternRegExp, spaPages } from './web-static.js';

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
