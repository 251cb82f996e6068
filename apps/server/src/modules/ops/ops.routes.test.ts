import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createProductUser,
  createSubjectUser,
  follow,
  login,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions, securityRefusals } from '../../platform/tables/audit.table.js';
import { maintenanceWindows } from '../../platform/tables/maintenance.table.js';
import { flags } from '../flags/flags.table.js';

let t: TestApp;
let acme: number;
let north: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    north = (await createCustomer(tx, { name: 'Northgate', demoMode: true })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await tx.insert(flags).values([
      { customerId: north, kind: 'a' },
      { customerId: north, kind: 'b' },
      { customerId: acme, kind: 'c', active: false },
    ]);
  });
});
afterAll(() => t.close());

describe('/api/ops/customers/', () => {
  it('lists every customer for ops staff', async () => {
    const o = await login(t.app, 'ops@k.test');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/ops/customers/',
      headers: o.headers,
    });
    expect(res.statusCode).toBe(200);
    const names = res.json().results.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Acme', 'Northgate']));
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/ops/customers/${north}/`,
      headers: o.headers,
    });
    expect(one.json()).toMatchObject({ id: north, name: 'Northgate', demo_mode: true });
  });

  it('creates a customer with entitlements (201) and validates', async () => {
    const o = await login(t.app, 'ops@k.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/customers/',
      headers: o.headers,
      payload: { name: 'Third Ltd', entitlements: ['cycles'] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Third Ltd',
      demo_mode: false,
      entitlements: ['cycles'],
    });
    const id = res.json().id;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/ops/customers/${id}/`,
      headers: o.headers,
      payload: { demo_mode: true, entitlements: ['regportals', 'subject_dedup'] },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      demo_mode: true,
      entitlements: ['regportals', 'subject_dedup'],
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/ops/customers/',
      headers: o.headers,
      payload: { name: '', entitlements: ['nope'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['entitlements.0', 'name']);
  });

  it('is 403 for customer staff, 401 for anonymous', async () => {
    const a = await login(t.app, 'admin@acme.test');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/ops/customers/', headers: a.headers }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/ops/customers/' })).statusCode).toBe(
      401,
    );
    // the refusal is recorded (counted with its repeats, apart from the activity trail)
    const denied = await t.owner((tx) =>
      tx
        .select()
        .from(securityRefusals)
        .where(eq(securityRefusals.route, 'GET /api/ops/customers/')),
    );
    expect(denied.length).toBeGreaterThanOrEqual(1);
  });
});

describe('/api/ops/session/', () => {
  it('starts and ends an ops session for a customer, rotating the token, audited', async () => {
    let o = await login(t.app, 'ops@k.test');
    let res = await t.app.inject({
      method: 'POST',
      url: '/api/ops/session/',
      headers: o.headers,
      payload: { customer: north },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ csrf_token: expect.any(String), session_customer: north });
    const next = follow(o, res);
    expect(next.cookie).not.toBe(o.cookie);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/', headers: o.headers })).statusCode,
    ).toBe(401);
    o = next;
    const check = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: o.headers,
    });
    expect(check.json()).toMatchObject({ session_customer: north, active_flags: 2 });
    const me = await t.app.inject({ method: 'GET', url: '/api/user/', headers: o.headers });
    expect(me.json().customer).toEqual({ id: north, name: 'Northgate', demo_mode: true });

    res = await t.app.inject({ method: 'DELETE', url: '/api/ops/session/', headers: o.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().session_customer).toBeNull();
    const audits = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.contentType, 'customers.customer')),
    );
    const verbs = audits.map((a) => [a.verb, a.customerId]);
    expect(verbs).toContainEqual(['ops_session_started', north]);
    expect(verbs).toContainEqual(['ops_session_ended', north]);
  });

  it('answers 404 for an unknown customer, 400 for a bad body, 403 for customer staff', async () => {
    const o = await login(t.app, 'ops@k.test');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/session/',
          headers: o.headers,
          payload: { customer: 99999 },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/session/',
          headers: o.headers,
          payload: { customer: 'x' },
        })
      ).statusCode,
    ).toBe(400);
    const a = await login(t.app, 'admin@acme.test');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/session/',
          headers: a.headers,
          payload: { customer: north },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('maintenance windows', () => {
  it('are scheduled by ops; while open, non-ops calls answer 503 and check-session reports it', async () => {
    const o = await login(t.app, 'ops@k.test');
    const a = await login(t.app, 'admin@acme.test');
    const now = t.clock.now().getTime();
    const iso = (ms: number) => new Date(now + ms).toISOString();
    const min = 60_000;
    const window = { start: iso(20 * min), end: iso(40 * min), warning_start: iso(10 * min) };

    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/ops/maintenance-windows/',
      headers: o.headers,
      payload: { ...window, end: window.start },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ end: ['End must be after start.'] });

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/ops/maintenance-windows/',
      headers: o.headers,
      payload: window,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/ops/maintenance-windows/',
          headers: a.headers,
        })
      ).statusCode,
    ).toBe(403);

    // before the warning: nothing announced
    let check = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: a.headers,
    });
    expect(check.json().maintenance_window).toBeNull();
    // warning period
    t.clock.advance(11 * min);
    check = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: a.headers,
    });
    expect(check.statusCode).toBe(200);
    expect(check.json().maintenance_window).toEqual({
      start: window.start,
      end: window.end,
      warning_start: window.warning_start,
    });
    // open
    t.clock.advance(10 * min);
    for (const url of ['/api/user/', '/api/accounts/check-session/', '/api/countries/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: a.headers });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        detail: 'Down for maintenance',
        maintenance_window: {
          start: window.start,
          end: window.end,
          warning_start: window.warning_start,
        },
      });
    }
    // anonymous visitors still see the login page data, and ops staff keep working
    const anon = await anonymous(t.app);
    expect(anon.csrf).not.toBe('');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/', headers: o.headers })).statusCode,
    ).toBe(200);
    // ops staff can still log in; anyone else who logs in gets the 503 and no session
    await login(t.app, 'ops@k.test');
    const visitor = await anonymous(t.app);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: visitor.headers,
      payload: { username: 'admin@acme.test', password: TEST_PASSWORD },
    });
    expect([refused.statusCode, refused.json().detail]).toEqual([503, 'Down for maintenance']);
    expect(refused.cookies.find((c) => c.name === 'kestrel_session')).toBeUndefined();

    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/ops/maintenance-windows/${id}/`,
      headers: o.headers,
      payload: { end: iso(22 * min) },
    });
    expect(moved.statusCode).toBe(200);
    t.clock.advance(2 * min);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/', headers: a.headers })).statusCode,
    ).toBe(200);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/ops/maintenance-windows/${id}/`,
      headers: o.headers,
    });
    expect(del.statusCode).toBe(204);
    const audits = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(eq(auditActions.contentType, 'maintenance.maintenancewindow')),
    );
    expect(audits.map((x) => x.verb)).toEqual(['created', 'updated', 'deleted']);
  });
});

