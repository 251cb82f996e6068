import { brandDetails } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProductUser,
  createRole,
  createSubjectUser,
  login,
  MemoryMailer,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { customerActivityTypes, customers } from '../customers/customers.table.js';
import { productUsers } from '../users/users.table.js';

const mailer = new MemoryMailer();
let t: TestApp;
let acme: number;
let other: number;
let typeIds: number[];
let ops: Client;

beforeAll(async () => {
  t = await buildTestApp({ mailer });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme Care' })).id;
    other = (await createCustomer(tx, { name: 'Other Ltd', demoMode: true })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'staff@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await createSubjectUser(tx, { customerId: acme, email: 'subject@acme.test' });
    await createCase(tx, { customerId: acme });
    await createCase(tx, { customerId: acme });
    await createCase(tx, { customerId: other });
    typeIds = (await tx.select({ id: activityTypes.id }).from(activityTypes)).map((r) => r.id);
  });
  ops = await login(t.app, 'ops@k.test');
});
afterAll(() => t.close());

const inject = (
  c: Client | null,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    ...(c ? { headers: c.headers } : {}),
    ...(payload ? { payload } : {}),
  });

describe('GET /api/ops/customers/', () => {
  it('lists with the counts of cases (by state) and users, searched and filtered', async () => {
    const res = await inject(ops, 'GET', '/api/ops/customers/?search=acme');
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(1);
    expect(res.json().results[0]).toMatchObject({
      id: acme,
      name: 'Acme Care',
      brand: 'kestrel',
      case_count: 2,
      cases_by_state: { 'awaiting-subject': 2 },
      user_count: 2,
    });
    expect(res.json().results[0].activity_types.length).toBe(typeIds.length);
    const demo = await inject(ops, 'GET', '/api/ops/customers/?demo_mode=true');
    expect(demo.json().results.map((c: { id: number }) => c.id)).toEqual([other]);
  });
});

describe('POST /api/ops/customers/', () => {
  const body = {
    name: 'Newton Homes',
    brand: 'harrier',
    contact_name: 'Nora Newton',
    contact_email: 'nora@newton.test',
    contact_phone: '07911 123456',
    demo_mode: true,
    entitlements: ['cycles'],
    admin: { first_name: 'Nora', last_name: 'Newton', email: 'Nora@Newton.test' },
  };

  it('creates the customer with its administrator invited by email, in one transaction', async () => {
    const res = await inject(ops, 'POST', '/api/ops/customers/', {
      ...body,
      activity_types: typeIds.slice(0, 2),
    });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      name: 'Newton Homes',
      brand: 'harrier',
      contact_phone: '+447911123456',
      demo_mode: true,
      entitlements: ['cycles'],
      activity_types: typeIds.slice(0, 2),
      user_count: 1,
    });
    await t.settle();
    const mail = mailer.sent.at(-1);
    expect(mail?.to).toBe('nora@newton.test');
    expect(mail?.text).toContain('/auth/set-password?token=');
    // in the new customer's brand, not the brand of the host operations used
    expect(mail?.subject).toBe(`Your ${brandDetails('harrier').name} account`);
    expect(mail?.text).not.toContain(brandDetails('kestrel').name);
    // the administrator holds the customer's admin role and sets a password from the email
    const token = decodeURIComponent(/token=(\S+)/.exec(mail?.text ?? '')?.[1] ?? '');
    const anon = await t.app.inject({ method: 'GET', url: '/api/accounts/check-session/' });
    const cookie = `kestrel_session=${anon.cookies.find((x) => x.name === 'kestrel_session')?.value}`;
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset-confirm/',
      headers: { cookie, 'x-csrftoken': anon.json().csrf_token },
      payload: { token, password: 'a-long-new-password' },
    });
    expect(set.statusCode).toBe(200);
    const admin = await login(t.app, 'nora@newton.test', 'a-long-new-password');
    const users = await inject(admin, 'GET', '/api/users/');
    expect(users.statusCode).toBe(200);
    const audit = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.customerId, c.id)),
    );
    expect(audit.map((a) => a.verb).sort()).toEqual(expect.arrayContaining(['created', 'invited']));
  });

  it('leaves nothing on a taken administrator email or an unknown activity type', async () => {
    const before = await t.owner((tx) => tx.select().from(customers));
    const taken = await inject(ops, 'POST', '/api/ops/customers/', {
      ...body,
      name: 'Dup Ltd',
      admin: { ...body.admin, email: 'admin@acme.test' },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ 'admin.email': ['A user with this email already exists.'] });
    const badType = await inject(ops, 'POST', '/api/ops/customers/', {
      ...body,
      name: 'Bad Type Ltd',
      admin: { ...body.admin, email: 'fresh@bad.test' },
      activity_types: [999999],
    });
    expect(badType.statusCode).toBe(400);
    expect(Object.keys(badType.json())).toEqual(['activity_types']);
    const after = await t.owner((tx) => tx.select().from(customers));
    expect(after.length).toBe(before.length);
    const fresh = await t.owner((tx) =>
      tx.select().from(productUsers).where(eq(productUsers.username, 'fresh@bad.test')),
    );
    expect(fresh).toEqual([]);
  });

  it('validates the fields: brand, phone, email, name', async () => {
    const res = await inject(ops, 'POST', '/api/ops/customers/', {
      name: '',
      brand: 'eagle',
      contact_phone: '123',
      contact_email: 'nope',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual([
      'brand',
      'contact_email',
      'contact_phone',
      'name',
    ]);
  });
});

