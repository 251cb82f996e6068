import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../test/helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    const c = await createCustomer(tx);
    await createProductUser(tx, {
      customerId: c.id,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
});
afterAll(() => t.close());

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('CSRF on every unsafe route (walking the route table)', () => {
  it('refuses a missing token, another session token, and a foreign Origin', async () => {
    const routes = t.app.routeTable.filter(
      (r) => UNSAFE.has(r.method) && r.url.startsWith('/api/'),
    );
    expect(routes.length).toBeGreaterThan(15);
    expect(routes).toContainEqual({ method: 'POST', url: '/api/accounts/login/' });
    const me = await login(t.app, 'ops@k.test');
    const other = await login(t.app, 'admin@acme.test');
    for (const route of routes) {
      const url = route.url.replace(/:[A-Za-z_]+/g, '1');
      const method = route.method as 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      const cases: [string, Record<string, string>][] = [
        ['missing', { cookie: me.cookie }],
        ['foreign token', { cookie: me.cookie, 'x-csrftoken': other.csrf }],
        ['foreign origin', { ...me.headers, origin: 'https://evil.example' }],
        ['no session', { 'x-csrftoken': me.csrf }],
      ];
      for (const [name, headers] of cases) {
        const res = await t.app.inject({ method, url, headers, payload: {} });
        expect([route.method, route.url, name, res.statusCode, res.json()]).toEqual([
          route.method,
          route.url,
          name,
          403,
          { detail: 'CSRF Failed' },
        ]);
      }
    }
  });

  it('accepts the right token from the same origin', async () => {
    const me = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: { ...me.headers, origin: 'http://localhost:80' },
      payload: { dark_mode: true },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('access is decided on the matched route, not the raw URL', () => {
  // The router decodes the path: /%61pi/... is /api/..., /api/%73/... is /api/s/...
  it('refuses an unsafe call without the token on a percent-encoded path', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/%61pi/accounts/login/',
      payload: { username: 'admin@acme.test', password: 'wrong' },
    });
    expect([res.statusCode, res.json()]).toEqual([403, { detail: 'CSRF Failed' }]);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps subject endpoints from product users on a percent-encoded path', async () => {
    const me = await login(t.app, 'admin@acme.test');
    for (const url of ['/api/%73/cases/country-map/', '/%61pi/s/cases/country-map/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: me.headers });
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/s/cases/country-map/',
      headers: me.headers,
    });
    expect(ok.statusCode).toBe(403);
  });

  it('keeps ops endpoints from customer users on a percent-encoded path', async () => {
    const me = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/%6Fps/cases/',
      headers: me.headers,
    });
    expect(res.statusCode).toBe(403);
  });
});
