import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions, securityRefusals } from '../../platform/tables/audit.table.js';

// Refused requests stay auditable without flooding the customer's activity trail: repeats are
// counted per actor, customer and route over a window, in a table of their own.
let t: TestApp;
let acme: number;
let other: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    other = (await createCustomer(tx, { name: 'Other' })).id;
    await createProductUser(tx, {
      customerId: acme,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
    await createProductUser(tx, {
      customerId: other,
      username: 'admin@other.test',
      roles: ['admin'],
    });
    await createProductUser(tx, { customerId: null, username: 'ops@k.test', roles: ['ops'] });
    await createSubjectUser(tx, { customerId: acme, email: 'looper@example.test' });
  });
});
afterAll(() => t.close());

const deniedAudits = async () =>
  Number(
    (
      await t.owner((tx) =>
        tx.execute<{ n: number }>(
          sql`select count(*)::int as n from audit_actions where verb = 'permission_denied'`,
        ),
      )
    )[0]?.n,
  );

describe('refused requests', () => {
  it('a subject looping on a staff list writes one counted row, not one audit row per request', async () => {
    const s = await login(t.app, 'looper@example.test');
    const before = await deniedAudits();
    for (let i = 0; i < 40; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/cases/', headers: s.headers });
      expect(res.statusCode).toBe(403);
    }
    await t.app.inject({ method: 'GET', url: '/api/cases/7/?x=1', headers: s.headers });
    // the customer's activity trail is not flooded
    expect(await deniedAudits()).toBe(before);
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(securityRefusals)
        .where(eq(securityRefusals.actorType, 'SubjectUser'))
        .orderBy(securityRefusals.route),
    );
    expect(rows.map((r) => [r.customerId, r.route, r.path, r.reason, r.count])).toEqual([
      [acme, 'GET /api/cases/', '/api/cases/', 'audience', 40],
      [acme, 'GET /api/cases/:id/', '/api/cases/7/', 'audience', 1],
    ]);
    const [list] = rows;
    expect(list?.actorName).toBeTruthy();
    expect(list?.lastSeenAt.getTime()).toBeGreaterThanOrEqual(list?.firstSeenAt.getTime() ?? 0);

    // a new window starts a new row
    t.clock.advance(61 * 60_000);
    const later = await login(t.app, 'looper@example.test');
    await t.app.inject({ method: 'GET', url: '/api/cases/', headers: later.headers });
    const again = await t.owner((tx) =>
      tx
        .select()
        .from(securityRefusals)
        .where(
          and(
            eq(securityRefusals.actorType, 'SubjectUser'),
            eq(securityRefusals.route, 'GET /api/cases/'),
          ),
        ),
    );
    expect(again.map((r) => r.count).sort()).toEqual([1, 40]);
  });

  it('are shown to the customer’s audit viewers (their own only) and to ops', async () => {
    const staff = await login(t.app, 'admin@other.test');
    const ops = await login(t.app, 'ops@k.test');
    // customer staff refused on an ops route: recorded for their customer
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/ops/customers/', headers: staff.headers }))
        .statusCode,
    ).toBe(403);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/security-refusals/',
      headers: staff.headers,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().results).toEqual([
      expect.objectContaining({
        customer: other,
        actor_type: 'ProductUser',
        route: 'GET /api/ops/customers/',
        reason: 'audience',
        count: 1,
      }),
    ]);
    const acmeAdmin = await login(t.app, 'admin@acme.test');
    const acmeView = await t.app.inject({
      method: 'GET',
      url: '/api/security-refusals/',
      headers: acmeAdmin.headers,
    });
    expect(acmeView.json().results.every((r: { customer: number }) => r.customer === acme)).toBe(
      true,
    );
    expect(acmeView.json().count).toBeGreaterThan(0);
    const all = await t.app.inject({
      method: 'GET',
      url: `/api/ops/security-refusals/?customer=${other}`,
      headers: ops.headers,
    });
    expect(all.json().results.map((r: { route: string }) => r.route)).toEqual([
      'GET /api/ops/customers/',
    ]);
    // the activity trail list holds no refusal
    const trail = await t.app.inject({
      method: 'GET',
      url: '/api/audit-actions/?verb=permission_denied',
      headers: staff.headers,
    });
    expect(trail.json().count).toBe(0);
    expect(
      await t.owner((tx) =>
        tx.select().from(auditActions).where(eq(auditActions.verb, 'permission_denied')),
      ),
    ).toEqual([]);
  });
});
