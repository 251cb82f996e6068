import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, buildTestApp, login, type TestApp } from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { customers } from '../customers/customers.table.js';
import {
  CASE_DATA_PATH,
  E2E_FIXTURES_ENV,
  e2eFixturesEnabled,
  TEST_PLATFORM_CALLBACK_PATH,
  WORLDS_PATH,
} from './e2e-fixtures.routes.js';

const PASSWORD = 'kestrel-world-2026';
const SECRET = 'JBSWY3DPEHPK3PXP';

const world = {
  password: PASSWORD,
  totp_secret: SECRET,
  entitlements: ['cycles'],
  staff: [
    { key: 'admin', role: 'admin' },
    { key: 'viewer', role: 'viewer' },
    { key: 'mfa', role: 'admin', totp: true },
  ],
  ops: true,
  processes: [{ name: 'Basic only', requirements: ['basic-details', 'dbs-basic'] }],
  subjects: [{ key: 'sam', first_name: 'Sam', last_name: 'World' }],
};

async function post(t: TestApp, payload: object, url = WORLDS_PATH) {
  const anon = await anonymous(t.app);
  return t.app.inject({ method: 'POST', url, headers: anon.headers, payload });
}

describe('e2e fixtures: absent by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    delete process.env[E2E_FIXTURES_ENV];
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is off unless KESTREL_E2E_FIXTURES=1', () => {
    expect(e2eFixturesEnabled({})).toBe(false);
    expect(e2eFixturesEnabled({ [E2E_FIXTURES_ENV]: 'true' })).toBe(false);
    expect(e2eFixturesEnabled({ [E2E_FIXTURES_ENV]: '1' })).toBe(true);
  });

  it('a server started as npm start starts it has no such route: 404, nothing made', async () => {
    expect(t.app.routeTable.some((r) => r.url.startsWith('/api/test-fixtures/'))).toBe(false);
    const before = await t.owner((tx) => tx.select({ id: customers.id }).from(customers));
    const res = await post(t, world);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    expect((await post(t, { customer: 1, case: 1 }, CASE_DATA_PATH)).statusCode).toBe(404);
    const after = await t.owner((tx) => tx.select({ id: customers.id }).from(customers));
    expect(after.length).toBe(before.length);
  });
});

