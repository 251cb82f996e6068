import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProductUser,
  createRole,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import {
  API_KEY_CT,
  INVALID_API_KEY,
  REVOKED_API_KEY,
  SCOPES_ABOVE_CREATOR,
} from './api-keys.service.js';
import { apiKeys } from './api-keys.table.js';

let t: TestApp;
let acme: number;
let admin: Client;
let manager: Client;
let viewer: Client;
let acmeCase: number;
let otherCase: number;

const call = (client: Client, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
/** A request with only the bearer key: no cookie, no CSRF token. */
const withKey = (key: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function createKey(client: Client, scopes: string[], name = 'HR system') {
  const res = await call(client, 'POST', '/api/api-keys/', { name, scopes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; secret: string; prefix: string };
}

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      jobWorkers: false,
      rateLimits: {
        perAccount: 10,
        perAddress: 1000,
        publicReadsPerAddress: 900,
        windowMs: 15 * 60_000,
        accountUnderAttack: 100,
        perSourceUnderAttack: 3,
        apiKeyRequests: 30,
      },
    },
  });
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, { customerId: acme, username: 'admin@acme.test' });
    await createProductUser(tx, {
      customerId: acme,
      username: 'viewer@acme.test',
      roles: ['viewer'],
    });
    const role = await createRole(tx, {
      customerId: acme,
      name: 'Account manager',
      permissions: ['customers.change_customer', 'cases.view_case'],
    });
    await createProductUser(tx, {
      customerId: acme,
      username: 'manager@acme.test',
      roles: [role.id],
    });
    await createProductUser(tx, { customerId: other, username: 'admin@other.test' });
    acmeCase = (await createCase(tx, { customerId: acme })).id;
    otherCase = (await createCase(tx, { customerId: other })).id;
  });
  admin = await login(t.app, 'admin@acme.test');
  manager = await login(t.app, 'manager@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
});

afterAll(() => t.close());

