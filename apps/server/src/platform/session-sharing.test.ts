// @postgres: two processes hear logouts by LISTEN/NOTIFY; the listener lost, back (pg-only part)

import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdminAndViewer,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../test/helpers.js';
import { defaultConfig } from '../config.js';
import { LISTENER_APPLICATION_NAME } from '../db/connection.js';

// Two server processes on one database: the session and maintenance caches live far longer than
// the test, so only the notification between the processes can make the second one forget.
let t: TestApp;
let other: FastifyInstance;

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      sessionCacheMs: 600_000,
      maintenanceCacheMs: 600_000,
      // every login of this file comes from one address
      rateLimits: { ...defaultConfig.rateLimits, perAddress: 1000 },
    },
  });
  other = await t.twin();
  await t.owner(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme' });
    await createAdminAndViewer(tx, c.id);
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
  });
});
afterAll(() => t.close());

/** The status a GET of `path` answers in the other process now. */
const seen = async (headers: Record<string, string>, path = '/api/user/') =>
  (await other.inject({ method: 'GET', url: path, headers })).statusCode;

/** PATCH of the user found by `search`, as `by` in the first process. */
async function patchUser(by: Record<string, string>, search: string, payload: object) {
  const list = await t.app.inject({
    method: 'GET',
    url: `/api/users/?search=${search}`,
    headers: by,
  });
  const id = list.json().results[0].id;
  return t.app.inject({ method: 'PATCH', url: `/api/users/${id}/`, headers: by, payload });
}

/** The status `path` answers in the other process, once it stops answering `before` (≤ 3 s). */
async function settled(headers: Record<string, string>, path: string, before: number) {
  const until = Date.now() + 3000;
  for (;;) {
    const status = await seen(headers, path);
    if (status !== before || Date.now() > until) return status;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sessions shared by two server processes', () => {
  it('a logout in one process ends the session in the other at once', async () => {
    const a = await login(t.app, 'admin@acme.test');
    expect(await seen(a.headers)).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/logout/',
      headers: a.headers,
    });
    expect(out.statusCode).toBe(204);
    expect(await settled(a.headers, '/api/user/', 200)).toBe(401);
  });

  it('deactivating a user in one process ends their sessions in the other', async () => {
    const a = await login(t.app, 'admin@acme.test');
    const v = await login(other, 'viewer@acme.test');
    expect(await seen(v.headers)).toBe(200);
    const res = await patchUser(a.headers, 'viewer', { is_active: false });
    expect(res.statusCode).toBe(200);
    expect(await settled(v.headers, '/api/user/', 200)).toBe(401);
  });

  it('a role change in one process reaches the other user session in the other', async () => {
    // The viewer's roles, not the administrator's own: the last administrator cannot be demoted
    // (issue 30).
    const a = await login(t.app, 'admin@acme.test');
    // The test above deactivated the viewer.
    expect((await patchUser(a.headers, 'viewer', { is_active: true })).statusCode).toBe(200);
    const v = await login(other, 'viewer@acme.test');
    expect(await seen(v.headers, '/api/cases/')).toBe(200);
    const res = await patchUser(a.headers, 'viewer', { roles: [] });
    expect(res.statusCode).toBe(200);
    expect(await settled(v.headers, '/api/cases/', 200)).toBe(403);
  });
});

describe('a logout or deactivation is seen by every process at once (issue 26, 5c)', () => {
  // No waiting between the answer in one process and the next request in the other: the
  // answer comes only once every process has heard. Twenty times, so that a race shows.
  it('a logout answered in one process is refused in the other by the next request', async () => {
    for (let i = 0; i < 20; i++) {
      const a = await login(t.app, 'admin@acme.test');
      expect(await seen(a.headers)).toBe(200);
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/logout/',
        headers: a.headers,
      });
      expect(out.statusCode).toBe(204);
      expect(await seen(a.headers)).toBe(401);
    }
  });

  it('a deactivation answered in one process ends the sessions in the other at once', async () => {
    await t.owner(async (tx) => {
      const [acme] = await tx.execute<{ id: number }>(
        sql`select id from customers where name = 'Acme'`,
      );
      const customerId = Number(acme?.id);
      await createProductUser(tx, { customerId, username: 'deactivator@acme.test' });
      for (let i = 1; i <= 20; i++) {
        await createProductUser(tx, { customerId, username: `staff${i}@acme.test` });
      }
    });
    const a = await login(t.app, 'deactivator@acme.test');
    for (let i = 1; i <= 20; i++) {
      const v = await login(other, `staff${i}@acme.test`);
      expect(await seen(v.headers)).toBe(200);
      const res = await patchUser(a.headers, `staff${i}@`, { is_active: false });
      expect(res.statusCode).toBe(200);
      expect(await seen(v.headers)).toBe(401);
    }
  });
});

describe('maintenance windows shared by two server processes', () => {
  it('a window opened or removed in one process applies in the other at once', async () => {
    // (the viewer was deactivated above; the admin, without roles now, may still read /api/user/)
    const a = await login(other, 'admin@acme.test');
    expect(await seen(a.headers)).toBe(200);
    const ops = await login(t.app, 'ops@k.test');
    const now = t.clock.now().getTime();
    const at = (min: number) => new Date(now + min * 60_000).toISOString();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/ops/maintenance-windows/',
      headers: ops.headers,
      payload: { start: at(-1), end: at(30), warning_start: at(-2) },
    });
    expect(created.statusCode).toBe(201);
    expect(await settled(a.headers, '/api/user/', 200)).toBe(503);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/ops/maintenance-windows/${created.json().id}/`,
      headers: ops.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect(await settled(a.headers, '/api/user/', 503)).toBe(200);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the listening connection (PostgreSQL)', () => {
  it('comes back after it is lost, and the other process hears logouts again', async () => {
    const a = await login(t.app, 'admin@acme.test');
    expect(await seen(a.headers)).toBe(200);
    // End every LISTEN connection of this database (both processes'), as a failover would.
    const ended = await t.owner((tx) =>
      tx.execute(sql`select pg_terminate_backend(pid) as ok from pg_stat_activity
        where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}
          and pid <> pg_backend_pid()`),
    );
    expect(ended.length).toBeGreaterThanOrEqual(2);
    // Back within about a second; then a logout reaches the other process again.
    await new Promise((r) => setTimeout(r, 1500));
    // (losing it dropped the other process's cache: it caches the session again first)
    expect(await seen(a.headers)).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/logout/',
      headers: a.headers,
    });
    expect(out.statusCode).toBe(204);
    expect(await settled(a.headers, '/api/user/', 200)).toBe(401);
  });
});
