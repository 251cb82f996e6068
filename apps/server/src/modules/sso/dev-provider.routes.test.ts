import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCustomer,
  createProductUser,
  type TestApp,
} from '../../../test/helpers.js';
import { signInAtProvider } from '../../providers/oidc/test-driver.js';
import { DEV_OIDC_CLIENT_ID, DEV_OIDC_CLIENT_SECRET, devIssuer } from './dev-provider.routes.js';
import { customerSsoConfigs } from './sso.table.js';

// The development identity provider served by the server itself (/sim/oidc/), over real HTTP.
let t: TestApp;
let base: string;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const address = s.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  t = await buildTestApp({ config: { jobWorkers: false, publicUrl: base } });
  await t.owner(async (tx) => {
    const c = await createCustomer(tx, { name: 'Dev Co' });
    await createProductUser(tx, { customerId: c.id, username: 'sam@devco.test' });
    await tx.insert(customerSsoConfigs).values({
      customerId: c.id,
      // as the demo seed writes it: pointed at this server's address when it is ready
      issuer: 'http://localhost:8080/sim/oidc',
      clientId: DEV_OIDC_CLIENT_ID,
      clientSecret: DEV_OIDC_CLIENT_SECRET,
      allowedDomains: ['devco.test'],
      enabled: true,
    });
  });
  // onReady ran before the row existed: as a restart would, point it at this server
  await t.owner((tx) => tx.update(customerSsoConfigs).set({ issuer: devIssuer(base) }));
  await t.app.listen({ port, host: '127.0.0.1' });
}, 60_000);
afterAll(() => t.close());

describe('the development identity provider under /sim/oidc/', () => {
  it('serves discovery and signs a demo user in through the product', async () => {
    const discovery = await fetch(`${base}/sim/oidc/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(devIssuer(base));

    const check = await fetch(`${base}/api/accounts/check-session/`);
    const cookie = (check.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const csrf = ((await check.json()) as { csrf_token: string }).csrf_token;
    const headers = { cookie, 'x-csrftoken': csrf, 'content-type': 'application/json' };
    const start = await fetch(`${base}/api/accounts/sso/start/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'sam@devco.test' }),
    });
    expect(start.status).toBe(200);
    const url = ((await start.json()) as { authorization_url: string }).authorization_url;
    expect(url.startsWith(`${base}/sim/oidc/`)).toBe(true);
    const params = await signInAtProvider(url, `${base}/auth/callback`, {
      email: 'sam@devco.test',
    });
    const done = await fetch(`${base}/api/accounts/sso/callback/`, {
      method: 'POST',
      headers,
      body: JSON.stringify(params),
    });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(((await done.json()) as { user_type: string }).user_type).toBe('ProductUser');
  });
});
