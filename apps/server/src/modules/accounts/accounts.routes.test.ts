import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createFlag,
  createProductUser,
  createRole,
  createSubjectUser,
  login,
  MemoryMailer,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helpers.js';
import { emailSite } from '../../platform/email-site.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { sessions } from '../../platform/tables/sessions.table.js';
import { hashToken } from '../../platform/tokens.js';
import { totpGuardrails } from '../../platform/totp.js';

const SECRET = 'JBSWY3DPEHPK3PXP';
let t: TestApp;
const mailer = new MemoryMailer();
let customerId: number;

beforeAll(async () => {
  t = await buildTestApp({ mailer });
  await t.owner(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme' });
    customerId = c.id;
    await createProductUser(tx, { customerId, username: 'admin@acme.test', roles: ['admin'] });
    await createProductUser(tx, { customerId, username: 'mfa@acme.test', totpSecret: SECRET });
    await createProductUser(tx, { customerId, username: 'off@acme.test', isActive: false });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await createSubjectUser(tx, { customerId, email: 'subject@example.test' });
    await createSubjectUser(tx, { customerId, email: 'unclaimed@example.test', password: null });
  });
});
afterAll(() => t.close());

const audits = (verb: string) =>
  t.owner((tx) => tx.select().from(auditActions).where(eqVerb(verb)).orderBy(auditActions.id));
const eqVerb = (verb: string) => eq(auditActions.verb, verb);

function code(at: Date, secret = SECRET) {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000), guardrails: totpGuardrails });
}