describe('e2e fixtures: a world of its own (KESTREL_E2E_FIXTURES=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    process.env[E2E_FIXTURES_ENV] = '1';
    t = await buildTestApp();
  });
  afterAll(async () => {
    delete process.env[E2E_FIXTURES_ENV];
    await t.close();
  });

  it('refuses a write without the CSRF token, and a bad body with 400', async () => {
    const noCsrf = await t.app.inject({ method: 'POST', url: WORLDS_PATH, payload: world });
    expect(noCsrf.statusCode).toBe(403);
    const bad = await post(t, { ...world, password: 'short' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['password']);
  });

  it('makes a customer with its staff, an ops user, a process and a subject who can sign in', async () => {
    const res = await post(t, world);
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(Object.keys(made.staff).sort()).toEqual(['admin', 'mfa', 'viewer']);

    const admin = await login(t.app, made.staff.admin.username, PASSWORD);
    const me = (await t.app.inject({ url: '/api/user/', headers: admin.headers })).json();
    expect(me.customer).toMatchObject({ id: made.customer.id, name: made.customer.name });
    expect(me.roles).toEqual(['admin']);
    expect(me.entitlements).toEqual(['cycles']);
    const procs = (await t.app.inject({ url: '/api/processes/', headers: admin.headers })).json();
    expect(procs.results.map((p: { id: number }) => p.id)).toEqual([made.processes['Basic only']]);

    const viewer = await login(t.app, made.staff.viewer.username, PASSWORD);
    const vme = (await t.app.inject({ url: '/api/user/', headers: viewer.headers })).json();
    expect(vme.roles).toEqual(['viewer']);
    expect(vme.session_permissions).not.toContain('cases.add_case');

    // the TOTP user needs a code
    await expect(login(t.app, made.staff.mfa.username, PASSWORD)).rejects.toThrow('400');

    const ops = await login(t.app, made.ops.username, PASSWORD);
    const ome = (await t.app.inject({ url: '/api/user/', headers: ops.headers })).json();
    expect(ome.is_ops).toBe(true);

    const subject = await login(t.app, made.subjects.sam.email, PASSWORD);
    const sme = (await t.app.inject({ url: '/api/user/', headers: subject.headers })).json();
    expect(sme).toMatchObject({ user_type: 'SubjectUser', first_name: 'Sam', last_name: 'World' });
  });

  it("tags a subject's email address when asked (the test platform's simulator reads it)", async () => {
    const res = await post(t, {
      ...world,
      subjects: [{ key: 'kim', first_name: 'Kim', last_name: 'World', email_tag: 'kt-fail' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const email: string = res.json().subjects.kim.email;
    expect(email).toMatch(/^kim\+kt-fail@w[0-9a-f]{10}\.test$/);
    const kim = await login(t.app, email, PASSWORD);
    const me = (await t.app.inject({ url: '/api/user/', headers: kim.headers })).json();
    expect(me).toMatchObject({ user_type: 'SubjectUser', first_name: 'Kim' });
    const bad = await post(t, {
      ...world,
      subjects: [{ key: 'kim', first_name: 'Kim', last_name: 'World', email_tag: 'a@b' }],
    });
    expect(bad.statusCode).toBe(400);
  });

  it("posts the test platform simulator's callback only for an activity with an invitation", async () => {
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: TEST_PLATFORM_CALLBACK_PATH,
      headers: anon.headers,
      payload: { activity: 999_999_999 },
    });
    expect(res.statusCode).toBe(404);
  });

  it('two worlds do not see each other, and every row made is audited', async () => {
    const one = (await post(t, world)).json();
    const two = (await post(t, world)).json();
    expect(one.customer.id).not.toBe(two.customer.id);
    expect(one.staff.admin.username).not.toBe(two.staff.admin.username);
    const admin = await login(t.app, one.staff.admin.username, PASSWORD);
    const seen = await t.app.inject({
      url: `/api/processes/${two.processes['Basic only']}/`,
      headers: admin.headers,
    });
    expect(seen.statusCode).toBe(404);

    const rows = await t.owner((tx) =>
      tx
        .select({ contentType: auditActions.contentType, actorName: auditActions.actorName })
        .from(auditActions)
        .where(and(eq(auditActions.customerId, one.customer.id), eq(auditActions.verb, 'created'))),
    );
    expect(rows.map((r) => r.contentType).sort()).toEqual([
      'customers.customer',
      'processes.process',
      'subjects.subject',
      'users.productuser',
      'users.productuser',
      'users.productuser',
      'users.role',
      'users.role',
    ]);
    expect(new Set(rows.map((r) => r.actorName))).toEqual(new Set(['e2e fixtures']));
  });

  it('gives a case of the world the demo case data, and refuses a case of another customer', async () => {
    const one = (await post(t, world)).json();
    const two = (await post(t, world)).json();
    const admin = await login(t.app, one.staff.admin.username, PASSWORD);
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/cases/',
      headers: admin.headers,
      payload: { process: one.processes['Basic only'], subject: one.subjects.sam.id },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const caseId: number = opened.json().id;
    const addresses = async () =>
      (
        await t.app.inject({
          url: `/api/case-addresses/?case=${caseId}`,
          headers: admin.headers,
        })
      ).json().count;
    expect(await addresses()).toBe(0);

    const other = await post(t, { customer: two.customer.id, case: caseId }, CASE_DATA_PATH);
    expect(other.statusCode).toBe(404);
    const made = await post(t, { customer: one.customer.id, case: caseId }, CASE_DATA_PATH);
    expect(made.statusCode, made.body).toBe(201);
    const details = await t.app.inject({
      url: `/api/case-basic-details/${caseId}/`,
      headers: admin.headers,
    });
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json()).toMatchObject({ forename: 'Sam', surname: 'World', gender: 'female' });
    expect(await addresses()).toBeGreaterThan(1);
  });
});
