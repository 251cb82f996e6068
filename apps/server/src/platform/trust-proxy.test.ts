import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, buildTestApp, type TestApp } from '../../test/helpers.js';
import { readConfig } from '../config.js';
import { auditActions } from './tables/audit.table.js';

describe('TRUST_PROXY', () => {
  const read = (v: string | undefined) => readConfig({ TRUST_PROXY: v }, '/').trustProxy;

  it('reads a hop count or a list of proxy addresses, never "trust everything"', () => {
    expect(read(undefined)).toBe(false);
    expect(read('')).toBe(false);
    expect(read('0')).toBe(false);
    expect(read('false')).toBe(false);
    expect(read('1')).toBe(1);
    expect(read('2')).toBe(2);
    // `true` used to trust every hop the client sent; it now means the one proxy in front
    expect(read('true')).toBe(1);
    expect(read('10.0.0.1, 10.1.0.0/16,::1')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
  });
});

describe('behind one proxy (TRUST_PROXY=1), a forged X-Forwarded-For', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      config: { trustProxy: readConfig({ TRUST_PROXY: '1' }, '/').trustProxy },
    });
  });
  afterAll(() => t.close());

  // The proxy (10.0.0.1) appends the address it saw: the client's own left-most entries are not it.
  const viaProxy = (forged: string, real: string) => ({
    remoteAddress: '10.0.0.1',
    headers: { 'x-forwarded-for': `${forged}, ${real}` },
  });

  it('does not step around the per-address limit', async () => {
    const anon = await anonymous(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) {
      const via = viaProxy(`1.2.3.${i}`, '203.0.113.7');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/password-reset/',
        remoteAddress: via.remoteAddress,
        headers: { ...anon.headers, ...via.headers },
        payload: { email: `someone${i}@x.test` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 50).every((s) => s === 200)).toBe(true);
    expect(statuses[50]).toBe(429);
  });

  it('audits the address the proxy saw, not the forged one', async () => {
    const anon = await anonymous(t.app);
    const via = viaProxy('198.51.100.66', '203.0.113.9');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/',
      remoteAddress: via.remoteAddress,
      headers: { ...anon.headers, ...via.headers },
      payload: { username: 'nobody@x.test', password: 'wrong-password-123' },
    });
    expect(res.statusCode).toBe(401);
    const [row] = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(eq(auditActions.verb, 'login_failed'))
        .orderBy(desc(auditActions.id))
        .limit(1),
    );
    expect(row?.ip).toBe('203.0.113.9');
  });
});

describe('behind listed proxies (TRUST_PROXY=10.0.0.0/8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      config: { trustProxy: readConfig({ TRUST_PROXY: '10.0.0.0/8' }, '/').trustProxy },
    });
  });
  afterAll(() => t.close());

  it('takes X-Forwarded-For only from a listed proxy', async () => {
    const ipOf = async (remoteAddress: string, xff: string) => {
      const anon = await anonymous(t.app);
      await t.app.inject({
        method: 'POST',
        url: '/api/accounts/login/',
        remoteAddress,
        headers: { ...anon.headers, 'x-forwarded-for': xff },
        payload: { username: 'nobody@x.test', password: 'wrong-password-123' },
      });
      const [row] = await t.owner((tx) =>
        tx
          .select()
          .from(auditActions)
          .where(eq(auditActions.verb, 'login_failed'))
          .orderBy(desc(auditActions.id))
          .limit(1),
      );
      return row?.ip;
    };
    // from the proxy: the client it saw (the forged left-most entry is not trusted either)
    expect(await ipOf('10.0.0.1', '198.51.100.1, 203.0.113.5')).toBe('203.0.113.5');
    // two listed hops: the first untrusted address from the right
    expect(await ipOf('10.0.0.1', '198.51.100.1, 203.0.113.5, 10.0.0.2')).toBe('203.0.113.5');
    // straight from a client: its header is ignored
    expect(await ipOf('203.0.113.6', '198.51.100.1')).toBe('203.0.113.6');
  });
});
