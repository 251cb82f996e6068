import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCustomer,
  createProductUser,
  createSubjectUser,
  follow,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions, securityRefusals } from '../../platform/tables/audit.table.js';
import { totpGuardrails } from '../../platform/totp.js';

let t: TestApp;
let customerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme', demoMode: true, entitlements: ['cycles'] });
    customerId = c.id;
    await createProductUser(tx, {
      customerId,
      username: 'admin@acme.test',
      firstName: 'Alex',
      roles: ['admin'],
    });
    await createProductUser(tx, { customerId, username: 'totp@acme.test', roles: ['viewer'] });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await createSubjectUser(tx, { customerId, email: 'subject@example.test', dob: '1990-01-02' });
  });
});
afterAll(() => t.close());

const code = (secret: string, at = t.clock.now()) =>
  generate({ secret, epoch: Math.floor(at.getTime() / 1000), guardrails: totpGuardrails });

describe('GET /api/user/', () => {
  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('shows a product user profile with permissions, entitlements and customer', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({ method: 'GET', url: '/api/user/', headers: a.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      user_type: 'ProductUser',
      first_name: 'Alex',
      username: 'admin@acme.test',
      totp_enabled: false,
      roles: ['admin'],
      is_ops: false,
      customer: { id: customerId, name: 'Acme', demo_mode: true },
      entitlements: ['cycles'],
    });
    expect(body.session_permissions).toContain('cases.add_case');
    expect(body.session_permissions).not.toContain('customers.ops_access');
  });

  it('shows an ops user as ops with no customer', async () => {
    const o = await login(t.app, 'ops@k.test');
    const res = await t.app.inject({ method: 'GET', url: '/api/user/', headers: o.headers });
    expect(res.json()).toMatchObject({ is_ops: true, customer: null, roles: ['ops'] });
  });

  it('shows a subject profile', async () => {
    const s = await login(t.app, 'subject@example.test');
    const res = await t.app.inject({ method: 'GET', url: '/api/user/', headers: s.headers });
    expect(res.json()).toEqual({
      id: expect.any(Number),
      user_type: 'SubjectUser',
      first_name: 'Sam',
      last_name: 'Subject',
      middlename: '',
      email: 'subject@example.test',
      dark_mode: false,
      dob: '1990-01-02',
      can_change_dob: true,
      phone_number: '+447911123456',
      terms_agreed_at: expect.any(String),
      dbs_email_notifications: true,
      dvla_reconsents: [],
    });
  });
});

