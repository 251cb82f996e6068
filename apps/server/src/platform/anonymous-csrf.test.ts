import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createProductUser,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/helpers.js';

// An anonymous visitor gets a CSRF token bound to a signed cookie, with no stored session until
// login, so check-session cannot be used to fill the sessions table.
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    const c = await createCustomer(tx);
    await createProductUser(tx, {
      customerId: c.id,
      username: 'admin@acme.test',
      roles: ['admin'],
    });
  });
});
afterAll(() => t.close());

const sessionRows = async () =>
  Number(
    (
      await t.owner((tx) => tx.execute<{ n: number }>(sql`select count(*)::int as n from sessions`))
    )[0]?.n,
  );
const loginWith = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    headers,
    payload: { username: 'admin@acme.test', password: TEST_PASSWORD },
  });

describe('anonymous check-session', () => {
  it('creates no session row, however often it is called', async () => {
    const before = await sessionRows();
    for (let i = 0; i < 50; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/accounts/check-session/' });
      expect(res.statusCode).toBe(200);
      expect(res.json().csrf_token).toEqual(expect.any(String));
    }
    expect(await sessionRows()).toBe(before);
  });

  it('keeps the token for the same cookie, without setting it again', async () => {
    const anon = await anonymous(t.app);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/accounts/check-session/',
      headers: { cookie: anon.cookie },
    });
    expect(again.json().csrf_token).toBe(anon.csrf);
    expect(again.cookies.find((c) => c.name === 'kestrel_session')).toBeUndefined();
  });

  it('lets the visitor log in with the token obtained anonymously (a session starts then)', async () => {
    const anon = await anonymous(t.app);
    const before = await sessionRows();
    const res = await loginWith(anon.headers);
    expect(res.statusCode).toBe(200);
    expect(await sessionRows()).toBe(before + 1);
    const cookie = res.cookies.find((c) => c.name === 'kestrel_session');
    expect(cookie?.value).not.toBe(anon.cookie.split('=')[1]);
  });

  it('refuses another visitor’s token, a forged cookie, and a token without its cookie', async () => {
    const a = await anonymous(t.app);
    const b = await anonymous(t.app);
    const forged = a.cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const attempts: Record<string, string>[] = [
      { cookie: a.cookie, 'x-csrftoken': b.csrf },
      { cookie: forged, 'x-csrftoken': a.csrf },
      { 'x-csrftoken': a.csrf },
      { cookie: a.cookie },
    ];
    for (const headers of attempts) {
      const res = await loginWith(headers);
      expect([res.statusCode, res.json()]).toEqual([403, { detail: 'CSRF Failed' }]);
    }
  });
});
