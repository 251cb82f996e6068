import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  follow,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions, securityRefusals } from '../../platform/tables/audit.table.js';

let t: TestApp;
let acme: number;
let demo: number;
let foreign: number;
let admin: Client;
let viewer: Client;
let demoAdmin: Client;
/** An ops user in an ops session on Acme: may choose a process's checks. */
let opsAcme: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (
      await createCustomer(tx, {
        name: 'Acme',
        activityTypes: ['basic-details', 'dbs-basic', 'rtw', 'dbs-enhanced'],
      })
    ).id;
    demo = (await createCustomer(tx, { name: 'Demo', demoMode: true })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    foreign = (await createProcess(tx, { customerId: other, name: 'Theirs' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, {
      customerId: demo,
      username: 'admin@demo.test',
      roles: ['admin'],
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  demoAdmin = await login(t.app, 'admin@demo.test');
  await t.owner((tx) =>
    createProductUser(tx, { customerId: null, username: 'ops-create@k.test', roles: ['ops'] }),
  );
  const ops = await login(t.app, 'ops-create@k.test');
  const started = await t.app.inject({
    method: 'POST',
    url: '/api/ops/session/',
    headers: ops.headers,
    payload: { customer: acme },
  });
  opsAcme = follow(ops, started);
});
afterAll(() => t.close());

const call = (
  c: Client,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: c.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('/api/processes/', () => {
  it('creates a process with three checks and their config; audited', async () => {
    const res = await call(opsAcme, 'POST', '/api/processes/', {
      name: 'Care workers',
      requirements: [
        { activity_type: 'basic-details' },
        {
          activity_type: 'dbs-enhanced',
          config: { purpose: 'employment', workforce: 'A', adult_barred_list: true },
        },
        { activity_type: 'rtw' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      name: 'Care workers',
      is_active: true,
      send_invitation: true,
      can_edit_requirements: true,
      case_count: 0,
    });
    expect(p.requirements.map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'basic-details',
      'dbs-enhanced',
      'rtw',
    ]);
    expect(p.requirements[1].config).toEqual({
      purpose: 'employment',
      workforce: 'A',
      adult_barred_list: true,
    });
    expect(p.requirements[1].key).toBe('dbs-result');
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'processes.process'),
            eq(auditActions.objectId, String(p.id)),
          ),
        ),
    );
    expect(rows.map((r) => r.verb)).toEqual(['created']);
  });

  it('validates name, activity types the customer may order, and config', async () => {
    expect((await call(admin, 'POST', '/api/processes/', { name: '' })).json()).toEqual({
      name: ['Required'],
    });
    const unknown = await call(opsAcme, 'POST', '/api/processes/', {
      name: 'X',
      requirements: [{ activity_type: 'basic-details' }, { activity_type: 'adult-first' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      'requirements.1.activity_type': ["Unknown activity type 'adult-first'."],
    });
    const config = await call(opsAcme, 'POST', '/api/processes/', {
      name: 'X',
      requirements: [{ activity_type: 'dbs-basic', config: { workforce: 'Z' } }],
    });
    expect(config.statusCode).toBe(400);
    expect(Object.keys(config.json())).toEqual(['requirements.0.config.workforce']);
  });

  it('refuses checks on creation outside demo mode or ops; details alone are created', async () => {
    const res = await call(admin, 'POST', '/api/processes/', {
      name: 'Locked',
      requirements: [{ activity_type: 'dbs-basic' }],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      detail:
        'Checks can be chosen only by operations or in demo mode. Create the process without checks and ask operations to add them.',
    });
    const none = await call(admin, 'GET', '/api/processes/?search=locked');
    expect(none.json().count).toBe(0);
    const bare = await call(admin, 'POST', '/api/processes/', { name: 'Locked' });
    expect(bare.statusCode).toBe(201);
    expect(bare.json()).toMatchObject({ requirements: [], can_edit_requirements: false });
    const demoRes = await call(demoAdmin, 'POST', '/api/processes/', {
      name: 'Demo checks',
      requirements: [{ activity_type: 'dbs-basic' }],
    });
    expect(demoRes.statusCode).toBe(201);
  });

  it('lists and filters; viewer reads but may not add; another tenant is 404', async () => {
    const list = await call(viewer, 'GET', '/api/processes/?search=care');
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((p: { name: string }) => p.name)).toEqual(['Care workers']);
    expect((await call(viewer, 'POST', '/api/processes/', { name: 'Nope' })).statusCode).toBe(403);
    expect((await call(viewer, 'GET', `/api/processes/${foreign}/`)).statusCode).toBe(404);
    expect(
      (await call(admin, 'PATCH', `/api/processes/${foreign}/`, { name: 'Mine' })).statusCode,
    ).toBe(404);
  });

  it('updates details and configuration; deletes only without cases', async () => {
    const p = await t.owner((tx) =>
      createProcess(tx, { customerId: acme, name: 'Temp', requirements: ['dbs-basic'] }),
    );
    const res = await call(admin, 'PATCH', `/api/processes/${p.id}/`, {
      reminder_days: 3,
      invitation_message: 'Welcome',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ reminder_days: 3, invitation_message: 'Welcome' });
    await t.owner((tx) => createCase(tx, { customerId: acme, processId: p.id }));
    expect((await call(admin, 'DELETE', `/api/processes/${p.id}/`)).json()).toEqual({
      non_field_errors: ['A process with cases cannot be deleted.'],
    });
    const empty = await t.owner((tx) =>
      createProcess(tx, { customerId: acme, name: 'Empty', requirements: ['dbs-basic'] }),
    );
    expect((await call(viewer, 'DELETE', `/api/processes/${empty.id}/`)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `/api/processes/${empty.id}/`)).statusCode).toBe(204);
    const verbs = await t.owner((tx) =>
      tx
        .select({ verb: auditActions.verb })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'processes.process'),
            eq(auditActions.objectId, String(empty.id)),
          ),
        ),
    );
    expect(verbs.map((v) => v.verb)).toEqual(['deleted']);
    const refused = await t.owner((tx) =>
      tx
        .select()
        .from(securityRefusals)
        .where(
          and(
            eq(securityRefusals.route, 'DELETE /api/processes/:id/'),
            eq(securityRefusals.path, `/api/processes/${empty.id}/`),
          ),
        ),
    );
    expect(refused.map((r) => r.count)).toEqual([1]);
  });
});

