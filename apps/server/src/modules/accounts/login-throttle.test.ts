// @postgres: rate-limit counters upserted in a system transaction of their own, on the pool

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createProductUser,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helpers.js';

// OWASP: failures are counted per account *and* source, so an attacker slows himself down
// without locking the owner out; the per-address limit stays.
let t: TestApp;
const windowMs = 15 * 60_000;

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      rateLimits: {
        perAccount: 10,
        perAddress: 50,
        publicReadsPerAddress: 900,
        windowMs,
        accountUnderAttack: 30,
        perSourceUnderAttack: 3,
      },
    },
  });
  await t.owner(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme' });
    for (const username of ['admin@acme.test', 'target@acme.test', 'spray@acme.test']) {
      await createProductUser(tx, { customerId: c.id, username, roles: ['admin'] });
    }
    await createProductUser(tx, { customerId: null, username: 'ops@kestrel.test', roles: ['ops'] });
  });
});
afterAll(() => t.close());

async function attempt(username: string, password: string, remoteAddress: string) {
  const anon = await anonymous(t.app);
  return t.app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    headers: anon.headers,
    payload: { username, password },
    remoteAddress,
  });
}

const counters = () =>
  t.owner((tx) =>
    tx.execute<{ key: string; count: number }>(
      sql`select key, count from rate_limits order by key`,
    ),
  );

describe('login throttling', () => {
  it('throttles the failing source, not the account: the owner gets in from elsewhere at once', async () => {
    for (const username of ['admin@acme.test', 'ops@kestrel.test']) {
      for (let i = 0; i < 10; i++) {
        const res = await attempt(username, 'wrong-password-123', '10.1.0.1');
        expect([username, i, res.statusCode]).toEqual([username, i, 401]);
      }
      const blocked = await attempt(username, 'wrong-password-123', '10.1.0.1');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // the owner, from an address that has not been failing, with the right password
      const owner = await attempt(username, TEST_PASSWORD, '10.1.0.2');
      expect([username, owner.statusCode]).toEqual([username, 200]);
      // the attacker stays throttled, even with the right password
      const still = await attempt(username, TEST_PASSWORD, '10.1.0.1');
      expect([username, still.statusCode]).toEqual([username, 429]);
    }
    t.clock.advance(windowMs + 60_000);
    expect((await attempt('admin@acme.test', 'wrong-password-123', '10.1.0.1')).statusCode).toBe(
      401,
    );
  });

  it('a success clears only its own source; a typo elsewhere is not held against the owner', async () => {
    for (let i = 0; i < 9; i++) await attempt('target@acme.test', 'wrong-password-123', '10.3.0.1');
    expect((await attempt('target@acme.test', TEST_PASSWORD, '10.3.0.1')).statusCode).toBe(200);
    // after a success the source starts again
    for (let i = 0; i < 10; i++) {
      expect((await attempt('target@acme.test', 'wrong-password-123', '10.3.0.1')).statusCode).toBe(
        401,
      );
    }
    expect((await attempt('target@acme.test', 'wrong', '10.3.0.1')).statusCode).toBe(429);
  });

  it('an account under a distributed attack allows each failing source fewer tries; a new one still gets in', async () => {
    t.clock.advance(windowMs + 60_000);
    // 30 failures from ten addresses: the account is under attack
    for (let s = 0; s < 10; s++) {
      for (let i = 0; i < 3; i++) {
        await attempt('spray@acme.test', 'wrong-password-123', `10.4.0.${s}`);
      }
    }
    // a source with three failures now waits (it had ten before the attack)
    expect((await attempt('spray@acme.test', 'wrong-password-123', '10.4.0.1')).statusCode).toBe(
      429,
    );
    // a source that has not been failing still gets in with the right password
    expect((await attempt('spray@acme.test', TEST_PASSWORD, '10.4.1.1')).statusCode).toBe(200);
  });

  it('keeps the per-address limit across accounts, and a refused attempt writes nothing', async () => {
    t.clock.advance(windowMs + 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      statuses.push(
        (await attempt(`nobody${i}@x.test`, 'wrong-password-123', '10.2.0.1')).statusCode,
      );
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
    const before = await counters();
    for (let i = 0; i < 20; i++) {
      const res = await attempt(`someone-new${i}@x.test`, 'wrong-password-123', '10.2.0.1');
      expect(res.statusCode).toBe(429);
    }
    // no new rows for the new names, no counter moved
    expect(await counters()).toEqual(before);
  });
});
