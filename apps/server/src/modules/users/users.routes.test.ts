import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  createRole,
  login,
  MemoryMailer,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { customers } from '../customers/customers.table.js';

let t: TestApp;
const mailer = new MemoryMailer();
let acme: number;
let viewerRole: number;
let otherRole: number;
let otherUser: number;

beforeAll(async () => {
  t = await buildTestApp({ mailer });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    viewerRole = (await createRole(tx, { customerId: acme, permissions: 'viewer' })).id;
    otherRole = (await createRole(tx, { customerId: other, permissions: 'viewer' })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: [viewerRole],
    });
    otherUser = (await createProductUser(tx, { customerId: other, username: 'x@other.test' })).id;
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
});
afterAll(() => t.close());

describe('/api/users/', () => {
  it('lists the customer staff with role ids', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({ method: 'GET', url: '/api/users/', headers: a.headers });
    expect(res.statusCode).toBe(200);
    const users = res.json().results;
    expect(users.map((u: { username: string }) => u.username)).toEqual([
      'admin@acme.test',
      'viewer@acme.test',
    ]);
    expect(users[1].roles).toEqual([viewerRole]);
  });

  it("an invitation is in the customer's brand, linking to the host used when it is that brand's, with an HTML part", async () => {
    const a = await login(t.app, 'admin@acme.test');
    // Acme is a Kestrel customer: asked through the Harrier host, the email stays Kestrel's.
    const kestrel = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: { ...a.headers, host: 'harrier.test:8443' },
      payload: { email: 'kv@acme.test', first_name: 'Kay', last_name: 'Vee', roles: [viewerRole] },
    });
    expect(kestrel.statusCode).toBe(201);
    await t.settle();
    expect(mailer.sent.at(-1)).toMatchObject({
      to: 'kv@acme.test',
      subject: 'Your Kestrel Checks account',
    });
    expect(mailer.sent.at(-1)?.text).not.toContain('harrier.test');
    await t.owner((tx) =>
      tx.update(customers).set({ brand: 'harrier' }).where(eq(customers.id, acme)),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: { ...a.headers, host: 'harrier.test:8443' },
      payload: { email: 'hv@acme.test', first_name: 'Hal', last_name: 'Vee', roles: [viewerRole] },
    });
    expect(res.statusCode).toBe(201);
    await t.settle();
    const mail = mailer.sent.at(-1);
    expect(mail).toMatchObject({ to: 'hv@acme.test', subject: 'Your Harrier Vetting account' });
    expect(mail?.text).toContain('Hello Hal,');
    expect(mail?.text).toContain('http://harrier.test:8443/auth/set-password?token=');
    expect(mail?.html).toContain('href="http://harrier.test:8443/auth/set-password?token=');
    expect(mail?.html).toContain('help@harriervetting.co.uk');
    await t.owner((tx) =>
      tx.update(customers).set({ brand: 'kestrel' }).where(eq(customers.id, acme)),
    );
  });

  it('creates a user without a password and emails a set-password link; the link works', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: a.headers,
      payload: { email: 'New@Acme.test', first_name: 'Nia', last_name: 'New', roles: [viewerRole] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      username: 'new@acme.test',
      roles: [viewerRole],
      is_active: true,
    });
    await t.settle(); // the email is a job of the request's transaction
    const mail = mailer.sent.at(-1);
    expect(mail?.to).toBe('new@acme.test');
    const token = decodeURIComponent(/token=(\S+)/.exec(mail?.text ?? '')?.[1] ?? '');
    const anon = await t.app.inject({ method: 'GET', url: '/api/accounts/check-session/' });
    const cookie = `kestrel_session=${anon.cookies[0]?.value}`;
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset-confirm/',
      headers: { cookie, 'x-csrftoken': anon.json().csrf_token },
      payload: { token, password: 'my-own-password-1' },
    });
    expect(set.statusCode).toBe(200);
    await login(t.app, 'new@acme.test', 'my-own-password-1');
  });

  it('validates: taken email, unknown or foreign role', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/users/', headers: a.headers, payload });
    const base = { first_name: 'A', last_name: 'B' };
    expect((await post({ ...base, email: 'x@other.test' })).json()).toEqual({
      email: ['A user with this email already exists.'],
    });
    expect((await post({ ...base, email: 'r@acme.test', roles: [otherRole] })).json()).toEqual({
      roles: ['Unknown role.'],
    });
  });

  it("applies the spec's text rules to names and email (point 5)", async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: a.headers,
      payload: { email: 'x@acme.toolong', first_name: 'Nia!', last_name: 'N'.repeat(51) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      email: ['Invalid email'],
      first_name: ['Contains invalid characters'],
      last_name: ['Max 50 characters'],
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/users/', headers: a.headers });
    const id = list.json().results[0].id;
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}/`,
      headers: a.headers,
      payload: { first_name: 'F'.repeat(61), last_name: '-Smith' },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toEqual({
      first_name: ['Max 60 characters'],
      last_name: ['Contains invalid characters'],
    });
  });

  it('updates roles and deactivates, ending the user sessions; audited', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const v = await login(t.app, 'viewer@acme.test');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/users/?search=viewer',
      headers: a.headers,
    });
    const id = list.json().results[0].id;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}/`,
      headers: a.headers,
      payload: { is_active: false, roles: [] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_active: false, roles: [] });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/', headers: v.headers })).statusCode,
    ).toBe(401);
    const [audit] = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.objectId, String(id)), eq(auditActions.verb, 'updated'))),
    );
    expect(audit?.changes).toMatchObject({ is_active: [true, false], roles: [[viewerRole], []] });
  });

  it('cannot touch another customer user (404) and needs permissions (403)', async () => {
    const a = await login(t.app, 'admin@acme.test');
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/users/${otherUser}/`,
        headers: a.headers,
        ...(method === 'PATCH' ? { payload: { first_name: 'Hacked' } } : {}),
      });
      expect([method, res.statusCode]).toEqual([method, 404]);
    }
    await t.owner(async (tx) => {
      await createProductUser(tx, { customerId: acme, username: 'plain@acme.test', roles: [] });
    });
    const p = await login(t.app, 'plain@acme.test');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/', headers: p.headers })).statusCode,
    ).toBe(403);
  });

  it('deletes a user (204) but not oneself (400)', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const me = (await t.app.inject({ method: 'GET', url: '/api/user/', headers: a.headers })).json()
      .id;
    const self = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${me}/`,
      headers: a.headers,
    });
    expect(self.statusCode).toBe(400);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/users/?search=plain',
      headers: a.headers,
    });
    const id = list.json().results[0].id;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/users/${id}/`, headers: a.headers }))
        .statusCode,
    ).toBe(204);
  });

  it('ops outside a customer session cannot create users', async () => {
    const o = await login(t.app, 'ops@k.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: o.headers,
      payload: { email: 'z@z.test', first_name: 'Z', last_name: 'Z' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('/api/roles/', () => {
  it('lists the customer roles only', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({ method: 'GET', url: '/api/roles/', headers: a.headers });
    const ids = res.json().results.map((r: { id: number }) => r.id);
    expect(ids).toContain(viewerRole);
    expect(ids).not.toContain(otherRole);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/roles/${otherRole}/`, headers: a.headers }))
        .statusCode,
    ).toBe(404);
  });
});
