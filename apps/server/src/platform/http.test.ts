import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'kestrel-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kestrel SPA</title>');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const js = 'console.log("hello kestrel");'.repeat(50);
  writeFileSync(join(dist, 'assets', 'app-abc12345.js'), js);
  mkdirSync(join(dist, 'js'));
  writeFileSync(join(dist, 'js', 'index-8sXypwbA.js'), js);
  writeFileSync(join(dist, 'assets', 'app-abc12345.js.br'), brotliCompressSync(js));
  t = await buildTestApp({
    config: { webDist: dist },
    extraModules: [
      {
        name: 'boom',
        routes: async (app) => {
          app.get('/api/public/boom/', async () => {
            throw new Error('select secret from /etc/passwd');
          });
        },
      },
    ],
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('HTTP basics', () => {
  it('sets security headers and no-store on API answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/accounts/check-session/' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    // the same headers helmet's middleware sets, computed once
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'",
    );
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('keeps a well-formed X-Request-Id and replaces a malformed one', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'evil\u0000value with spaces' },
    });
    expect(bad.headers['x-request-id']).not.toContain('evil');
  });

  it('answers 500 without stack, SQL or paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/boom/' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: 'A server error occurred.' });
  });

  it('answers 404 JSON for unknown API paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('serves /healthz and the OpenAPI document', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
      status: 'ok',
    });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    const doc = docs.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/accounts/login/', '/api/audit-actions/{id}/']),
    );
  });

  it('serves the SPA with fallback, precompressed immutable assets', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Kestrel SPA');
    const deep = await t.app.inject({ method: 'GET', url: '/cases/12/details?tab=x' });
    expect(deep.body).toContain('Kestrel SPA');
    expect(deep.headers['content-security-policy']).toBeDefined();
    const asset = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc12345.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/assets/nope.js', '/js/nope-12345678.js', '/css/x.css']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    const js = await t.app.inject({ method: 'GET', url: '/js/index-8sXypwbA.js' });
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache');
  });

  it('serves the app, not JSON, for a page address with doubled slashes', async () => {
    const cases: [string, string][] = [
      ['//cases', '/cases'],
      ['//cases/12?tab=x', '/cases/12?tab=x'],
      ['/cases//12', '/cases/12'],
      ['///', '/'],
      ['//evil.test/x', '/evil.test/x'],
      ['//s/dashboard', '/s/dashboard'],
    ];
    for (const [url, clean] of cases) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, `${url} ${res.body}`).toBe(308);
      expect(res.headers.location, url).toBe(clean);
      const page = await t.app.inject({ method: 'GET', url: clean });
      expect(page.statusCode, clean).toBe(200);
      expect(page.headers['content-type'], clean).toMatch(/^text\/html/);
      expect(page.body, clean).toContain('Kestrel SPA');
    }
    // The API keeps its own 404s, doubled slashes or not.
    for (const url of ['/api//nope/', '//api/nope/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/json/);
    }
  });
});

describe('without a built web app', () => {
  it('serves a minimal page instead of crashing', async () => {
    const bare = await buildTestApp({ config: { webDist: join(dist, 'missing') } });
    const res = await bare.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('The API is running');
    await bare.close();
  });

  it('sends HSTS only over HTTPS', async () => {
    const proxied = await buildTestApp({ config: { trustProxy: 1 } });
    const res = await proxied.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    // and the session cookie is Secure there (not over plain HTTP)
    const secure = await proxied.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(secure.cookies.find((c) => c.name === 'kestrel_session')?.secure).toBe(true);
    const plain = await proxied.app.inject({ method: 'GET', url: '/api/accounts/check-session/' });
    expect(plain.cookies.find((c) => c.name === 'kestrel_session')?.secure).toBeFalsy();
    await proxied.close();
  });
});

describe('/healthz', () => {
  it('answers 503 when the database does not answer', async () => {
    const t2 = await buildTestApp();
    // The same app over a database whose connection is gone: ping fails as a closed pool would.
    const original = t2.db.ping.bind(t2.db);
    t2.db.ping = () => Promise.reject(new Error('connection refused'));
    const res = await t2.app.inject({ method: 'GET', url: '/healthz' });
    expect([res.statusCode, res.json()]).toEqual([503, { status: 'unavailable' }]);
    t2.db.ping = original;
    expect((await t2.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await t2.close();
  });
});