describe('API keys', () => {
  it('creates a key (its secret in the answer only), lists it without the secret, audited', async () => {
    const key = await createKey(admin, ['cases.view_case']);
    expect(key.secret).toMatch(/^kst_[A-Za-z0-9_-]{43}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    const list = await call(admin, 'GET', '/api/api-keys/');
    expect(list.statusCode).toBe(200);
    const row = list.json().results.find((k: { id: number }) => k.id === key.id);
    expect(row).toMatchObject({ name: 'HR system', scopes: ['cases.view_case'], revoked_at: null });
    expect(row.created_by).toBe('Test User');
    expect(list.body).not.toContain(key.secret);
    const stored = await t.owner((tx) => tx.select().from(apiKeys).where(eq(apiKeys.id, key.id)));
    expect(stored[0]?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(key.secret);
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.contentType, API_KEY_CT), eq(auditActions.objectId, String(key.id))),
        ),
    );
    expect(audit.map((a) => a.verb)).toEqual(['created']);
  });

  it('refuses scopes above the creator, unknown permissions, and non-administrators', async () => {
    const above = await call(manager, 'POST', '/api/api-keys/', {
      name: 'Too much',
      scopes: ['cases.view_case', 'cases.add_case'],
    });
    expect(above.statusCode).toBe(400);
    expect(above.json()).toEqual({ scopes: [SCOPES_ABOVE_CREATOR] });
    expect((await createKey(manager, ['cases.view_case'])).secret).toBeTruthy();
    const unknown = await call(admin, 'POST', '/api/api-keys/', {
      name: 'Ops',
      scopes: ['customers.ops_access'],
    });
    expect(unknown.statusCode).toBe(400);
    expect((await call(viewer, 'GET', '/api/api-keys/')).statusCode).toBe(403);
    expect(
      (await call(viewer, 'POST', '/api/api-keys/', { name: 'x', scopes: ['cases.view_case'] }))
        .statusCode,
    ).toBe(403);
  });

  it('lists cases with a key, within its scopes and its customer only', async () => {
    const { secret } = await createKey(admin, ['cases.view_case']);
    const list = await withKey(secret, 'GET', '/api/cases/');
    expect(list.statusCode, list.body).toBe(200);
    const ids = list.json().results.map((c: { id: number }) => c.id);
    expect(ids).toContain(acmeCase);
    expect(ids).not.toContain(otherCase);
    expect((await withKey(secret, 'GET', `/api/cases/${acmeCase}/`)).statusCode).toBe(200);
    // another customer's case: not found
    expect((await withKey(secret, 'GET', `/api/cases/${otherCase}/`)).statusCode).toBe(404);
    // outside its scopes: 403 (subjects, the keys themselves)
    expect((await withKey(secret, 'GET', '/api/subjects/')).statusCode).toBe(403);
    expect((await withKey(secret, 'GET', '/api/api-keys/')).statusCode).toBe(403);
    // never an ops, subject or own-account route
    expect((await withKey(secret, 'GET', '/api/ops/customers/')).statusCode).toBe(403);
    expect((await withKey(secret, 'GET', '/api/user/')).statusCode).toBe(403);
  });

  it('needs no CSRF token (no cookie) for an unsafe method, and audits as the key', async () => {
    const { secret, prefix } = await createKey(admin, [
      'segments.add_segment',
      'segments.view_segment',
    ]);
    const res = await withKey(secret, 'POST', '/api/segments/', { name: 'Made by the API' });
    expect(res.statusCode, res.body).toBe(201);
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'segments.segment'),
            eq(auditActions.objectId, String(res.json().id)),
          ),
        ),
    );
    expect(audit[0]?.actorName).toBe(`API key HR system (${prefix}…)`);
    // the same call with the cookie and no token is refused
    const cookieOnly = await t.app.inject({
      method: 'POST',
      url: '/api/segments/',
      headers: { cookie: admin.cookie },
      payload: { name: 'No token' },
    });
    expect(cookieOnly.statusCode).toBe(403);
  });

  it('answers 401 for an unknown, malformed or revoked key; revoking is audited and 404 elsewhere', async () => {
    const unknown = await withKey(`kst_${'a'.repeat(43)}`, 'GET', '/api/cases/');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ detail: INVALID_API_KEY });
    expect((await withKey('nope', 'GET', '/api/cases/')).statusCode).toBe(401);
    const key = await createKey(admin, ['cases.view_case']);
    expect((await withKey(key.secret, 'GET', '/api/cases/')).statusCode).toBe(200);
    const other = await login(t.app, 'admin@other.test');
    expect((await call(other, 'DELETE', `/api/api-keys/${key.id}/`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/api/api-keys/${key.id}/`)).statusCode).toBe(204);
    const revoked = await withKey(key.secret, 'GET', '/api/cases/');
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({ detail: REVOKED_API_KEY });
    const list = await call(admin, 'GET', '/api/api-keys/');
    const row = list.json().results.find((k: { id: number }) => k.id === key.id);
    expect(row.revoked_at).not.toBeNull();
    const audit = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.contentType, API_KEY_CT), eq(auditActions.objectId, String(key.id))),
        ),
    );
    expect(audit.map((a) => a.verb).sort()).toEqual(['created', 'updated']);
  });

  it('notes the last use at most once a minute', async () => {
    const key = await createKey(admin, ['cases.view_case']);
    const lastUsed = async () =>
      (await t.owner((tx) => tx.select().from(apiKeys).where(eq(apiKeys.id, key.id))))[0]
        ?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    await withKey(key.secret, 'GET', '/api/cases/');
    const first = await lastUsed();
    expect(first?.getTime()).toBe(t.clock.now().getTime());
    t.clock.advance(30_000);
    await withKey(key.secret, 'GET', '/api/cases/');
    expect((await lastUsed())?.getTime()).toBe(first?.getTime());
    t.clock.advance(31_000);
    await withKey(key.secret, 'GET', '/api/cases/');
    expect((await lastUsed())?.getTime()).toBe(t.clock.now().getTime());
  });

  it('limits requests per key (429), another key unaffected', async () => {
    const busy = await createKey(admin, ['cases.view_case']);
    const calm = await createKey(admin, ['cases.view_case']);
    for (let i = 0; i < 30; i++) {
      expect((await withKey(busy.secret, 'GET', '/api/cases/')).statusCode).not.toBe(429);
    }
    const over = await withKey(busy.secret, 'GET', '/api/cases/');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect((await withKey(calm.secret, 'GET', '/api/cases/')).statusCode).toBe(200);
  });
});
