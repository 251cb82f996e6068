import { MESSAGES } from '@kestrel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymous,
  buildTestApp,
  createCustomer,
  createProductUser,
  createSubjectUser,
  type TestApp,
} from '../../test/helpers.js';
import { issueAccountToken } from '../modules/accounts/accounts.service.js';
import { isCommonPassword } from './common-passwords.js';
import { passwordSchema } from './password-rule.js';

describe('isCommonPassword', () => {
  it.each([
    ['abcdefghijkl', true], // long enough, and in the breached list
    ['ABCDEFGHIJKL', true], // compared without case
    ['password1234', true],
    ['qwertyuiopasdfgh', true],
    ['password', true], // from the 10,000 most common
    ['kestrel-test-password', false],
    ['correct horse battery staple 42', false],
  ])('%s → %s', (password, common) => {
    expect(isCommonPassword(password)).toBe(common);
  });
});

describe('a common password is refused with a clear message on the password field', () => {
  let t: TestApp;
  let customerId: number;
  let staffId: number;
  let newUserId: number;
  let subjectId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.owner(async (tx) => {
      const c = await createCustomer(tx);
      customerId = c.id;
      staffId = (await createProductUser(tx, { customerId, username: 'staff@acme.test' })).id;
      newUserId = (
        await createProductUser(tx, { customerId, username: 'new@acme.test', password: null })
      ).id;
      subjectId = (
        await createSubjectUser(tx, { customerId, email: 'claim@example.test', password: null })
      ).id;
    });
  });
  afterAll(() => t.close());

  const token = (purpose: 'reset' | 'claim', type: 'ProductUser' | 'SubjectUser', id: number) =>
    t.owner((tx) =>
      issueAccountToken(tx, t.clock.now(), { purpose, type, id, customerId, ttlMs: 3_600_000 }),
    );
  const post = async (url: string, payload: Record<string, unknown>) => {
    const anon = await anonymous(t.app);
    return t.app.inject({ method: 'POST', url, headers: anon.headers, payload });
  };
  const refused = { password: [MESSAGES.commonPassword] };

  it('on sign-up (registration)', async () => {
    const body = {
      customer_name: 'New Ltd',
      first_name: 'N',
      last_name: 'L',
      email: 'owner@new.test',
      password: 'Abcdefghijkl',
    };
    const res = await post('/api/accounts/registration/', body);
    expect([res.statusCode, res.json()]).toEqual([400, refused]);
    const ok = await post('/api/accounts/registration/', {
      ...body,
      password: 'plum-kettle-orbit-77',
    });
    expect(ok.statusCode).toBe(201);
  });

  it('on reset', async () => {
    const tk = await token('reset', 'ProductUser', staffId);
    const res = await post('/api/accounts/password-reset-confirm/', {
      token: tk,
      password: 'password1234',
    });
    expect([res.statusCode, res.json()]).toEqual([400, refused]);
    const ok = await post('/api/accounts/password-reset-confirm/', {
      token: tk,
      password: 'plum-kettle-orbit-77',
    });
    expect(ok.statusCode).toBe(200);
  });

  it('on set-password (a new user’s first password, through the reset-confirm endpoint)', async () => {
    const tk = await token('reset', 'ProductUser', newUserId);
    const res = await post('/api/accounts/password-reset-confirm/', {
      token: tk,
      password: 'QWERTYUIOPASDFGH',
    });
    expect([res.statusCode, res.json()]).toEqual([400, refused]);
  });

  it('on claim', async () => {
    const tk = await token('claim', 'SubjectUser', subjectId);
    const res = await post('/api/user/claim-account/', { token: tk, password: 'abcdefghijkl' });
    expect([res.statusCode, res.json()]).toEqual([400, refused]);
    const ok = await post('/api/user/claim-account/', {
      token: tk,
      password: 'plum-kettle-orbit-77',
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('the password rule', () => {
  it('gives a short common password only the length message', () => {
    const r = passwordSchema.safeParse('password');
    expect(r.error?.issues.map((i) => i.message)).toEqual(['Must be at least 12 characters']);
    expect(passwordSchema.safeParse('Password1234').error?.issues.map((i) => i.message)).toEqual([
      MESSAGES.commonPassword,
    ]);
  });
});