describe('GET /api/accounts/check-session/', () => {
  it('gives an anonymous visitor a cookie and a CSRF token, storing no session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/accounts/check-session/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      authenticated: false,
      csrf_token: expect.any(String),
      user_type: null,
      session_customer: null,
      active_flags: 0,
      maintenance_window: null,
    });
    const cookie = res.cookies.find((c) => c.name === 'kestrel_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.value.length).toBeGreaterThanOrEqual(22); // ≥128 bits
    expect(res.headers['cache-control']).toBe('no-store');
    // nothing is stored until login: the token is signed for the cookie (anonymous-csrf.test.ts)
    const token = cookie?.value ?? '';
    const rows = await t.owner((tx) => tx.select().from(sessions));
    expect(rows.some((r) => r.tokenHash === hashToken(token))).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('reports the logged-in user and customer', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: { cookie: a.cookie },
    });
    expect(res.json()).toMatchObject({
      authenticated: true,
      csrf_token: a.csrf,
      user_type: 'ProductUser',
      session_customer: customerId,
    });
  });

  it('counts active flags only for users who may see flags', async () => {
    await t.owner(async (tx) => {
      const c = await createCustomer(tx, { name: 'Flagged Ltd' });
      await createProductUser(tx, {
        customerId: c.id,
        username: 'boss@flag.test',
        roles: ['admin'],
      });
      const none = await createRole(tx, { customerId: c.id, name: 'No flags', permissions: [] });
      await createProductUser(tx, {
        customerId: c.id,
        username: 'clerk@flag.test',
        roles: [none.id],
      });
      const s = await createSubjectUser(tx, { customerId: c.id, email: 'flagged@example.test' });
      await createFlag(tx, { customerId: c.id, subjectId: s.id });
      await createFlag(tx, { customerId: c.id, subjectId: s.id });
      await createFlag(tx, { customerId: c.id, subjectId: s.id, active: false });
    });
    const flagsOf = async (username: string) => {
      const me = await login(t.app, username);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/accounts/check-session/',
        headers: { cookie: me.cookie },
      });
      return res.json().active_flags;
    };
    expect(await flagsOf('boss@flag.test')).toBe(2);
    expect(await flagsOf('clerk@flag.test')).toBe(0);
    expect(await flagsOf('flagged@example.test')).toBe(0);
  });

  it('answers authenticated false after 30 idle minutes and after 12 hours', async () => {
    const a = await login(t.app, 'admin@acme.test');
    t.clock.advance(29 * 60_000);
    let res = await t.app.inject({
      method: 'GET',
      url: '/api/user/',
      headers: { cookie: a.cookie },
    });
    expect(res.statusCode).toBe(200);
    t.clock.advance(31 * 60_000);
    res = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: { cookie: a.cookie },
    });
    expect(res.json().authenticated).toBe(false);

    const b = await login(t.app, 'admin@acme.test');
    for (let i = 0; i < 25; i++) {
      t.clock.advance(29 * 60_000);
      await t.app.inject({ method: 'GET', url: '/api/user/', headers: { cookie: b.cookie } });
    }
    res = await t.app.inject({ method: 'GET', url: '/api/user/', headers: { cookie: b.cookie } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/accounts/login/', () => {
  it('logs in, rotates the session token and audits the success', async () => {
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: anon.headers,
      payload: { username: 'ADMIN@acme.test', password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ csrf_token: expect.any(String), user_type: 'ProductUser' });
    const cookie = res.cookies.find((c) => c.name === 'kestrel_session');
    expect(`kestrel_session=${cookie?.value}`).not.toBe(anon.cookie);
    // the session has a CSRF token of its own: the anonymous one does not work with it
    expect(res.json().csrf_token).not.toBe(anon.csrf);
    const old = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: { cookie: `kestrel_session=${cookie?.value}`, 'x-csrftoken': anon.csrf },
      payload: { dark_mode: true },
    });
    expect([old.statusCode, old.json()]).toEqual([403, { detail: 'CSRF Failed' }]);
    const rows = await audits('logged_in');
    expect(rows.at(-1)).toMatchObject({ customerId, actorType: 'ProductUser', verb: 'logged_in' });
  });

  it('logs a subject in with its email', async () => {
    const s = await login(t.app, 'subject@example.test');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: { cookie: s.cookie },
    });
    expect(res.json()).toMatchObject({ user_type: 'SubjectUser', session_customer: customerId });
  });

  it('answers 401 with the same message for a wrong password, an unknown or disabled account', async () => {
    const anon = await anonymous(t.app);
    for (const [username, password] of [
      ['admin@acme.test', 'wrong-password-123'],
      ['nobody@acme.test', TEST_PASSWORD],
      ['off@acme.test', TEST_PASSWORD],
      ['unclaimed@example.test', ''],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        headers: anon.headers,
        payload: { username, password: password || 'x' },
        remoteAddress: '10.0.0.9',
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Invalid login details' });
    }
    const failed = await audits('login_failed');
    expect(failed.length).toBeGreaterThanOrEqual(4);
    expect(failed.find((f) => f.objectRepr === 'nobody@acme.test')?.customerId).toBeNull();
    expect(failed.find((f) => f.objectRepr === 'admin@acme.test')?.customerId).toBe(customerId);
  });

  it('validates the body', async () => {
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: anon.headers,
      payload: { password: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ username: ['Required'] });
  });

  it('asks for the TOTP code with 400, accepts a valid one once, refuses a replay', async () => {
    const anon = await anonymous(t.app);
    const base = { username: 'mfa@acme.test', password: TEST_PASSWORD };
    let res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: anon.headers,
      payload: base,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ totp: ['MFA token required'] });

    res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: anon.headers,
      payload: { ...base, totp: '000000' === (await code(t.clock.now())) ? '111111' : '000000' },
    });
    expect(res.statusCode).toBe(401);

    const totp = await code(t.clock.now());
    res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: anon.headers,
      payload: { ...base, totp },
    });
    expect(res.statusCode).toBe(200);

    const again = await anonymous(t.app);
    res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: again.headers,
      payload: { ...base, totp },
    });
    expect(res.statusCode).toBe(401);
    expect((await audits('totp_replayed')).length).toBe(1);
    expect((await audits('totp_failed')).length).toBeGreaterThanOrEqual(1);
  });
});

