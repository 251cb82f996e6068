import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationUrl,
  exchangeCode,
  newSignInSecrets,
  OidcFailure,
  testDiscovery,
} from './client.js';
import { type RunningDevProvider, signInAtProvider, startDevProvider } from './test-driver.js';

const REDIRECT = 'http://localhost:9/auth/callback';

describe('the development identity provider and the client (real OpenID Connect)', () => {
  let idp: RunningDevProvider;
  beforeAll(async () => {
    idp = await startDevProvider({
      clients: [{ clientId: 'kestrel', clientSecret: 'dev-secret-1234', redirectUris: [REDIRECT] }],
    });
  });
  afterAll(() => idp.close());
  const settings = () => ({
    issuer: idp.issuer,
    clientId: 'kestrel',
    clientSecret: 'dev-secret-1234',
  });

  it('answers its discovery document', async () => {
    const report = await testDiscovery(idp.issuer);
    expect(report.issuer).toBe(idp.issuer);
    expect(report.authorizationEndpoint).toMatch(/\/auth$/);
  });

  it('signs in with code, PKCE, state and nonce; the ID token carries email and amr', async () => {
    for (const mfa of [false, true]) {
      const s = newSignInSecrets();
      const url = await authorizationUrl(settings(), {
        redirectUri: REDIRECT,
        ...s,
        loginHint: 'ann@corp.test',
      });
      expect(url).toContain('code_challenge_method=S256');
      const params = await signInAtProvider(url, REDIRECT, { email: 'Ann@Corp.test', mfa });
      expect(params.state).toBe(s.state);
      const claims = await exchangeCode(settings(), { redirectUri: REDIRECT, params, ...s });
      expect(claims.email).toBe('ann@corp.test');
      expect(claims.emailVerified).toBe(true);
      expect(claims.amr).toEqual(mfa ? ['pwd', 'mfa'] : ['pwd']);
    }
  });

  it('refuses a wrong nonce and a reused code', async () => {
    const s = newSignInSecrets();
    const url = await authorizationUrl(settings(), { redirectUri: REDIRECT, ...s });
    const params = await signInAtProvider(url, REDIRECT, { email: 'bob@corp.test' });
    const wrong = exchangeCode(settings(), { redirectUri: REDIRECT, params, ...s, nonce: 'other' });
    await expect(wrong).rejects.toBeInstanceOf(OidcFailure);
    await expect(wrong).rejects.toMatchObject({ kind: 'invalid' });
    // the code was spent by the first exchange
    await expect(
      exchangeCode(settings(), { redirectUri: REDIRECT, params, ...s }),
    ).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('says unreachable when nobody answers', async () => {
    await expect(testDiscovery('http://127.0.0.1:9')).rejects.toMatchObject({
      kind: 'unavailable',
    });
  });
});
