import { SSO_NOT_SET_UP, SSO_PASSWORD_NOT_ALLOWED, SSO_REASONS } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
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
import { auditActions } from '../../platform/tables/audit.table.js';
import { totpGuardrails } from '../../platform/totp.js';
import {
  type RunningDevProvider,
  signInAtProvider,
  startDevProvider,
} from '../../providers/oidc/test-driver.js';
import { productUsers } from '../users/users.table.js';
import { SSO_CONTENT_TYPE } from './sso.service.js';
import { ssoLoginStates } from './sso.table.js';

// A real OpenID Connect provider (oidc-provider) on a free port: real codes, signed ID tokens.
const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const CLIENT_SECRET = 'corp-client-secret-0123456789';
const REDIRECTS = ['http://localhost:80', 'http://localhost', 'http://localhost:8080'].map(
  (b) => `${b}/auth/callback`,
);

let t: TestApp;
let idp: RunningDevProvider;
let acme: number;
let other: number;
let admin: Client;
let viewer: Client;
let otherAdmin: Client;

beforeAll(async () => {
  [t, idp] = await Promise.all([
    buildTestApp({ config: { jobWorkers: false } }),
    startDevProvider({
      clients: [{ clientId: 'kestrel-acme', clientSecret: CLIENT_SECRET, redirectUris: REDIRECTS }],
    }),
  ]);
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
    await createProductUser(tx, {
      customerId: acme,
      username: 'ann.lee',
      email: 'Ann.Lee@Corp.test',
      roles: ['viewer'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'mfa@corp.test',
      totpSecret: SECRET,
      roles: ['viewer'],
    });
    await createProductUser(tx, { customerId: acme, username: 'gone@corp.test', isActive: false });
    await createProductUser(tx, { customerId: acme, username: 'new@corp.test', password: null });
    await createProductUser(tx, {
      customerId: other,
      username: 'admin@other.test',
      roles: ['admin'],
    });
    await createProductUser(tx, { customerId: other, username: 'moved@corp.test' });
  });
  [admin, viewer, otherAdmin] = await Promise.all([
    login(t.app, 'admin@acme.test'),
    login(t.app, 'viewer@acme.test'),
    login(t.app, 'admin@other.test'),
  ]);
}, 60_000);
afterAll(async () => {
  await idp.close();
  await t.close();
});

const config = (over: Record<string, unknown> = {}) => ({
  issuer: idp.issuer,
  client_id: 'kestrel-acme',
  client_secret: CLIENT_SECRET,
  allowed_domains: ['corp.test', 'acme.test'],
  password_allowed: true,
  enabled: true,
  ...over,
});
const put = (who: Client, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/sso-config/', headers: who.headers, payload });
const ssoAudits = () =>
  t.owner((tx) =>
    tx.select().from(auditActions).where(eq(auditActions.contentType, SSO_CONTENT_TYPE)),
  );

async function start(email: string, client?: Client) {
  const c = client ?? (await anonymous(t.app));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/accounts/sso/start/',
    headers: c.headers,
    payload: { email, next: '/cases' },
  });
  return { c, res };
}

/** Start, sign in at the provider as `email`, and the callback's answer. */
async function signIn(email: string, opts: { mfa?: boolean } = {}) {
  const { c, res } = await start(email);
  expect(res.statusCode, res.body).toBe(200);
  const url: string = res.json().authorization_url;
  const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
  const params = await signInAtProvider(url, redirect, { email, ...opts });
  const callback = (payload: Record<string, string>, who: Client = c) =>
    t.app.inject({
      method: 'POST',
      url: '/api/accounts/sso/callback/',
      headers: who.headers,
      payload,
    });
  return { c, params, callback, first: await callback(params) };
}

const reasonOf = (res: { json: () => unknown }) =>
  (res.json() as { reason?: string[] }).reason?.[0];

