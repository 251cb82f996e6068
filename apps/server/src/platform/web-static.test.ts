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
    { pattern: '/payment-portal/:id', audience: 'public', files: ['js/pay-1.js'], css: [] },
  ];
  writeFileSync(join(dist, '.vite', 'route-preloads.json'), JSON.stringify({ routes }));
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