describe('PATCH /api/ops/customers/{id}/ (edit, entitlements)', () => {
  it('edits the contact and brand', async () => {
    const res = await inject(ops, 'PATCH', `/api/ops/customers/${other}/`, {
      brand: 'harrier',
      contact_name: 'Olga',
      contact_phone: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ brand: 'harrier', contact_name: 'Olga', demo_mode: true });
  });

  it("switches an entitlement, one audit row per change, effective on the customer's next request", async () => {
    const admin = await login(t.app, 'admin@acme.test');
    expect((await inject(admin, 'GET', '/api/subjects/duplicates/')).statusCode).toBe(403);
    const on = await inject(ops, 'PATCH', `/api/ops/customers/${acme}/`, {
      entitlements: ['subject_dedup', 'cycles'],
    });
    expect(on.json().entitlements).toEqual(['cycles', 'subject_dedup']);
    expect((await inject(admin, 'GET', '/api/subjects/duplicates/')).statusCode).toBe(200);
    const off = await inject(ops, 'PATCH', `/api/ops/customers/${acme}/`, {
      entitlements: ['cycles'],
    });
    expect(off.statusCode).toBe(200);
    expect((await inject(admin, 'GET', '/api/subjects/duplicates/')).statusCode).toBe(403);
    const rows = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.customerId, acme)),
    );
    const switched = rows
      .filter((r) => Object.keys(r.changes).some((k) => k.startsWith('entitlement.')))
      .map((r) => r.changes);
    expect(switched).toEqual([
      { 'entitlement.subject_dedup': [false, true] },
      { 'entitlement.cycles': [false, true] },
      { 'entitlement.subject_dedup': [true, false] },
    ]);
  });
});

