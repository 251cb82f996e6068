import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../test/helpers.js';
import { flags } from '../modules/flags/flags.table.js';
import { registerResource } from './resource-router.js';
import { auditActions } from './tables/audit.table.js';

// A resource over the flags table, registered only for this test, exercises the generic router.
let t: TestApp;
let acme: number;
let other: number;
let otherFlag: number;

beforeAll(async () => {
  t = await buildTestApp({
    extraModules: [
      {
        name: 'test-flags',
        routes: async (app) => {
          registerResource(app, {
            path: '/api/test-flags/',
            table: flags,
            id: flags.id,
            contentType: 'flags.flag',
            access: {
              read: { permissions: ['flags.view_flag'] },
              write: { permissions: ['flags.change_flag'] },
            },
            present: (f) => ({
              id: f.id,
              kind: f.kind,
              message: f.message,
              active: f.active,
              case: f.caseId,
            }),
            repr: (f) => f.kind,
            filters: { active: flags.active, case: flags.caseId, kind: flags.kind },
            search: [flags.message],
            ordering: { kind: flags.kind },
            create: {
              body: z.object({
                kind: z.string().min(1, 'Required').max(50),
                message: z.string().max(200).default(''),
                case_id: z.number().int().nullable().default(null),
              }),
            },
            update: {
              body: z.object({
                kind: z.string().min(1, 'Required').max(50),
                message: z.string().max(200),
                active: z.boolean(),
              }),
            },
          });
        },
      },
    ],
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
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
    await tx.insert(flags).values(
      Array.from({ length: 30 }, (_, i) => ({
        customerId: acme,
        kind: `k${String(i).padStart(2, '0')}`,
        message: i % 3 === 0 ? `needs attention ${i}` : 'fine',
        active: i % 2 === 0,
        caseId: i < 5 ? null : i,
      })),
    );
    const [f] = await tx.insert(flags).values({ customerId: other, kind: 'secret' }).returning();
    otherFlag = f?.id ?? 0;
  });
});
afterAll(() => t.close());

describe('generic resource router', () => {
  it('lists with pagination, filters, search and ordering', async () => {
    const a = await login(t.app, 'viewer@acme.test');
    const get = (q: string) =>
      t.app.inject({ method: 'GET', url: `/api/test-flags/${q}`, headers: a.headers });
    let res = await get('');
    expect(res.json()).toMatchObject({ count: 30, previous: null });
    expect(res.json().results).toHaveLength(25);
    expect(res.json().next).toContain('page=2');
    res = await get('?page=2');
    expect(res.json().results).toHaveLength(5);
    expect(res.json().next).toBeNull();
    res = await get('?active=true&page_size=100');
    expect(res.json().count).toBe(15);
    res = await get('?case=');
    expect(res.json().count).toBe(5);
    res = await get('?case=5,6,7');
    expect(res.json().count).toBe(3);
    res = await get('?search=ATTENTION');
    expect(res.json().count).toBe(10);
    res = await get('?ordering=kind&page_size=2');
    expect(res.json().results.map((f: { kind: string }) => f.kind)).toEqual(['k00', 'k01']);
    res = await get('?ordering=-kind&page_size=1');
    expect(res.json().results[0].kind).toBe('k29');
    res = await get('?case=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ case: ['Enter a whole number.'] });
    // another tenant's rows never appear
    res = await get('?kind=secret');
    expect(res.json().count).toBe(0);
  });

  it('creates (201), retrieves, updates (PUT/PATCH 200), deletes (204), with audit rows', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/test-flags/',
      headers: a.headers,
      payload: { kind: 'new', message: 'hello' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(created.json()).toEqual({ id, kind: 'new', message: 'hello', active: true, case: null });
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/test-flags/${id}/`,
      headers: a.headers,
    });
    expect(got.json().kind).toBe('new');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/test-flags/${id}/`,
      headers: a.headers,
      payload: { kind: 'renamed', message: 'hi', active: false },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ kind: 'renamed', active: false });
    const badPut = await t.app.inject({
      method: 'PUT',
      url: `/api/test-flags/${id}/`,
      headers: a.headers,
      payload: { kind: 'x' },
    });
    expect(badPut.statusCode).toBe(400);
    expect(Object.keys(badPut.json()).sort()).toEqual(['active', 'message']);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/test-flags/${id}/`,
      headers: a.headers,
      payload: { message: 'patched' },
    });
    expect(patch.json()).toMatchObject({ kind: 'renamed', message: 'patched' });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/test-flags/${id}/`,
      headers: a.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/test-flags/${id}/`, headers: a.headers }))
        .statusCode,
    ).toBe(404);
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(eq(auditActions.objectId, String(id))),
    );
    const mine = audits.filter((x) => x.contentType === 'flags.flag');
    expect(mine.map((x) => x.verb)).toEqual(['created', 'updated', 'updated', 'deleted']);
    expect(mine.every((x) => x.customerId === acme && x.actorName !== '')).toBe(true);
    expect(mine[1]?.changes).toMatchObject({ kind: ['new', 'renamed'], active: [true, false] });
  });

  it('answers 404 for another tenant object on every operation', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const url = `/api/test-flags/${otherFlag}/`;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { kind: 'x', message: 'y', active: true }],
      ['PATCH', { message: 'y' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: a.headers,
        ...(payload ? { payload } : {}),
      });
      expect([method, res.statusCode]).toEqual([method, 404]);
    }
    const [still] = await t.owner((tx) => tx.select().from(flags).where(eq(flags.id, otherFlag)));
    expect(still?.kind).toBe('secret');
  });

  it('answers 403 without the permission, 401 without a session', async () => {
    const v = await login(t.app, 'viewer@acme.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-flags/',
      headers: v.headers,
      payload: { kind: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/test-flags/' })).statusCode).toBe(401);
  });
});