describe('/api/processes/{id}/requirements/', () => {
  it('may not be edited outside demo mode or ops', async () => {
    const p = await t.owner((tx) =>
      createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] }),
    );
    const res = await call(admin, 'PUT', `/api/processes/${p.id}/requirements/`, [
      { activity_type: 'rtw' },
    ]);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      detail: 'Requirements can be edited only by operations or in demo mode.',
    });
    const list = await call(viewer, 'GET', `/api/processes/${p.id}/requirements/`);
    expect(list.json().map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'dbs-basic',
    ]);
  });

  it('are replaced in a demo-mode customer, audited', async () => {
    const p = await t.owner((tx) =>
      createProcess(tx, { customerId: demo, requirements: ['dbs-basic'] }),
    );
    const res = await call(demoAdmin, 'PUT', `/api/processes/${p.id}/requirements/`, [
      { activity_type: 'rtw' },
      { activity_type: 'licence-check', config: { include_cpc: true } },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'rtw',
      'licence-check',
    ]);
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.verb, 'updated'), eq(auditActions.objectId, String(p.id)))),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.changes).toHaveProperty('requirements');
    expect(
      (await call(demoAdmin, 'GET', `/api/processes/${p.id}/`)).json().can_edit_requirements,
    ).toBe(true);
    expect(
      (await call(demoAdmin, 'PUT', `/api/processes/${foreign}/requirements/`, [])).statusCode,
    ).toBe(404);
  });

  it('are edited by ops staff for any customer (in an ops session), validated', async () => {
    await t.owner((tx) =>
      createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] }),
    );
    const p = await t.owner((tx) =>
      createProcess(tx, { customerId: acme, requirements: ['dbs-basic'] }),
    );
    let ops = await login(t.app, 'ops@k.test');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/ops/session/',
      headers: ops.headers,
      payload: { customer: acme },
    });
    expect(started.statusCode).toBe(200);
    ops = follow(ops, started);
    const bad = await call(ops, 'PUT', `/api/processes/${p.id}/requirements/`, [
      { activity_type: 'no-such-check' },
    ]);
    expect(bad.statusCode).toBe(400);
    const res = await call(ops, 'PUT', `/api/processes/${p.id}/requirements/`, [
      { activity_type: 'basic-details' },
      { activity_type: 'dbs-basic' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { activity_type: string }) => r.activity_type)).toEqual([
      'basic-details',
      'dbs-basic',
    ]);
    // the customer's own admin still may not
    expect((await call(admin, 'PUT', `/api/processes/${p.id}/requirements/`, [])).statusCode).toBe(
      403,
    );
  });
});