describe('GET/PUT /api/sso-config/', () => {
  it('needs customers.change_customer; anonymous is refused', async () => {
    expect(
      (await t.app.inject({ url: '/api/sso-config/', headers: viewer.headers })).statusCode,
    ).toBe(403);
    expect((await put(viewer, config())).statusCode).toBe(403);
    const anon = await anonymous(t.app);
    expect(
      (await t.app.inject({ url: '/api/sso-config/', headers: anon.headers })).statusCode,
    ).toBe(401);
  });

  it('answers an empty configuration before the first save', async () => {
    const res = await t.app.inject({ url: '/api/sso-config/', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      configured: false,
      enabled: false,
      client_secret_set: false,
    });
  });

  it('validates issuer, domains and the secret', async () => {
    const bad = await put(
      admin,
      config({ issuer: 'http://idp.example.com', allowed_domains: ['corp', 'ok.test'] }),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['allowed_domains']);
    const issuer = await put(admin, config({ issuer: 'http://idp.example.com' }));
    expect(issuer.json()).toEqual({
      issuer: ['Enter the issuer as a web address starting with https://.'],
    });
    const noSecret = await put(admin, config({ client_secret: undefined }));
    expect(noSecret.json()).toEqual({ client_secret: ['Enter the client secret.'] });
    const none = await put(admin, config({ allowed_domains: [] }));
    expect(none.json()).toEqual({ allowed_domains: ['Enter at least one email domain.'] });
  });

  it('saves, never answers the secret, audits without it, keeps it when left empty', async () => {
    const res = await put(admin, config());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ configured: true, client_secret_set: true, enabled: true });
    expect(res.body).not.toContain(CLIENT_SECRET);
    const again = await put(admin, config({ client_secret: undefined, password_allowed: true }));
    expect(again.statusCode).toBe(200);
    expect(again.json().client_secret_set).toBe(true);
    const audits = await ssoAudits();
    expect(audits.map((a) => a.verb)).toEqual(expect.arrayContaining(['created', 'updated']));
    expect(JSON.stringify(audits)).not.toContain(CLIENT_SECRET);
    expect(audits.every((a) => a.customerId === acme)).toBe(true);
  });

  it('keeps tenants apart: another organisation sees its own, and may not take the domains', async () => {
    const own = await t.app.inject({ url: '/api/sso-config/', headers: otherAdmin.headers });
    expect(own.json().configured).toBe(false);
    const res = await put(otherAdmin, config({ allowed_domains: ['other.test', 'corp.test'] }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      allowed_domains: [
        'The domain "corp.test" is already used by another organisation\'s sign-in.',
      ],
    });
  });

  it('tests discovery: the provider answers, or it says clearly what is wrong', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/sso-config/test-discovery/',
      headers: admin.headers,
      payload: {},
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, issuer: idp.issuer });
    const down = await t.app.inject({
      method: 'POST',
      url: '/api/sso-config/test-discovery/',
      headers: admin.headers,
      payload: { issuer: 'http://127.0.0.1:9' },
    });
    expect(down.json()).toMatchObject({ ok: false });
    expect(down.json().detail).toContain('could not be reached');
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/sso-config/test-discovery/',
      headers: admin.headers,
      payload: { issuer: 'ftp://x' },
    });
    expect(invalid.statusCode).toBe(400);
  });
});