describe('rate limiting', () => {
  it('limits reset-confirm, claim-account, registration and the TOTP steps per account', async () => {
    await t.owner((tx) =>
      createProductUser(tx, { customerId, username: 'limited@acme.test', roles: ['admin'] }),
    );
    const me = await login(t.app, 'limited@acme.test');
    const strong = 'a-long-enough-passphrase-9';
    const calls: [
      string,
      'POST' | 'PATCH',
      string,
      Record<string, unknown>,
      Record<string, string>,
    ][] = [
      [
        'reset-confirm',
        'POST',
        '/api/accounts/password-reset-confirm/',
        { token: 'guess', password: strong },
        {},
      ],
      ['claim', 'POST', '/api/user/claim-account/', { token: 'guess', password: strong }, {}],
      [
        'registration',
        'POST',
        '/api/accounts/registration/',
        {
          customer_name: 'Spam Ltd',
          first_name: 'S',
          last_name: 'P',
          email: 'spam@spam.test',
          password: strong,
        },
        {},
      ],
      ['totp-validate', 'PATCH', '/api/user/totp-validate/', { totp: '000000' }, me.headers],
    ];
    for (const [k, [name, method, url, payload, auth]] of calls.entries()) {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        // a new visitor each time (a registration logs its visitor in), from a new address
        const headers = Object.keys(auth).length ? auth : (await anonymous(t.app)).headers;
        const res = await t.app.inject({
          method,
          url,
          headers,
          payload,
          remoteAddress: `10.9.${k}.${i}`,
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429)
          expect([name, Number(res.headers['retry-after'])]).toEqual([name, expect.any(Number)]);
      }
      // ten attempts are answered, the eleventh is refused
      expect([name, statuses.slice(0, 10).includes(429), statuses[10]]).toEqual([name, false, 429]);
    }
    // turning TOTP off draws on the same budget of TOTP attempts
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-disable/',
      headers: me.headers,
      payload: { totp: '000000' },
    });
    expect(off.statusCode).toBe(429);
  });

  it('answers 429 with Retry-After per account and address, even with the right password (the owner elsewhere: login-throttle.test.ts)', async () => {
    const anon = await anonymous(t.app);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        headers: anon.headers,
        payload: { username: 'victim@acme.test', password: 'wrong-password-123' },
        remoteAddress: '10.1.0.1',
      });
      last = res.statusCode;
      if (i < 10) expect(res.statusCode).toBe(401);
    }
    expect(last).toBe(429);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: anon.headers,
      payload: { username: 'victim@acme.test', password: TEST_PASSWORD },
      remoteAddress: '10.1.0.1',
    });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(16 * 60_000);
    const later = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: (await anonymous(t.app)).headers,
      payload: { username: 'victim@acme.test', password: 'wrong-password-123' },
      remoteAddress: '10.1.0.1',
    });
    expect(later.statusCode).toBe(401);
  });

  it('answers 429 per address across accounts', async () => {
    const anon = await anonymous(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/password-reset/',
        headers: anon.headers,
        payload: { email: `someone${i}@x.test` },
        remoteAddress: '10.2.0.1',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 50).every((s) => s === 200)).toBe(true);
    expect(statuses[50]).toBe(429);
  });
});

describe('one person reads the same in every audit entry', () => {
  it('a login is recorded under the name its session then acts under, not the login name', async () => {
    await t.owner((tx) =>
      createProductUser(tx, {
        customerId,
        username: 'named@acme.test',
        firstName: 'Nadia',
        lastName: 'Named',
        roles: ['admin'],
      }),
    );
    const a = await login(t.app, 'named@acme.test');
    await t.app.inject({ method: 'POST', url: '/api/accounts/logout/', headers: a.headers });
    const names = [...(await audits('logged_in')), ...(await audits('logged_out'))]
      .filter((x) => x.actorType === 'ProductUser' && x.actorName.startsWith('Nadia'))
      .map((x) => x.actorName);
    expect(names).toEqual(['Nadia Named', 'Nadia Named']);
  });
});

