import { auditActionOut } from '@kestrel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';

let t: TestApp;
let acme: number;
let other: number;
let otherAuditId: number;

beforeAll(async () => {
  t = await buildTestApp();
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
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await tx.insert(auditActions).values([
      {
        customerId: acme,
        verb: 'created',
        contentType: 'cases.case',
        objectId: '1',
        objectRepr: 'Case one',
      },
      {
        customerId: acme,
        verb: 'updated',
        contentType: 'cases.case',
        objectId: '1',
        objectRepr: 'Case one',
      },
    ]);
    const [row] = await tx
      .insert(auditActions)
      .values({ customerId: other, verb: 'created', contentType: 'cases.case', objectId: '9' })
      .returning();
    otherAuditId = row?.id ?? 0;
  });
});
afterAll(() => t.close());

describe('/api/audit-actions/', () => {
  it('lists the session customer actions, filtered and searched', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/',
      headers: a.headers,
    });
    expect(res.statusCode).toBe(200);
    const rows: { customer: number; verb: string }[] = res.json().results;
    expect(rows.every((r) => r.customer === acme)).toBe(true);
    expect(rows.map((r) => r.verb)).toEqual(
      expect.arrayContaining(['created', 'updated', 'logged_in']),
    );
    const filtered = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?verb=updated,created&content_type=cases.case&ordering=id',
      headers: a.headers,
    });
    expect(filtered.json().results.map((r: { verb: string }) => r.verb)).toEqual([
      'created',
      'updated',
    ]);
    const searched = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?search=case%20one',
      headers: a.headers,
    });
    expect(searched.json().count).toBe(2);
  });

  it("runs one prepared statement per query shape with each request's own values", async () => {
    const a = await login(t.app, 'admin@acme.test');
    const verbsOf = async (qs: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/audit-actions/?${qs}`, headers: a.headers }))
        .json()
        .results.map((r: { verb: string }) => r.verb);
    // the same shape twice with other values, then other shapes: no answer leaks into the next
    expect(new Set(await verbsOf('verb=created'))).toEqual(new Set(['created']));
    expect(new Set(await verbsOf('verb=updated'))).toEqual(new Set(['updated']));
    expect(new Set(await verbsOf('verb=updated,logged_in'))).toEqual(
      new Set(['updated', 'logged_in']),
    );
    expect(await verbsOf('verb=nothing-like-it')).toEqual([]);
    expect(await verbsOf('created_after=2999-01-01')).toEqual([]);
    expect((await verbsOf('created_after=2000-01-01')).length).toBeGreaterThan(2);
    const nulls = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?object_id=',
      headers: a.headers,
    });
    expect(nulls.statusCode).toBe(200);
    expect(
      nulls.json().results.every((r: { object_id: string | null }) => r.object_id === null),
    ).toBe(true);
    expect(await verbsOf('search=zzz-no-match')).toEqual([]);
  });

  it('retrieves one; another tenant answers 404', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/',
      headers: a.headers,
    });
    const id = list.json().results[0].id;
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/audit-actions/${id}/`,
      headers: a.headers,
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().id).toBe(id);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/audit-actions/${otherAuditId}/`,
      headers: a.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ detail: 'Not found.' });
    const junk = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/abc/',
      headers: a.headers,
    });
    expect(junk.statusCode).toBe(404);
  });

  it('renders list rows in SQL exactly as the retrieve presenter does', async () => {
    // Awkward values: quotes, unicode, nested changes, null ids, sub-millisecond timestamps.
    await t.owner((tx) =>
      tx.insert(auditActions).values({
        customerId: acme,
        actorType: null,
        actorId: null,
        actorName: 'Zoë "Z" O\'Brien',
        verb: 'updated',
        contentType: 'subjects.subject',
        objectId: null,
        objectRepr: 'line\nbreak \\ back',
        changes: { a: { from: null, to: [1, 'two', { x: true }] }, é: 1.5 },
        createdAt: new Date('2026-03-04T05:06:07.891Z'),
      }),
    );
    const a = await login(t.app, 'admin@acme.test');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?page_size=100',
      headers: a.headers,
    });
    expect(list.headers['content-type']).toMatch(/^application\/json/);
    const rows: { id: number }[] = list.json().results;
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      const one = await t.app.inject({
        method: 'GET',
        url: `/api/audit-actions/${row.id}/`,
        headers: a.headers,
      });
      expect(row).toEqual(one.json());
      // Written by PostgreSQL, not by the serializer: checked against the contract here.
      expect(auditActionOut.parse(row)).toEqual(row);
    }
    expect(rows.some((r) => JSON.stringify(r).includes('2026-03-04T05:06:07.891Z'))).toBe(true);
  });

  it('needs audit.view_auditaction (403), and is read-only (405/404 on writes)', async () => {
    const v = await login(t.app, 'viewer@acme.test');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/',
      headers: v.headers,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    const a = await login(t.app, 'admin@acme.test');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/audit-actions/1/`,
      headers: a.headers,
    });
    expect(del.statusCode).toBe(404);
  });

  it('validates paging; page_size is capped at 100', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?page=0',
      headers: a.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['page']);
    const big = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?page_size=1000',
      headers: a.headers,
    });
    expect(big.statusCode).toBe(200);
    const beyond = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?page=99',
      headers: a.headers,
    });
    expect(beyond.statusCode).toBe(404);
  });

  it('ops see every customer through /api/ops/audit-actions/', async () => {
    const o = await login(t.app, 'ops@k.test');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/ops/audit-actions/?customer=${other}`,
      headers: o.headers,
    });
    expect(res.json().results.map((r: { id: number }) => r.id)).toEqual([otherAuditId]);
    const a = await login(t.app, 'admin@acme.test');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/ops/audit-actions/', headers: a.headers }))
        .statusCode,
    ).toBe(403);
  });
});
