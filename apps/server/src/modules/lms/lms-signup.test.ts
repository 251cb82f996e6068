import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  type Client,
  createCustomer,
  createProductUser,
  follow,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { defaultConfig } from '../../config.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { subjectUsers } from '../users/users.table.js';

// The applicant's own sign-up (issue 32): a member of the public applying for a licence makes a
// subject's login, is signed in, and can apply on a council's portal with it.

let t: TestApp;
let council: Client;
let portalId = 0;
const STRONG = 'a long and unusual passphrase 42';
const PER_ADDRESS = 8;
const person = (email: string, more: Record<string, unknown> = {}) => ({
  first_name: 'Priya',
  last_name: 'Driver',
  email,
  dob: '1988-03-14',
  password: STRONG,
  terms_agreed: true,
  ...more,
});
let n = 0;
/** A sign-up from its own address (the per-address limit is its own test). */
const signUp = async (body: unknown, ip = `192.0.2.${++n}`) => {
  const anon = await anonymous(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/lms/public/applicants/',
    headers: anon.headers,
    remoteAddress: ip,
    payload: body as Record<string, unknown>,
  });
  return { res, client: follow(anon, res) };
};

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      jobWorkers: false,
      rateLimits: { ...defaultConfig.rateLimits, perAddress: PER_ADDRESS },
    },
  });
  await t.owner(async (tx) => {
    const northgate = (await createCustomer(tx, { name: 'Northgate Council' })).id;
    await createProductUser(tx, { customerId: northgate, username: 'officer@northgate.test' });
    await createProductUser(tx, { customerId: northgate, username: 'taken@example.test' });
  });
  council = await login(t.app, 'officer@northgate.test');
  const ok = async (url: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url, headers: council.headers, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const g = await ok('/api/lms/licence-groups/', { name: 'Taxi', is_published: true });
  const sg = await ok('/api/lms/licence-sub-groups/', {
    group: g.id,
    name: 'Hackney carriage driver',
    code: 'HCD',
    is_published: true,
  });
  const def = await ok('/api/lms/definitions/', {
    sub_group: sg.id,
    name: 'Hackney carriage driver',
    duration_years: 3,
    fee_pence: 27500,
    requirements: [{ activity_type: 'dbs-enhanced' }],
    is_published: true,
  });
  portalId = (
    await ok(`/api/lms/definitions/${def.id}/application_portals/`, {
      title: 'Apply',
      is_open: true,
      fee_pence: 27500,
    })
  ).id;
});
afterAll(() => t?.close());

describe('POST /api/lms/public/applicants/', () => {
  it('makes a subject login, signs it in, and it applies on a portal (the fee next)', async () => {
    const { res, client } = await signUp(person('Priya.Driver@Example.test'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ user_type: 'SubjectUser' });
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: client.headers,
    });
    expect(session.json()).toMatchObject({ user_type: 'SubjectUser' });
    const [row] = await t.owner((tx) =>
      tx.select().from(subjectUsers).where(eq(subjectUsers.email, 'priya.driver@example.test')),
    );
    expect(row).toMatchObject({ firstName: 'Priya', lastName: 'Driver', dob: '1988-03-14' });
    expect(row?.passwordHash).toBeTruthy();
    expect(row?.termsAgreedAt).not.toBeNull();
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(eq(auditActions.objectId, String(row?.id))),
    );
    expect(audit.map((a) => a.verb)).toContain('registered');
    // the portal's /s/ form and apply, with the new account
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/lms/s/application-portals/${portalId}/`,
      headers: client.headers,
    });
    expect(view.statusCode, view.body).toBe(200);
    const apply = await t.app.inject({
      method: 'POST',
      url: `/api/lms/s/application-portals/${portalId}/apply/`,
      headers: client.headers,
      payload: { tax_responsibilities_confirmed: true },
    });
    expect(apply.statusCode, apply.body).toBe(201);
    expect(apply.json()).toMatchObject({ state: 'awaiting_payment' });
    expect(apply.json().next_url).toMatch(/^\/payment-portal\/pit_/);
    // and signs in with the password later
    const again = await login(t.app, 'priya.driver@example.test', STRONG);
    expect(again.csrf).toBeTruthy();
  });

  it('refuses an email in use (a subject’s or a staff member’s), in the spec shape', async () => {
    await signUp(person('twice@example.test'));
    const second = await signUp(person('TWICE@example.test'));
    expect(second.res.statusCode).toBe(400);
    expect(second.res.json()).toHaveProperty('email');
    const staff = await signUp(person('taken@example.test'));
    expect(staff.res.statusCode).toBe(400);
    expect(staff.res.json()).toHaveProperty('email');
  });

  it('validates names, email, date of birth (18 or over), password and the terms', async () => {
    const bad = await signUp({
      first_name: 'P1',
      last_name: '',
      email: 'nope',
      dob: '1988-13-40',
      password: 'short',
      terms_agreed: false,
    });
    expect(bad.res.statusCode).toBe(400);
    const body = bad.res.json();
    for (const f of ['first_name', 'last_name', 'email', 'dob', 'password', 'terms_agreed'])
      expect(body, f).toHaveProperty(f);
    const now = t.clock.now();
    const young = `${now.getUTCFullYear() - 17}-01-01`;
    const child = await signUp(person('young@example.test', { dob: young }));
    expect(child.res.statusCode).toBe(400);
    expect(child.res.json().dob).toEqual(['You must be at least 18 to apply.']);
  });

  it('is rate-limited per address (429)', async () => {
    const codes: number[] = [];
    for (let i = 0; i <= PER_ADDRESS; i++) {
      codes.push((await signUp(person(`flood${i}@example.test`), '203.0.113.50')).res.statusCode);
    }
    expect(codes.slice(0, PER_ADDRESS)).toEqual(Array(PER_ADDRESS).fill(201));
    expect(codes[PER_ADDRESS]).toBe(429);
  });
});