describe('PATCH /api/ops/customers/{id}/ (activity types)', () => {
  it('switches activity types on and off (a new one added), one audit row each', async () => {
    const [a, b, c] = typeIds;
    if (a === undefined || b === undefined || c === undefined) throw new Error('three types');
    const rowsOf = () =>
      t.owner((tx) =>
        tx.select().from(customerActivityTypes).where(eq(customerActivityTypes.customerId, other)),
      );
    // Start from one type only: the others off, or never given.
    const first = await inject(ops, 'PATCH', `/api/ops/customers/${other}/`, {
      activity_types: [a],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().activity_types).toEqual([a]);
    const res = await inject(ops, 'PATCH', `/api/ops/customers/${other}/`, {
      activity_types: [b, c, c],
    });
    expect(res.statusCode).toBe(200);
    expect([...res.json().activity_types].sort()).toEqual([b, c].sort());
    const rows = await rowsOf();
    expect(
      rows
        .filter((r) => r.enabled)
        .map((r) => r.activityTypeId)
        .sort(),
    ).toEqual([b, c].sort());
    // switched off, not deleted: its past cases keep it
    expect(rows.find((r) => r.activityTypeId === a)?.enabled).toBe(false);
    const audit = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.customerId, other)),
    );
    const last = audit
      .filter((r) => Object.keys(r.changes).some((k) => k.startsWith('activity_type.')))
      .slice(-3)
      .map((r) => r.changes);
    expect(last).toEqual(
      expect.arrayContaining([
        { [`activity_type.${a}`]: [true, false] },
        { [`activity_type.${b}`]: [false, true] },
        { [`activity_type.${c}`]: [false, true] },
      ]),
    );
  });

  it('refuses an unknown activity type and changes nothing; customer staff 403', async () => {
    const before = (await inject(ops, 'GET', `/api/ops/customers/${other}/`)).json().activity_types;
    const res = await inject(ops, 'PATCH', `/api/ops/customers/${other}/`, {
      name: 'Renamed Ltd',
      activity_types: [999_999],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      activity_types: ['Invalid pk "999999" - object does not exist.'],
    });
    const after = (await inject(ops, 'GET', `/api/ops/customers/${other}/`)).json();
    expect(after.activity_types).toEqual(before);
    expect(after.name).not.toBe('Renamed Ltd');
    const admin = await login(t.app, 'admin@acme.test');
    const refused = await inject(admin, 'PATCH', `/api/ops/customers/${acme}/`, {
      activity_types: [],
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('/api/ops/customers/{id}/users/', () => {
  it('lists, invites and deactivates: the sessions end at once', async () => {
    const list = await inject(ops, 'GET', `/api/ops/customers/${acme}/users/`);
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .results.map((u: { username: string }) => u.username)
        .sort(),
    ).toEqual(['admin@acme.test', 'staff@acme.test']);
    const invited = await inject(ops, 'POST', `/api/ops/customers/${acme}/users/`, {
      first_name: 'Ivy',
      last_name: 'Invite',
      email: 'ivy@acme.test',
      administrator: true,
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ email: 'ivy@acme.test', roles: ['admin'] });
    await t.settle();
    expect(mailer.sent.at(-1)?.to).toBe('ivy@acme.test');
    const taken = await inject(ops, 'POST', `/api/ops/customers/${acme}/users/`, {
      first_name: 'Ivy',
      last_name: 'Again',
      email: 'IVY@acme.test',
    });
    expect(taken.json()).toEqual({ email: ['A user with this email already exists.'] });

    const staff = await login(t.app, 'staff@acme.test');
    const staffId = (await inject(staff, 'GET', '/api/user/')).json().id;
    expect((await inject(staff, 'GET', '/api/accounts/check-session/')).json().authenticated).toBe(
      true,
    );
    const off = await inject(ops, 'PATCH', `/api/ops/customers/${acme}/users/${staffId}/`, {
      is_active: false,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().is_active).toBe(false);
    expect((await inject(staff, 'GET', '/api/accounts/check-session/')).json().authenticated).toBe(
      false,
    );
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(eq(auditActions.objectId, String(staffId))),
    );
    expect(audit.some((a) => a.verb === 'updated' && 'is_active' in a.changes)).toBe(true);
    // a user of another customer is no user of this one
    expect(
      (
        await inject(ops, 'PATCH', `/api/ops/customers/${other}/users/${staffId}/`, {
          is_active: false,
        })
      ).statusCode,
    ).toBe(404);
    expect((await inject(ops, 'GET', '/api/ops/customers/999999/users/')).statusCode).toBe(404);
    expect((await inject(ops, 'GET', '/api/ops/customers/0x10/users/')).statusCode).toBe(404);
  });
});

describe('permissions', () => {
  it('is 403 for customer staff and subjects on every endpoint, 401 anonymous', async () => {
    const admin = await login(t.app, 'admin@acme.test');
    const subject = await login(t.app, 'subject@acme.test');
    const calls: ['GET' | 'POST' | 'PATCH', string, object?][] = [
      ['GET', '/api/ops/customers/'],
      ['GET', `/api/ops/customers/${acme}/`],
      ['POST', '/api/ops/customers/', { name: 'X' }],
      ['PATCH', `/api/ops/customers/${acme}/`, { name: 'X' }],
      ['GET', `/api/ops/customers/${acme}/users/`],
      [
        'POST',
        `/api/ops/customers/${acme}/users/`,
        { first_name: 'A', last_name: 'B', email: 'a@b.test' },
      ],
      ['PATCH', `/api/ops/customers/${acme}/users/1/`, { is_active: false }],
    ];
    for (const [method, url, payload] of calls) {
      expect((await inject(admin, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await inject(subject, method, url, payload)).statusCode, `${method} ${url}`).toBe(
        403,
      );
    }
    expect((await inject(null, 'GET', '/api/ops/customers/')).statusCode).toBe(401);
  });

  it('needs add_customer to add and change_customer to change', async () => {
    await t.owner(async (tx) => {
      const role = await createRole(tx, {
        customerId: null,
        permissions: ['customers.ops_access', 'customers.view_all_customers'],
      });
      await createProductUser(tx, {
        customerId: null,
        username: 'viewer@k.test',
        roles: [role.id],
      });
    });
    const viewer = await login(t.app, 'viewer@k.test');
    expect((await inject(viewer, 'GET', '/api/ops/customers/')).statusCode).toBe(200);
    expect((await inject(viewer, 'GET', `/api/ops/customers/${acme}/users/`)).statusCode).toBe(200);
    expect((await inject(viewer, 'POST', '/api/ops/customers/', { name: 'X' })).statusCode).toBe(
      403,
    );
    expect(
      (await inject(viewer, 'PATCH', `/api/ops/customers/${acme}/`, { name: 'X' })).statusCode,
    ).toBe(403);
    expect(
      (
        await inject(viewer, 'POST', `/api/ops/customers/${acme}/users/`, {
          first_name: 'A',
          last_name: 'B',
          email: 'a@b.test',
        })
      ).statusCode,
    ).toBe(403);
  });
});