describe('password-reset emails are in the brand of the host the person used', () => {
  async function resetThrough(host: string) {
    const anon = await anonymous(t.app);
    const before = mailer.sent.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      headers: { ...anon.headers, host },
      payload: { email: 'admin@acme.test' },
    });
    expect(res.statusCode).toBe(200);
    await t.settle();
    expect(mailer.sent.length).toBe(before + 1);
    const mail = mailer.sent.at(-1);
    if (!mail) throw new Error('no email');
    return mail;
  }

  it("the second brand's host: its name, its link, an HTML part with its logo, colour and contact", async () => {
    const mail = await resetThrough('127.0.0.1:4321');
    expect(mail.subject).toBe('Reset your Harrier Vetting password');
    expect(mail.fromName).toBe('Harrier Vetting');
    expect(mail.text).toContain('http://127.0.0.1:4321/auth/password-reset-confirm?token=');
    expect(mail.text).toContain('help@harriervetting.co.uk');
    expect(mail.text).not.toMatch(/kestrel/i);
    const html = mail.html ?? '';
    expect(html).toContain('<!doctype html>');
    expect(html).toContain('Harrier Vetting');
    expect(html).toContain('#087f5b');
    expect(html).toContain('src="http://127.0.0.1:4321/email/harrier-logo.png"');
    expect(html).toContain('href="http://127.0.0.1:4321/auth/password-reset-confirm?token=');
    expect(html).toContain('2 Wellington Place, Leeds LS1 4AP');
    expect(html).not.toMatch(/kestrel/i);
  });

  it("the first brand's host: its name and address", async () => {
    const mail = await resetThrough('app.kestrelchecks.co.uk');
    expect(mail.subject).toBe('Reset your Kestrel Checks password');
    expect(mail.text).toContain(
      'http://app.kestrelchecks.co.uk/auth/password-reset-confirm?token=',
    );
    expect(mail.html).toContain('#215fa4');
  });

  it('any other host: PUBLIC_URL and its brand, never the forged host', async () => {
    const mail = await resetThrough('evil.example');
    expect(mail.text).toContain(
      `${t.app.deps.config.publicUrl}/auth/password-reset-confirm?token=`,
    );
    expect(`${mail.text}${mail.html}`).not.toContain('evil.example');
  });
});

describe('POST /api/accounts/logout/', () => {
  it('ends the session: the token then gets 401, and is audited', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/logout/',
      headers: a.headers,
    });
    expect(res.statusCode).toBe(204);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/user/',
      headers: { cookie: a.cookie },
    });
    expect(after.statusCode).toBe(401);
    expect((await audits('logged_out')).length).toBeGreaterThanOrEqual(1);
  });

  it('needs the CSRF token', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/logout/',
      headers: { cookie: a.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'CSRF Failed' });
  });
});

describe('password reset', () => {
  it('emails a single-use link; the same answer for unknown emails', async () => {
    const anon = await anonymous(t.app);
    const before = mailer.sent.length;
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      headers: anon.headers,
      payload: { email: 'nobody@nowhere.test' },
    });
    const known = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      headers: anon.headers,
      payload: { email: 'admin@acme.test' },
    });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    await t.settle(); // the email is a job of the request's transaction
    expect(mailer.sent.length).toBe(before + 1);
    // both requests are audited (the unknown one with what was typed, no object)
    const requested = await audits('password_reset_requested');
    expect(requested.map((a) => a.objectRepr)).toContain('no active account: nobody@nowhere.test');
    const mail = mailer.sent.at(-1);
    expect(mail?.to).toBe('admin@acme.test');
    const token = /token=([A-Za-z0-9_%-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(token).not.toBe('');

    const session = await login(t.app, 'admin@acme.test');
    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset-confirm/',
      headers: anon.headers,
      payload: { token, password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({ password: ['Must be at least 12 characters'] });

    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset-confirm/',
      headers: anon.headers,
      payload: { token, password: 'a-brand-new-password' },
    });
    expect(ok.statusCode).toBe(200);
    // every session of the user ended
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/user/',
      headers: { cookie: session.cookie },
    });
    expect(old.statusCode).toBe(401);
    await login(t.app, 'admin@acme.test', 'a-brand-new-password');
    const reused = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset-confirm/',
      headers: anon.headers,
      payload: { token, password: TEST_PASSWORD },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ token: ['Invalid or expired token'] });
    expect((await audits('password_changed')).length).toBe(1);
    // put the password back for the other tests
    await t.owner(async (tx) => {
      const { hashPassword } = await import('../../platform/passwords.js');
      const { productUsers } = await import('../users/users.table.js');
      await tx
        .update(productUsers)
        .set({ passwordHash: await hashPassword(TEST_PASSWORD) })
        .where(eq(productUsers.username, 'admin@acme.test'));
    });
  });
});