describe('PUT /api/user/', () => {
  it('updates editable fields and audits the change', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: a.headers,
      payload: { first_name: 'Alexa', dark_mode: true, username: 'ignored@x.test' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      first_name: 'Alexa',
      dark_mode: true,
      username: 'admin@acme.test',
    });
    const [row] = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.verb, 'updated')),
    );
    expect(row?.changes).toMatchObject({ first_name: ['Alex', 'Alexa'], dark_mode: [false, true] });
  });

  it('validates', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: a.headers,
      payload: { first_name: '', dark_mode: 'yes' },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['dark_mode', 'first_name']);
  });

  it("applies the spec's name rules to both kinds of profile (point 5)", async () => {
    for (const who of ['admin@acme.test', 'subject@example.test']) {
      const u = await login(t.app, who);
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/user/',
        headers: u.headers,
        payload: { first_name: 'J0hn', last_name: 'S'.repeat(51) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        first_name: ['Contains invalid characters'],
        last_name: ['Max 50 characters'],
      });
    }
  });

  it("checks a subject's middle name with the name rule and lets it be cleared (point 5)", async () => {
    const s = await login(t.app, 'subject@example.test');
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/user/', headers: s.headers, payload });
    let res = await put({ middlename: 'J0', last_name: 'L'.repeat(51) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      middlename: ['Contains invalid characters'],
      last_name: ['Max 50 characters'],
    });
    res = await put({ middlename: "Mary-Ann O'Neil" });
    expect(res.json()).toMatchObject({ middlename: "Mary-Ann O'Neil" });
    res = await put({ middlename: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ middlename: '' });
  });

  it("reads the body with the session's kind of profile: the other kind's fields are ignored", async () => {
    // The OpenAPI body is either kind (profileUpdate); the handler parses with the session's.
    const a = await login(t.app, 'admin@acme.test');
    let res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: a.headers,
      payload: { job_title: 'Clerk', middlename: 'J0', dob: 'not a date' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user_type: 'ProductUser', job_title: 'Clerk' });
    expect(res.json()).not.toHaveProperty('middlename');
    const s = await login(t.app, 'subject@example.test');
    res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: s.headers,
      payload: { middlename: 'Lee', job_title: 12 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user_type: 'SubjectUser', middlename: 'Lee' });
  });

  it('lets a subject update its own profile and refuses dob when it may not change', async () => {
    const s = await login(t.app, 'subject@example.test');
    let res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: s.headers,
      payload: { middlename: 'Lee', dob: '1991-02-03', terms_agreed: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ middlename: 'Lee', dob: '1991-02-03' });
    const { subjectUsers } = await import('./users.table.js');
    await t.owner((tx) =>
      tx
        .update(subjectUsers)
        .set({ canChangeDob: false })
        .where(eq(subjectUsers.email, 'subject@example.test')),
    );
    res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: s.headers,
      payload: { dob: '1980-01-01' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ dob: ['Date of birth cannot be changed.'] });
  });

  it('needs CSRF', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: { cookie: a.cookie },
      payload: { first_name: 'X' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('TOTP', () => {
  it('generates, validates (ending other sessions, rotating this one), refuses replays, disables', async () => {
    let a: Client = await login(t.app, 'totp@acme.test');
    const other = await login(t.app, 'totp@acme.test');
    let res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-generate/',
      headers: a.headers,
    });
    expect(res.statusCode).toBe(200);
    const { secret, otpauth_url } = res.json();
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);

    res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-validate/',
      headers: a.headers,
      payload: { totp: '12345' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ totp: ['Invalid code'] });

    const first = await code(secret);
    res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-validate/',
      headers: a.headers,
      payload: { totp: first },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().totp_enabled).toBe(true);
    const rotated = follow(a, res);
    expect(rotated.cookie).not.toBe(a.cookie);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/', headers: a.headers })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/', headers: other.headers })).statusCode,
    ).toBe(401);
    a = rotated;

    // a login now needs the code; the code just used is a replay
    await expect(login(t.app, 'totp@acme.test')).rejects.toThrow(/400/);
    await expect(login(t.app, 'totp@acme.test', undefined, first)).rejects.toThrow(/401/);

    t.clock.advance(60_000);
    res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-disable/',
      headers: a.headers,
      payload: { totp: first },
    });
    expect(res.statusCode).toBe(400);
    res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-disable/',
      headers: a.headers,
      payload: { totp: await code(secret) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().totp_enabled).toBe(false);
    a = follow(a, res);
    // turned on again at once, with a new secret: its first code is not taken for a replay
    res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-generate/',
      headers: a.headers,
    });
    const again = res.json().secret;
    res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-validate/',
      headers: a.headers,
      payload: { totp: await code(again) },
    });
    expect([res.statusCode, res.json().totp_enabled]).toEqual([200, true]);
    a = follow(a, res);
    const verbs = await t.owner((tx) => tx.select({ verb: auditActions.verb }).from(auditActions));
    const names = verbs.map((v) => v.verb);
    expect(names).toContain('totp_generated');
    expect(names).toContain('totp_enabled');
    expect(names).toContain('totp_disabled');
    // the audit never holds the secret
    const changes = await t.owner((tx) =>
      tx.select({ changes: auditActions.changes }).from(auditActions),
    );
    expect(JSON.stringify(changes)).not.toContain(secret);
    expect(names).toContain('totp_failed');
  });

  it('is for product users only', async () => {
    const s = await login(t.app, 'subject@example.test');
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-generate/',
      headers: s.headers,
    });
    expect(res.statusCode).toBe(403);
    // the refusal is recorded once, like checkAccess's own
    const refusals = await t.owner((tx) =>
      tx
        .select()
        .from(securityRefusals)
        .where(eq(securityRefusals.route, 'PATCH /api/user/totp-generate/')),
    );
    expect(refusals.map((r) => r.count)).toEqual([1]);
  });
});
