import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  login,
  randomSecrets,
  type TestApp,
} from '../../test/helpers.js';
import { customerSsoConfigs } from '../modules/sso/sso.table.js';
import { productUsers } from '../modules/users/users.table.js';
import { isSealed, seal, sealStoredSecrets, unseal, unsealOrNull } from './sealed-secrets.js';
import { totpGuardrails } from './totp.js';

// The TOTP secrets and an organisation's OpenID Connect client secret were stored as they are:
// a dump or a read of the table gave them away. They are sealed with this installation's key.

const PLAIN = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('seal and unseal', () => {
  const secrets = randomSecrets();

  it('gives back what was sealed, never the same stored text twice', () => {
    const a = seal(secrets, 'totp', PLAIN);
    const b = seal(secrets, 'totp', PLAIN);
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain(PLAIN);
    expect(a).not.toBe(b);
    expect(unseal(secrets, 'totp', a)).toBe(PLAIN);
    expect(unsealOrNull(secrets, 'totp', null)).toBeNull();
  });

  it('refuses a value sealed for another column, another installation, or changed', () => {
    const sealed = seal(secrets, 'totp', PLAIN);
    expect(() => unseal(secrets, 'sso_client_secret', sealed)).toThrow();
    expect(() => unseal(randomSecrets(), 'totp', sealed)).toThrow();
    const body = Buffer.from(sealed.slice(3), 'base64url');
    body[body.length - 1] = (body.at(-1) ?? 0) ^ 1;
    expect(() => unseal(secrets, 'totp', `v1:${body.toString('base64url')}`)).toThrow();
    expect(() => unseal(secrets, 'totp', 'v1:AAAA')).toThrow();
  });

  it('reads a value stored before sealing as it is', () => {
    expect(unseal(secrets, 'totp', PLAIN)).toBe(PLAIN);
  });
});

describe('stored secrets', () => {
  let t: TestApp;
  let customerId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    customerId = await t.owner(async (tx) => {
      const c = await createCustomer(tx, { name: 'Sealed Ltd' });
      // as rows written before sealing were (and a test factory's still are)
      await createProductUser(tx, {
        customerId: c.id,
        username: 'mfa@sealed.test',
        totpSecret: PLAIN,
      });
      await tx.insert(customerSsoConfigs).values({
        customerId: c.id,
        issuer: 'https://login.example.test',
        clientId: 'kestrel',
        clientSecret: 'the-client-secret',
      });
      return c.id;
    });
  });
  afterAll(() => t.close());

  const stored = () =>
    t.owner(async (tx) => {
      const [user] = await tx
        .select({ totp: productUsers.totpSecret, pending: productUsers.totpPendingSecret })
        .from(productUsers)
        .where(eq(productUsers.username, 'mfa@sealed.test'));
      const [sso] = await tx
        .select({ secret: customerSsoConfigs.clientSecret })
        .from(customerSsoConfigs)
        .where(eq(customerSsoConfigs.customerId, customerId));
      return { totp: user?.totp ?? '', pending: user?.pending ?? null, sso: sso?.secret ?? '' };
    });

  it('are sealed at start, once, whoever starts first', async () => {
    const secrets = t.app.deps.secrets;
    const [first, second] = await Promise.all([
      sealStoredSecrets(t.db, secrets),
      sealStoredSecrets(t.db, secrets),
    ]);
    expect(first + second).toBe(2);
    const now = await stored();
    expect(isSealed(now.totp)).toBe(true);
    expect(isSealed(now.sso)).toBe(true);
    expect(unseal(secrets, 'totp', now.totp)).toBe(PLAIN);
    expect(unseal(secrets, 'sso_client_secret', now.sso)).toBe('the-client-secret');
    expect(await sealStoredSecrets(t.db, secrets)).toBe(0);
  });

  it('still sign the user in with their authenticator code', async () => {
    const totp = await generate({
      secret: PLAIN,
      epoch: Math.floor(t.clock.now().getTime() / 1000),
      guardrails: totpGuardrails,
    });
    const client = await login(t.app, 'mfa@sealed.test', undefined, totp);
    expect(client.cookie).toContain('kestrel_session=');
  });

  it('a new authenticator is stored sealed, and its code is checked against it', async () => {
    const admin = await t.owner(async (tx) =>
      createProductUser(tx, { customerId, username: 'new@sealed.test', roles: ['admin'] }),
    );
    const me = await login(t.app, 'new@sealed.test');
    const made = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-generate/',
      headers: me.headers,
    });
    expect(made.statusCode, made.body).toBe(200);
    const secret: string = made.json().secret;
    const [row] = await t.owner((tx) =>
      tx.execute<{ pending: string }>(
        sql`select totp_pending_secret as pending from product_users where id = ${admin.id}`,
      ),
    );
    expect(isSealed(row?.pending ?? '')).toBe(true);
    expect(row?.pending).not.toContain(secret);
    const totp = await generate({
      secret,
      epoch: Math.floor(t.clock.now().getTime() / 1000),
      guardrails: totpGuardrails,
    });
    const validated = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/totp-validate/',
      headers: me.headers,
      payload: { totp },
    });
    expect(validated.statusCode, validated.body).toBe(200);
    const [after] = await t.owner((tx) =>
      tx.execute<{ totp: string }>(
        sql`select totp_secret as totp from product_users where id = ${admin.id}`,
      ),
    );
    expect(unseal(t.app.deps.secrets, 'totp', after?.totp ?? '')).toBe(secret);
  });
});
