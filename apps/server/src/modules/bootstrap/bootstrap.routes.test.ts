import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { flags } from '../flags/flags.table.js';

let t: TestApp;
let acme: number;
let other: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (
      await createCustomer(tx, {
        name: 'Acme',
        entitlements: ['regportals', 'cycles'],
        activityTypes: ['dbs-basic', 'rtw'],
      })
    ).id;
    other = (await createCustomer(tx, { name: 'Other', entitlements: ['subject_dedup'] })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: acme, username: 'none@acme.test', roles: [] });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await createSubjectUser(tx, { customerId: acme, email: 'subject@example.test' });
    await tx.insert(flags).values([
      { customerId: acme, kind: 'a' },
      { customerId: acme, kind: 'b', active: false },
      { customerId: other, kind: 'c' },
      { customerId: other, kind: 'd' },
    ]);
  });
});
afterAll(() => t.close());

const get = async (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('bootstrap endpoints', () => {
  it('answer 401 without a session', async () => {
    for (const url of [
      '/api/content-types/',
      '/api/s/content-types/',
      '/api/activity-types/',
      '/api/verbs/',
      '/api/entitlements/',
      '/api/flags/active-count/',
      '/api/countries/',
      '/api/s/cases/country-map/',
    ]) {
      expect([url, (await get(url)).statusCode]).toEqual([url, 401]);
    }
  });

  it('content types, paged', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await get('/api/content-types/?page_size=100', a.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toContainEqual({
      id: expect.any(Number),
      app_label: 'audit',
      model: 'auditaction',
    });
    const page = await get('/api/content-types/?page_size=2&page=2', a.cookie);
    expect(page.json()).toMatchObject({
      next: expect.stringContaining('page=3'),
      previous: expect.stringContaining('page=1'),
    });
    expect(page.json().results).toHaveLength(2);
  });

  it('subject content types and country map are for subjects only', async () => {
    const s = await login(t.app, 'subject@example.test');
    const a = await login(t.app, 'admin@acme.test');
    expect((await get('/api/s/content-types/', s.cookie)).statusCode).toBe(200);
    expect((await get('/api/s/content-types/', a.cookie)).statusCode).toBe(403);
    expect((await get('/api/content-types/', s.cookie)).statusCode).toBe(403);
    const map = await get('/api/s/cases/country-map/', s.cookie);
    expect(map.statusCode).toBe(200);
    expect(map.json().GBR).toEqual({
      name: expect.any(String),
      nationality: 'British',
      deprecated: false,
      ebulk_missing: false,
    });
    expect((await get('/api/s/cases/country-map/', a.cookie)).statusCode).toBe(403);
  });

  it('countries: the full ISO map keyed by alpha-3, GBR first', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const body = (await get('/api/countries/', a.cookie)).json();
    expect(Object.keys(body)[0]).toBe('GBR');
    expect(Object.keys(body).length).toBeGreaterThan(240);
    expect(body.FRA).toMatchObject({ nationality: 'French', deprecated: false });
  });

  it('activity types of the session customer, paged', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await get('/api/activity-types/?page_size=100', a.cookie);
    expect(
      res
        .json()
        .results.map((r: { code: string }) => r.code)
        .sort(),
    ).toEqual(['dbs-basic', 'rtw']);
    expect(res.json().results[0]).toEqual({
      id: expect.any(Number),
      code: expect.any(String),
      name: expect.any(String),
      kind: expect.any(String),
    });
    const o = await login(t.app, 'ops@k.test');
    expect(
      (await get('/api/activity-types/?page_size=100', o.cookie)).json().count,
    ).toBeGreaterThan(5);
  });

  it('verbs', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await get('/api/verbs/?page_size=100', a.cookie);
    expect(res.json().results).toContainEqual({
      id: expect.any(Number),
      code: 'created',
      name: 'Created',
    });
  });

  it('entitlements of the session customer only', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await get('/api/entitlements/', a.cookie);
    expect(
      res
        .json()
        .results.map((e: { entitlement: string }) => e.entitlement)
        .sort(),
    ).toEqual(['cycles', 'regportals']);
  });

  it('active flag count of the session customer; 403 without flags.view_flag', async () => {
    const v = await login(t.app, 'viewer@acme.test');
    expect((await get('/api/flags/active-count/', v.cookie)).json()).toEqual({ active: 1 });
    const n = await login(t.app, 'none@acme.test');
    expect((await get('/api/flags/active-count/', n.cookie)).statusCode).toBe(403);
  });
});
