// @postgres: housekeeping's deletes as the system context across every tenant, on the pool

import { REFUSAL_RETENTION_DAYS } from '@kestrel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createProductUser,
  login,
  type TestApp,
} from '../../test/helpers.js';
import { runHousekeeping } from './housekeeping.js';
import { securityRefusals } from './tables/audit.table.js';
import { accountTokens, rateLimits, sessions } from './tables/sessions.table.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    const c = await createCustomer(tx);
    await createProductUser(tx, { customerId: c.id, username: 'a@acme.test' });
  });
});
afterAll(() => t.close());

describe('housekeeping', () => {
  it('deletes expired sessions, closed rate-limit windows and spent tokens; keeps live ones', async () => {
    const stale = await anonymous(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      headers: stale.headers,
      payload: { email: 'a@acme.test' },
    });
    t.clock.advance(31 * 60_000);
    const live = await login(t.app, 'a@acme.test');
    for (let i = 0; i < 4; i++) {
      t.clock.advance(20 * 60_000); // active, so never idle for 30 minutes
      await t.app.inject({ method: 'GET', url: '/api/user/', headers: live.headers });
    }
    await runHousekeeping(t.app.deps);
    const left = await t.owner((tx) => tx.select().from(sessions));
    expect(left).toHaveLength(1);
    expect(await t.owner((tx) => tx.select().from(rateLimits))).toEqual([]);
    expect(await t.owner((tx) => tx.select().from(accountTokens))).toEqual([]);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/', headers: live.headers });
    expect(me.statusCode).toBe(200);
  });

  it('deletes counted refusals last seen more than the retention ago; keeps the recent ones', async () => {
    const day = 24 * 60 * 60_000;
    const now = t.clock.now().getTime();
    const row = (route: string, lastSeen: number) => ({
      route,
      windowStart: new Date(lastSeen),
      firstSeenAt: new Date(lastSeen),
      lastSeenAt: new Date(lastSeen),
    });
    await t.owner((tx) =>
      tx
        .insert(securityRefusals)
        .values([
          row('GET /old/', now - (REFUSAL_RETENTION_DAYS + 1) * day),
          row('GET /recent/', now - (REFUSAL_RETENTION_DAYS - 1) * day),
        ]),
    );
    await runHousekeeping(t.app.deps);
    const left = await t.owner((tx) => tx.select().from(securityRefusals));
    expect(left.map((r) => r.route)).toContain('GET /recent/');
    expect(left.map((r) => r.route)).not.toContain('GET /old/');
  });
});
