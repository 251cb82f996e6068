import { fakeOsAddresses, osPlacesOut } from '@kestrel/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createProductUser,
  createSubjectUser,
  createTestDatabase,
  login,
  ManualClock,
  type TestApp,
} from '../../../test/helpers.js';
import { buildApp } from '../../app.js';
import {
  OsDatahubError,
  type OsDatahubTokenProvider,
} from '../../providers/os-datahub/provider.js';
import { OS_DEMO_MODE, OS_FAILED, OS_NOT_CONFIGURED } from './address-lookup.routes.js';

/** The address lookup: the fake OS Places lookup, and OS Data Hub tokens when configured. */
let t: TestApp;
let admin: Client;
let ops: Client;
let subject: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    const acme = (await createCustomer(tx, { name: 'Acme' })).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    const s = await createSubjectUser(tx, { customerId: acme, email: 'sam@example.test' });
    await createCase(tx, { customerId: acme, subjectId: s.id });
  });
  admin = await login(t.app, 'admin@acme.test');
  ops = await login(t.app, 'ops@k.test');
  subject = await login(t.app, 'sam@example.test');
});
afterAll(() => t.close());

const get = (app: FastifyInstance, c: Client, url: string) =>
  app.inject({ method: 'GET', url, headers: c.headers });
const post = (app: FastifyInstance, c: Client, url: string) =>
  app.inject({ method: 'POST', url, headers: c.headers });

describe('os-fake-lookup', () => {
  it('answers the same addresses for a postcode, in OS Places shape, for every audience', async () => {
    for (const [c, prefix] of [
      [admin, '/api/'],
      [ops, '/api/ops/'],
      [subject, '/api/s/'],
    ] as const) {
      const res = await get(t.app, c, `${prefix}case-addresses/os-fake-lookup/?postcode=yo17hh`);
      expect(res.statusCode).toBe(200);
      const body = osPlacesOut.parse(res.json());
      expect(body.results.map((r) => r.DPA)).toEqual(fakeOsAddresses('YO1 7HH'));
      expect(body.results[0]?.DPA.POSTCODE).toBe('YO1 7HH');
    }
  });

  it("needs at least 5 characters ('Min 5 characters') and a well-formed postcode", async () => {
    const short = await get(t.app, admin, '/api/case-addresses/os-fake-lookup/?postcode=YO1');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ postcode: ['Min 5 characters'] });
    const missing = await get(t.app, admin, '/api/case-addresses/os-fake-lookup/');
    expect(missing.json()).toEqual({ postcode: ['Required'] });
    const bad = await get(t.app, admin, '/api/case-addresses/os-fake-lookup/?postcode=QQ1%201QQ');
    expect(bad.json()).toEqual({ postcode: ['Invalid format'] });
  });
});

describe('lookup-source without credentials', () => {
  it('tells every audience to use the fake lookup, so no screen asks for a live token first', async () => {
    for (const [c, prefix] of [
      [admin, '/api/'],
      [ops, '/api/ops/'],
      [subject, '/api/s/'],
    ] as const) {
      const res = await get(t.app, c, `${prefix}case-addresses/lookup-source/`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ source: 'fake' });
    }
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/case-addresses/lookup-source/' });
    expect([401, 403]).toContain(res.statusCode);
  });
});

describe('os-datahub-token without credentials', () => {
  it('answers 404 saying to use the fake lookup; the CSP allows no other origin', async () => {
    const res = await post(t.app, admin, '/api/case-addresses/os-datahub-token/');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: OS_NOT_CONFIGURED });
    expect(res.headers['content-security-policy']).toMatch(/connect-src 'self'(;|$)/);
    expect(res.headers['content-security-policy']).not.toContain('api.os.uk');
  });
});

describe('os-datahub-token with credentials', () => {
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  let calls = 0;
  let failing = false;
  const provider: OsDatahubTokenProvider = {
    token: async () => {
      calls += 1;
      if (failing) throw new OsDatahubError('down');
      return { access_token: 'os-token', expires_in: 240 };
    },
  };
  let staff: Client;
  let demoStaff: Client;
  let sam: Client;
  let opsStaff: Client;

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    await created.db.ownerTransaction(async (tx) => {
      const live = (await createCustomer(tx, { name: 'Live' })).id;
      const demo = (await createCustomer(tx, { name: 'Demo', demoMode: true })).id;
      await createAdminAndViewer(tx, live, 'live.test');
      await createAdminAndViewer(tx, demo, 'demo.test');
      await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
      const s = await createSubjectUser(tx, { customerId: live, email: 'sam@example.test' });
      await createCase(tx, { customerId: live, subjectId: s.id });
    });
    app = await buildApp({ db: created.db, clock: new ManualClock(), osDatahub: provider });
    await app.ready();
    staff = await login(app, 'admin@live.test');
    demoStaff = await login(app, 'admin@demo.test');
    sam = await login(app, 'sam@example.test');
    opsStaff = await login(app, 'ops@k.test');
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  it('gives the token to every audience, and the CSP allows the OS origin', async () => {
    for (const [c, prefix] of [
      [staff, '/api/'],
      [sam, '/api/s/'],
      [opsStaff, '/api/ops/'],
    ] as const) {
      const res = await post(app, c, `${prefix}case-addresses/os-datahub-token/`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ access_token: 'os-token', expires_in: 240 });
      expect(res.headers['content-security-policy']).toMatch(
        /connect-src 'self' https:\/\/api\.os\.uk(;|$)/,
      );
    }
    expect(calls).toBe(3);
  });

  it('tells the screens which lookup to use without asking the provider for a token', async () => {
    const before = calls;
    for (const [c, prefix, source] of [
      [staff, '/api/', 'live'],
      [sam, '/api/s/', 'live'],
      [opsStaff, '/api/ops/', 'live'],
      [demoStaff, '/api/', 'fake'],
    ] as const) {
      const res = await get(app, c, `${prefix}case-addresses/lookup-source/`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ source });
    }
    expect(calls).toBe(before);
  });

  it('refuses a demo-mode customer (fake lookup only) and reports a failed provider', async () => {
    const demo = await post(app, demoStaff, '/api/case-addresses/os-datahub-token/');
    expect(demo.statusCode).toBe(404);
    expect(demo.json()).toEqual({ detail: OS_DEMO_MODE });
    failing = true;
    const down = await post(app, staff, '/api/case-addresses/os-datahub-token/');
    expect(down.statusCode).toBe(502);
    expect(down.json()).toEqual({ detail: OS_FAILED });
  });

  it('needs the CSRF token and a session', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/case-addresses/os-datahub-token/',
      headers: { cookie: staff.cookie },
    });
    expect(res.statusCode).toBe(403);
  });
});