describe('organisation sign-in', () => {
  it('starts only for a domain an enabled configuration covers', async () => {
    const { res } = await start('someone@nowhere.test');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: [SSO_NOT_SET_UP] });
    const ok = await start('ann.lee@corp.test');
    const url = new URL(ok.res.json().authorization_url);
    expect(url.origin).toBe(idp.issuer);
    for (const p of ['state', 'nonce', 'code_challenge'])
      expect(url.searchParams.get(p)).toBeTruthy();
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('signs a user of the organisation in (email case-insensitive), as the password login', async () => {
    const { c, first } = await signIn('ann.lee@corp.test');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ user_type: 'ProductUser', next: '/cases' });
    const me = follow(c, first);
    const session = await t.app.inject({
      url: '/api/accounts/check-session/',
      headers: me.headers,
    });
    expect(session.json()).toMatchObject({ authenticated: true, session_customer: acme });
    const logins = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(and(eq(auditActions.verb, 'logged_in'), eq(auditActions.customerId, acme))),
    );
    expect(logins.some((a) => a.objectRepr.includes('organisation'))).toBe(true);
  });

  it('refuses a state that is not this browser’s, altered, or used again', async () => {
    const { params, callback, first } = await signIn('ann.lee@corp.test');
    expect(first.statusCode).toBe(200);
    const replay = await callback(params);
    expect(replay.statusCode).toBe(400);
    expect(reasonOf(replay)).toBe('invalid_state');
    expect(replay.json().non_field_errors).toEqual([SSO_REASONS.invalid_state]);

    const { url, c } = await (async () => {
      const s = await start('ann.lee@corp.test');
      return { url: s.res.json().authorization_url as string, c: s.c };
    })();
    const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
    const got = await signInAtProvider(url, redirect, { email: 'ann.lee@corp.test' });
    const stranger = await anonymous(t.app);
    const otherBrowser = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sso/callback/',
      headers: stranger.headers,
      payload: got,
    });
    expect(reasonOf(otherBrowser)).toBe('invalid_state');
    const altered = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sso/callback/',
      headers: c.headers,
      payload: { ...got, state: `${got.state}x` },
    });
    expect(reasonOf(altered)).toBe('invalid_state');
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sso/callback/',
      headers: c.headers,
      payload: { ...got, state: 'nonsense' },
    });
    expect(reasonOf(garbage)).toBe('invalid_state');
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const { c, res } = await start('ann.lee@corp.test');
    const url: string = res.json().authorization_url;
    await t.owner((tx) =>
      tx
        .update(ssoLoginStates)
        .set({ nonce: 'not-the-nonce-sent' })
        .where(eq(ssoLoginStates.customerId, acme)),
    );
    const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
    const got = await signInAtProvider(url, redirect, { email: 'ann.lee@corp.test' });
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sso/callback/',
      headers: c.headers,
      payload: got,
    });
    expect(out.statusCode).toBe(400);
    expect(reasonOf(out)).toBe('token_invalid');
  });

  it('signs an invited user in, who has not chosen a password: the invitation is claimed', async () => {
    const { first } = await signIn('new@corp.test');
    expect(first.statusCode, first.body).toBe(200);
    const [me] = await t.owner((tx) =>
      tx.select().from(productUsers).where(eq(productUsers.email, 'new@corp.test')),
    );
    if (!me) throw new Error('no user');
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/users/${me.id}/`,
      headers: admin.headers,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({ status: 'active' });
    expect(listed.json().last_login_at).not.toBeNull();
  });

  it('refuses unknown, deactivated and other-organisation users', async () => {
    for (const [email, reason] of [
      ['nobody@corp.test', 'unknown_user'],
      ['gone@corp.test', 'deactivated_user'],
      ['moved@corp.test', 'other_organisation'],
    ] as const) {
      const { first } = await signIn(email);
      expect(first.statusCode, email).toBe(400);
      expect(reasonOf(first), email).toBe(reason);
    }
    const refused = await t.owner((tx) =>
      tx.select().from(auditActions).where(eq(auditActions.verb, 'login_failed')),
    );
    expect(refused.some((a) => a.objectRepr.includes('deactivated_user'))).toBe(true);
  });

  it('reports the provider’s refusal', async () => {
    const { c, res } = await start('ann.lee@corp.test');
    const state = new URL(res.json().authorization_url).searchParams.get('state') ?? '';
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/sso/callback/',
      headers: c.headers,
      payload: { state, error: 'access_denied' },
    });
    expect(reasonOf(out)).toBe('provider_error');
  });

  it('does not ask for TOTP when the provider did multi-factor', async () => {
    const { first } = await signIn('mfa@corp.test', { mfa: true });
    expect(first.statusCode, first.body).toBe(200);
  });

  it('asks for TOTP when the provider did a password only, then signs in with the code', async () => {
    const { params, callback, first } = await signIn('mfa@corp.test');
    expect(first.statusCode).toBe(400);
    expect(first.json()).toEqual({ totp: ['MFA token required'] });
    const wrong = await callback({ state: params.state ?? '', totp: '000000' });
    const totp = await generate({
      secret: SECRET,
      epoch: Math.floor(t.clock.now().getTime() / 1000),
      guardrails: totpGuardrails,
    });
    if (totp !== '000000') expect(wrong.statusCode).toBe(401);
    const ok = await callback({ state: params.state ?? '', totp });
    expect(ok.statusCode, ok.body).toBe(200);
    // the state is spent
    const again = await callback({ state: params.state ?? '', totp });
    expect(reasonOf(again)).toBe('invalid_state');
  });

  it('refuses the password login of the domain when passwords are not allowed', async () => {
    expect(
      (await put(admin, config({ client_secret: undefined, password_allowed: false }))).statusCode,
    ).toBe(200);
    const anon = await anonymous(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      headers: anon.headers,
      payload: { username: 'ann.lee', password: 'kestrel-test-password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [SSO_PASSWORD_NOT_ALLOWED] });
    // another organisation's staff are not concerned
    await login(t.app, 'moved@corp.test');
    // organisation sign-in still works; switched off, it no longer starts
    expect((await signIn('ann.lee@corp.test')).first.statusCode).toBe(200);
    expect(
      (await put(admin, config({ client_secret: undefined, enabled: false }))).statusCode,
    ).toBe(200);
    expect((await start('ann.lee@corp.test')).res.statusCode).toBe(400);
    await login(t.app, 'ann.lee');
  });
});
