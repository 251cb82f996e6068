import * as oidc from 'openid-client';

/**
 * The product's OpenID Connect client (relying party), through openid-client (panva): discovery,
 * the authorization URL of the code flow with PKCE (S256), state and nonce, and the code
 * exchange, which validates the ID token (signature by the provider's keys, issuer, audience,
 * nonce, expiry). Everything protocol-related is the library's; this file only chooses options
 * and sorts failures into the product's reasons.
 */

/** Where an identity provider is, and who the product is to it. */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Why talking to the provider failed: it could not be reached, or what it sent is not valid. */
export class OidcFailure extends Error {
  constructor(
    readonly kind: 'unavailable' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_SECONDS = 10;
const CACHE_MS = 10 * 60_000;
const cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

function isLocalHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** Sorts a library or network error: unreachable (fetch failed, timeout, 5xx) or invalid. */
export function classify(err: unknown): OidcFailure {
  if (err instanceof OidcFailure) return err;
  const detail =
    err instanceof oidc.ResponseBodyError ? ` (${err.error}: ${err.error_description ?? ''})` : '';
  const message = `${err instanceof Error ? err.message : String(err)}${detail}`;
  const cause = err instanceof Error ? err.cause : undefined;
  const code = err instanceof oidc.ClientError ? err.code : undefined;
  const network =
    (err instanceof TypeError && /fetch failed/i.test(message)) ||
    (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) ||
    (cause instanceof Error &&
      /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|fetch failed/i.test(cause.message)) ||
    (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && /status code/i.test(message));
  return new OidcFailure(network ? 'unavailable' : 'invalid', message);
}

async function discover(settings: OidcClientSettings): Promise<oidc.Configuration> {
  const server = new URL(settings.issuer);
  const execute = [oidc.enableNonRepudiationChecks];
  // http only for a provider on this machine (development, tests): the config's rule.
  if (isLocalHttp(server)) execute.push(oidc.allowInsecureRequests);
  try {
    return await oidc.discovery(
      server,
      settings.clientId,
      settings.clientSecret === '' ? undefined : settings.clientSecret,
      settings.clientSecret === '' ? oidc.None() : oidc.ClientSecretBasic(settings.clientSecret),
      { execute, timeout: TIMEOUT_SECONDS },
    );
  } catch (err) {
    throw classify(err);
  }
}

/** The client configuration of a provider (discovered once per ten minutes per settings). */
export function configurationOf(
  settings: OidcClientSettings,
  now = Date.now(),
): Promise<oidc.Configuration> {
  const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]);
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.config;
  const config = discover(settings);
  cache.set(key, { at: now, config });
  // A failure is not kept: the next sign-in tries again.
  config.catch(() => cache.delete(key));
  return config;
}

/** What a provider's discovery document says (the administrator's "test discovery"). */
export interface DiscoveryReport {
  issuer: string;
  authorizationEndpoint: string | null;
  tokenEndpoint: string | null;
  jwksUri: string | null;
}

/** Fetches and checks the issuer's discovery document (its `issuer` must be the one given). */
export async function testDiscovery(issuer: string): Promise<DiscoveryReport> {
  const config = await discover({ issuer, clientId: 'discovery-test', clientSecret: '' });
  const m = config.serverMetadata();
  return {
    issuer: m.issuer,
    authorizationEndpoint: m.authorization_endpoint ?? null,
    tokenEndpoint: m.token_endpoint ?? null,
    jwksUri: m.jwks_uri ?? null,
  };
}

/** A new sign-in's secrets: PKCE verifier, state's random part, nonce. */
export function newSignInSecrets() {
  return {
    codeVerifier: oidc.randomPKCECodeVerifier(),
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
  };
}

/** The provider's authorization URL: code flow, PKCE S256, state, nonce. */
export async function authorizationUrl(
  settings: OidcClientSettings,
  p: {
    redirectUri: string;
    codeVerifier: string;
    state: string;
    nonce: string;
    loginHint?: string;
  },
): Promise<string> {
  const config = await configurationOf(settings);
  const params: Record<string, string> = {
    redirect_uri: p.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(p.codeVerifier),
    code_challenge_method: 'S256',
    state: p.state,
    nonce: p.nonce,
  };
  if (p.loginHint) params.login_hint = p.loginHint;
  return oidc.buildAuthorizationUrl(config, params).href;
}

/** The ID token's claims the product uses. */
export interface SignInClaims {
  sub: string;
  email: string | null;
  emailVerified: boolean | null;
  amr: unknown;
}

/**
 * Exchanges the code at the token endpoint and validates the ID token (state, PKCE verifier and
 * nonce checked by the library, with issuer, audience, expiry and signature).
 */
export async function exchangeCode(
  settings: OidcClientSettings,
  p: {
    redirectUri: string;
    params: Record<string, string>;
    codeVerifier: string;
    state: string;
    nonce: string;
  },
): Promise<SignInClaims> {
  const config = await configurationOf(settings);
  const url = new URL(p.redirectUri);
  for (const [k, v] of Object.entries(p.params)) url.searchParams.set(k, v);
  try {
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: p.codeVerifier,
      expectedState: p.state,
      expectedNonce: p.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new OidcFailure('invalid', 'no ID token');
    return {
      sub: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : null,
      emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : null,
      amr: claims.amr,
    };
  } catch (err) {
    throw classify(err);
  }
}
