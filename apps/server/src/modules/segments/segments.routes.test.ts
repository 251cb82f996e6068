import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProcess,
  createProductUser,
  createRole,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { processes } from '../processes/processes.table.js';
import { LIMITED_USER_MEMBERS, LIMITED_USER_PROCESSES } from './segments.routes.js';
import { segments, segmentUsers } from './segments.table.js';

let t: TestApp;
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let ops: Client;
let limited: Client;
let theirSegment: number;
let theirProcess: number;
let theirUser: number;
let colleague: number;
let processId: number;

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, { customerId: acme, username: 'admin@acme.test' });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    colleague = (
      await createProductUser(tx, {
        customerId: acme,
        username: 'colleague@acme.test',
        firstName: 'Cole',
        lastName: 'League',
        roles: ['viewer'],
      })
    ).id;
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    processId = (await createProcess(tx, { customerId: acme, name: 'Carers' })).id;
    theirProcess = (await createProcess(tx, { customerId: other })).id;
    theirUser = (await createProductUser(tx, { customerId: other })).id;
    const [s] = await tx.insert(segments).values({ customerId: other, name: 'Theirs' }).returning();
    theirSegment = s?.id ?? 0;
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

describe('/api/segments/', () => {
  let id = 0;

  it('creates a segment (name required; blanks kept empty), audited', async () => {
    const bad = await call(admin, 'POST', '/api/segments/', { name: ' ', postcode: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['name', 'postcode']);
    const res = await call(admin, 'POST', '/api/segments/', {
      name: 'North site',
      employer_name: 'Acme North Ltd',
      town: 'Leeds',
      postcode: 'ls6 2aa',
      contact_phone: '07911 123456',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    id = body.id;
    expect(body).toMatchObject({
      name: 'North site',
      employer_name: 'Acme North Ltd',
      line_one: '',
      postcode: 'LS6 2AA',
      contact_phone: '+447911123456',
      user_count: 0,
      process_count: 0,
    });
    const [audit] = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.contentType, 'segments.segment'), eq(auditActions.verb, 'created')),
        ),
    );
    expect(audit?.objectId).toBe(String(id));
  });

  it('lists with search and counts, retrieves, updates and patches', async () => {
    await call(admin, 'POST', '/api/segments/', { name: 'South site', town: 'Brighton' });
    const all = await call(viewer, 'GET', '/api/segments/');
    expect(all.statusCode).toBe(200);
    expect(all.json().results.map((s: { name: string }) => s.name)).toEqual([
      'North site',
      'South site',
    ]);
    const found = await call(viewer, 'GET', '/api/segments/?search=brigh');
    expect(found.json().results.map((s: { name: string }) => s.name)).toEqual(['South site']);
    expect((await call(viewer, 'GET', `/api/segments/${id}/`)).json().name).toBe('North site');
    const put = await call(admin, 'PUT', `/api/segments/${id}/`, {
      name: 'North',
      employer_name: 'Acme North Ltd',
      line_one: '1 Road',
      line_two: '',
      town: 'Leeds',
      postcode: '',
      contact_name: '',
      contact_email: '',
      contact_phone: '',
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'North', line_one: '1 Road', postcode: '' });
    const patch = await call(admin, 'PATCH', `/api/segments/${id}/`, { name: 'North site' });
    expect(patch.json().name).toBe('North site');
    expect((await call(admin, 'PATCH', `/api/segments/${id}/`, { name: '' })).statusCode).toBe(400);
  });

  it('refuses without the permissions (403) and hides another customer’s segment (404)', async () => {
    expect((await call(viewer, 'POST', '/api/segments/', { name: 'X' })).statusCode).toBe(403);
    expect((await call(viewer, 'PATCH', `/api/segments/${id}/`, { name: 'X' })).statusCode).toBe(
      403,
    );
    expect((await call(viewer, 'DELETE', `/api/segments/${id}/`)).statusCode).toBe(403);
    expect((await call(viewer, 'POST', `/api/segments/${id}/users/`, { user: 1 })).statusCode).toBe(
      403,
    );
    for (const url of [
      `/api/segments/${theirSegment}/`,
      `/api/segments/${theirSegment}/users/`,
      `/api/segments/${theirSegment}/processes/`,
    ]) {
      expect([url, (await call(admin, 'GET', url)).statusCode]).toEqual([url, 404]);
    }
    const list = await call(admin, 'GET', '/api/segments/');
    expect(list.json().results.map((s: { id: number }) => s.id)).not.toContain(theirSegment);
    expect((await call(admin, 'DELETE', `/api/segments/${theirSegment}/`)).statusCode).toBe(404);
  });

  it('adds and removes users of the organisation only', async () => {
    const bad = await call(admin, 'POST', `/api/segments/${id}/users/`, { user: theirUser });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ user: [`Invalid pk "${theirUser}" - object does not exist.`] });
    expect((await call(admin, 'POST', `/api/segments/${id}/users/`, {})).statusCode).toBe(400);
    const add = await call(admin, 'POST', `/api/segments/${id}/users/`, { user: colleague });
    expect(add.statusCode).toBe(201);
    expect(add.json()).toMatchObject({ id: colleague, first_name: 'Cole', last_name: 'League' });
    // again: no change
    expect(
      (await call(admin, 'POST', `/api/segments/${id}/users/`, { user: colleague })).statusCode,
    ).toBe(201);
    const list = await call(viewer, 'GET', `/api/segments/${id}/users/`);
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: colleague }] });
    expect((await call(viewer, 'GET', `/api/segments/${id}/`)).json().user_count).toBe(1);
    expect(
      (await call(admin, 'DELETE', `/api/segments/${id}/users/${colleague}/`)).statusCode,
    ).toBe(204);
    expect(
      (await call(admin, 'DELETE', `/api/segments/${id}/users/${colleague}/`)).statusCode,
    ).toBe(404);
  });

  it('assigns and unassigns processes of the organisation only', async () => {
    const bad = await call(admin, 'POST', `/api/segments/${id}/processes/`, {
      process: theirProcess,
    });
    expect(bad.json()).toEqual({
      process: [`Invalid pk "${theirProcess}" - object does not exist.`],
    });
    const add = await call(admin, 'POST', `/api/segments/${id}/processes/`, { process: processId });
    expect(add.statusCode).toBe(201);
    expect(add.json()).toEqual({ id: processId, name: 'Carers', is_active: true });
    const list = await call(viewer, 'GET', `/api/segments/${id}/processes/`);
    expect(list.json().results).toEqual([{ id: processId, name: 'Carers', is_active: true }]);
    expect((await call(viewer, 'GET', `/api/segments/${id}/`)).json().process_count).toBe(1);
    expect(
      (await call(admin, 'DELETE', `/api/segments/${id}/processes/${processId}/`)).statusCode,
    ).toBe(204);
    expect(
      (await call(admin, 'DELETE', `/api/segments/${id}/processes/${processId}/`)).statusCode,
    ).toBe(404);
  });

  it('a user limited to segments may not move processes', async () => {
    await t.owner(async (tx) => {
      const role = await createRole(tx, {
        customerId: acme,
        name: 'Site editor',
        permissions: ['segments.view_segment', 'segments.change_segment'],
      });
      const u = await createProductUser(tx, {
        customerId: acme,
        username: 'limited@acme.test',
        roles: [role.id],
      });
      await tx.insert(segmentUsers).values({ customerId: acme, segmentId: id, userId: u.id });
    });
    limited = await login(t.app, 'limited@acme.test');
    const res = await call(limited, 'POST', `/api/segments/${id}/processes/`, {
      process: processId,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: LIMITED_USER_PROCESSES });
  });

  it('a user limited to segments may not change who is in one (leaving theirs would unlimit them)', async () => {
    const me = (await call(limited, 'GET', '/api/user/')).json().id;
    const leave = await call(limited, 'DELETE', `/api/segments/${id}/users/${me}/`);
    expect(leave.statusCode).toBe(403);
    expect(leave.json()).toEqual({ detail: LIMITED_USER_MEMBERS });
    const add = await call(limited, 'POST', `/api/segments/${id}/users/`, { user: colleague });
    expect(add.statusCode).toBe(403);
    expect(add.json()).toEqual({ detail: LIMITED_USER_MEMBERS });
    const members = await call(admin, 'GET', `/api/segments/${id}/users/`);
    expect(members.json().results.map((u: { id: number }) => u.id)).toEqual([me]);
  });

  it("names a limited user's segments in their profile (the web hides add and remove by it)", async () => {
    expect((await call(limited, 'GET', '/api/user/')).json().segments).toEqual([id]);
    // an administrator, even one in a segment, and ops are not limited
    const me = (await call(admin, 'GET', '/api/user/')).json().id;
    await t.owner((tx) =>
      tx.insert(segmentUsers).values({ customerId: acme, segmentId: id, userId: me }),
    );
    expect((await call(admin, 'GET', '/api/user/')).json().segments).toEqual([]);
    expect((await call(ops, 'GET', '/api/user/')).json().segments).toEqual([]);
    await t.owner((tx) => tx.delete(segmentUsers).where(eq(segmentUsers.userId, me)));
  });

  it('deletes a segment: its processes return to the whole organisation', async () => {
    await call(admin, 'POST', `/api/segments/${id}/processes/`, { process: processId });
    expect((await call(admin, 'DELETE', `/api/segments/${id}/`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `/api/segments/${id}/`)).statusCode).toBe(404);
    const [p] = await t.owner((tx) =>
      tx
        .select({ segmentId: processes.segmentId })
        .from(processes)
        .where(eq(processes.id, processId)),
    );
    expect(p?.segmentId).toBeNull();
  });
});

describe('/api/ops/customers/{id}/segments/', () => {
  it("lists a customer's segments for operations only", async () => {
    const res = await call(ops, 'GET', `/api/ops/customers/${other}/segments/`);
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toMatchObject([
      { id: theirSegment, name: 'Theirs', user_count: 0, process_count: 0 },
    ]);
    expect((await call(ops, 'GET', '/api/ops/customers/999999/segments/')).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/ops/customers/${acme}/segments/`)).statusCode).toBe(403);
  });
});