describe('maintenance windows are for ops staff only', () => {
  it('customer staff and subjects get 403 on list, add, edit and delete, and no window changes', async () => {
    await t.owner(async (tx) => {
      await createProductUser(tx, { customerId: acme, username: 'staff@acme.test', roles: [] });
      await createSubjectUser(tx, { customerId: acme, email: 'sam.window@example.test' });
    });
    const o = await login(t.app, 'ops@k.test');
    const callers = [
      ['admin', await login(t.app, 'admin@acme.test')],
      ['staff', await login(t.app, 'staff@acme.test')],
      ['subject', await login(t.app, 'sam.window@example.test')],
    ] as const;
    const day = 24 * 60 * 60_000;
    const now = t.clock.now().getTime();
    const iso = (ms: number) => new Date(now + ms).toISOString();
    const window = { start: iso(10 * day), end: iso(11 * day), warning_start: iso(9 * day) };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/ops/maintenance-windows/',
      headers: o.headers,
      payload: { ...window, reason: 'Database upgrade' },
    });
    expect(created.statusCode).toBe(201);
    const id: number = created.json().id;
    const rows = () => t.owner((tx) => tx.select().from(maintenanceWindows));
    const before = await rows();

    for (const [who, c] of callers) {
      const calls = [
        { method: 'GET', url: '/api/ops/maintenance-windows/' },
        { method: 'GET', url: `/api/ops/maintenance-windows/${id}/` },
        {
          method: 'POST',
          url: '/api/ops/maintenance-windows/',
          payload: { start: iso(20 * day), end: iso(21 * day), warning_start: iso(19 * day) },
        },
        {
          method: 'PATCH',
          url: `/api/ops/maintenance-windows/${id}/`,
          payload: { end: iso(12 * day), reason: 'changed' },
        },
        {
          method: 'PUT',
          url: `/api/ops/maintenance-windows/${id}/`,
          payload: { start: iso(1 * day), end: iso(2 * day), warning_start: iso(0) },
        },
        { method: 'DELETE', url: `/api/ops/maintenance-windows/${id}/` },
      ] as const;
      for (const call of calls) {
        const res = await t.app.inject({ ...call, headers: c.headers });
        expect([who, call.method, call.url, res.statusCode]).toEqual([
          who,
          call.method,
          call.url,
          403,
        ]);
      }
    }
    expect(await rows()).toEqual(before);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/ops/maintenance-windows/${id}/`,
      headers: o.headers,
    });
    expect(one.json()).toEqual({ id, ...window, reason: 'Database upgrade' });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/ops/maintenance-windows/${id}/`,
      headers: o.headers,
    });
    expect(del.statusCode).toBe(204);
  });
});

describe('/api/ops/outbox/', () => {
  it('shows emails to ops staff only', async () => {
    const anon = await anonymous(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      headers: anon.headers,
      payload: { email: 'admin@acme.test' },
    });
    await t.settle(); // the email is a job of the request's transaction
    const o = await login(t.app, 'ops@k.test');
    const res = await t.app.inject({ method: 'GET', url: '/api/ops/outbox/', headers: o.headers });
    expect(res.statusCode).toBe(200);
    const mail = res.json().results[0];
    expect(mail).toMatchObject({
      to: 'admin@acme.test',
      subject: 'Reset your Kestrel Checks password',
    });
    expect(mail.text).toContain('/auth/password-reset-confirm?token=');
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/ops/outbox/${mail.id}/`,
      headers: o.headers,
    });
    expect(one.json().id).toBe(mail.id);
    const a = await login(t.app, 'admin@acme.test');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/ops/outbox/', headers: a.headers }))
        .statusCode,
    ).toBe(403);
  });
});