describe('POST /api/accounts/registration/', () => {
  it('creates a customer with its administrator and logs in', async () => {
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/registration/',
      headers: anon.headers,
      payload: {
        customer_name: 'New Co',
        first_name: 'Nina',
        last_name: 'New',
        email: 'nina@newco.test',
        password: 'a-long-enough-password',
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user_type).toBe('ProductUser');
    const cookie = `kestrel_session=${res.cookies.find((c) => c.name === 'kestrel_session')?.value}`;
    const me = await t.app.inject({ method: 'GET', url: '/api/user/', headers: { cookie } });
    expect(me.json()).toMatchObject({
      username: 'nina@newco.test',
      roles: ['admin'],
      customer: { id: body.customer, name: 'New Co', demo_mode: false },
    });
    expect((await audits('registered')).at(-1)?.customerId).toBe(body.customer);
    const types = await t.app.inject({
      method: 'GET',
      url: '/api/activity-types/?page_size=100',
      headers: { cookie },
    });
    expect(types.statusCode).toBe(200);
    expect(types.json().results.map((r: { code: string }) => r.code)).toContain('dbs-basic');
  });

  it('refuses a taken email and invalid fields', async () => {
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/registration/',
      headers: anon.headers,
      payload: {
        customer_name: 'Dup',
        first_name: 'A',
        last_name: 'B',
        email: 'admin@acme.test',
        password: 'a-long-enough-password',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['A user with this email already exists.'] });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/registration/',
      headers: anon.headers,
      payload: { customer_name: '', first_name: 'A', last_name: 'B', email: 'nope', password: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['customer_name', 'email', 'password']);
  });
});

describe('the text rules of registration (spec point 5)', () => {
  it("answers the spec's messages for names and email", async () => {
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/registration/',
      headers: anon.headers,
      payload: {
        customer_name: 'Rules Co',
        first_name: 'R2-D2',
        last_name: 'L'.repeat(51),
        email: 'rules@rules.museum',
        password: 'a-long-enough-password',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      first_name: ['Contains invalid characters'],
      last_name: ['Max 50 characters'],
      email: ['Invalid email'],
    });
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/registration/',
      headers: anon.headers,
      payload: {
        customer_name: 'Rules Co',
        first_name: ' ',
        last_name: "O'Brien-Smith ",
        email: 'rules@rules.com',
        password: 'a-long-enough-password',
      },
    });
    expect(blank.json()).toEqual({ first_name: ['Required'] });
  });
});

describe('POST /api/user/claim-account/', () => {
  it('lets an invited subject set a password and logs it in', async () => {
    const { claimInvitation } = await import('./accounts.service.js');
    const { subjects } = await import('../subjects/subjects.table.js');
    const mail = await t.owner(async (tx) => {
      const [s] = await tx
        .select()
        .from(subjects)
        .where(eq(subjects.email, 'unclaimed@example.test'));
      if (!s) throw new Error('fixture');
      const site = emailSite(undefined, t.app.deps.config.publicUrl);
      return claimInvitation(tx, t.app.deps.clock.now(), site, s, 'Acme');
    });
    expect(mail.to).toBe('unclaimed@example.test');
    const token = decodeURIComponent(/claim-account\?token=([^\s]+)/.exec(mail.text)?.[1] ?? '');
    const anon = await anonymous(t.app);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/user/claim-account/',
      headers: anon.headers,
      payload: { token: 'not-a-real-token-at-all-xxxx', password: 'subject-password-1' },
    });
    expect(bad.statusCode).toBe(400);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/claim-account/',
      headers: anon.headers,
      payload: { token, password: 'subject-password-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user_type).toBe('SubjectUser');
    await login(t.app, 'unclaimed@example.test', 'subject-password-1');
    expect((await audits('account_claimed')).length).toBe(1);
  });
});
