import {
  amrIsMultiFactor,
  emailDomain,
  isEmailDomain,
  issuerProblem,
  SSO_DOMAIN_TAKEN,
  SSO_NOT_SET_UP,
  SSO_PASSWORD_NOT_ALLOWED,
  SSO_REASONS,
  SSO_SECRET_REQUIRED,
  type SsoCallbackIn,
  type SsoConfigIn,
  type SsoConfigOut,
  type SsoDiscoveryOut,
  type SsoReason,
} from '@kestrel/domain';
import { and, eq, gt, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import { diffChanges, recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { AppError, NotAuthenticatedError, ValidationError } from '../../platform/errors.js';
import { seal, unseal } from '../../platform/sealed-secrets.js';
import { readOnly, runInTenant, SYSTEM_TX } from '../../platform/service-context.js';
import { hashToken } from '../../platform/tokens.js';
import { checkTotp } from '../../platform/totp.js';
import {
  authorizationUrl,
  exchangeCode,
  newSignInSecrets,
  type OidcClientSettings,
  OidcFailure,
  testDiscovery,
} from '../../providers/oidc/client.js';
import { acceptTotpStep, INVALID_LOGIN, MFA_REQUIRED } from '../accounts/accounts.service.js';
import { productUsers } from '../users/users.table.js';
import { customerSsoConfigs, ssoLoginStates } from './sso.table.js';

export const SSO_CONTENT_TYPE = 'sso.customerssoconfig';
/** How long a started sign-in may take at the provider. */
export const SSO_STATE_TTL_MS = 10 * 60_000;
/** How long the product's TOTP code is awaited once the provider signed the person in. */
export const SSO_TOTP_TTL_MS = 5 * 60_000;

type ConfigRow = typeof customerSsoConfigs.$inferSelect;

/** http issuers on localhost are allowed except in production (development and tests). */
export function allowLocalHttp(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV !== 'production';
}

/** A failed organisation sign-in: 400 `{reason: [code], non_field_errors: [sentence]}`. */
export class SsoFailure extends AppError {
  constructor(readonly reason: SsoReason) {
    super(400, { reason: [reason], non_field_errors: [SSO_REASONS[reason]] });
  }
}

function present(row: ConfigRow | null): SsoConfigOut {
  return {
    configured: row !== null,
    issuer: row?.issuer ?? '',
    client_id: row?.clientId ?? '',
    client_secret_set: (row?.clientSecret ?? '') !== '',
    allowed_domains: row?.allowedDomains ?? [],
    password_allowed: row?.passwordAllowed ?? true,
    enabled: row?.enabled ?? false,
    updated_at: row ? row.updatedAt.toISOString() : null,
    updated_by: row?.updatedByName ?? '',
  };
}

async function ownConfig(tx: Tx): Promise<ConfigRow | null> {
  const [row] = await tx.select().from(customerSsoConfigs).limit(1);
  return row ?? null;
}

/** GET /api/sso-config/: the actor's organisation's configuration (never its secret). */
export function getSsoConfig(deps: AppDeps, actor: Actor): Promise<SsoConfigOut> {
  return runInTenant(deps, actor, async ({ tx }) => present(await ownConfig(tx)), readOnly);
}

/** PUT /api/sso-config/: validated (issuer, domains not another organisation's), audited. */
export async function putSsoConfig(
  deps: AppDeps,
  actor: Actor,
  input: SsoConfigIn,
): Promise<SsoConfigOut> {
  const customerId = actor.customerId;
  if (customerId === null) throw new ValidationError({ non_field_errors: ['No organisation.'] });
  const fields: Record<string, string[]> = {};
  const issuer = issuerProblem(input.issuer, allowLocalHttp());
  if (issuer) fields.issuer = [issuer];
  // A domain signs in through one organisation only: another's configuration may not claim it.
  const taken = await deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, (tx) =>
    tx
      .select({ domains: customerSsoConfigs.allowedDomains })
      .from(customerSsoConfigs)
      .where(
        and(
          ne(customerSsoConfigs.customerId, customerId),
          sql`${customerSsoConfigs.allowedDomains} && ${sql.param(input.allowed_domains)}::text[]`,
        ),
      ),
  );
  const takenDomains = new Set(taken.flatMap((r) => r.domains));
  const clash = input.allowed_domains.filter((d) => takenDomains.has(d));
  if (clash.length > 0) fields.allowed_domains = clash.map(SSO_DOMAIN_TAKEN);
  return runInTenant(deps, actor, async ({ tx, clock }) => {
    const before = await ownConfig(tx);
    const secret = input.client_secret ?? '';
    if (input.enabled && secret === '' && (before?.clientSecret ?? '') === '') {
      fields.client_secret = [SSO_SECRET_REQUIRED];
    }
    if (Object.keys(fields).length > 0) throw new ValidationError(fields);
    const values = {
      issuer: input.issuer,
      clientId: input.client_id,
      allowedDomains: input.allowed_domains,
      passwordAllowed: input.password_allowed,
      enabled: input.enabled,
      updatedAt: clock.now(),
      updatedByName: actor.name.slice(0, 200),
      ...(secret !== '' ? { clientSecret: seal(deps.secrets, 'sso_client_secret', secret) } : {}),
    };
    const [row] = before
      ? await tx
          .update(customerSsoConfigs)
          .set(values)
          .where(eq(customerSsoConfigs.id, before.id))
          .returning()
      : await tx
          .insert(customerSsoConfigs)
          .values({ customerId, ...values })
          .returning();
    if (!row) throw new Error('sso config write returned nothing');
    const out = present(row);
    const view = (o: SsoConfigOut) => {
      const { updated_at: _u, updated_by: _b, configured: _c, ...rest } = o;
      return rest;
    };
    const changes: Record<string, unknown> = diffChanges(
      before ? view(present(before)) : {},
      view(out),
    );
    // the secret itself never reaches the audit: only that it was replaced
    if (secret !== '' && before) changes.client_secret = ['(replaced)', '(replaced)'];
    await recordAudit(tx, actor, {
      verb: before ? 'updated' : 'created',
      contentType: SSO_CONTENT_TYPE,
      objectId: row.id,
      objectRepr: `Organisation sign-in (${row.issuer})`,
      changes,
    });
    return out;
  });
}

/** POST /api/sso-config/test-discovery/: fetches the issuer's discovery document. */
export async function runDiscoveryTest(
  deps: AppDeps,
  actor: Actor,
  typed: string | undefined,
): Promise<SsoDiscoveryOut> {
  const issuer =
    typed && typed !== ''
      ? typed
      : ((await runInTenant(deps, actor, ({ tx }) => ownConfig(tx), readOnly))?.issuer ?? '');
  if (issuer === '') throw ValidationError.of('issuer', 'Required');
  const problem = issuerProblem(issuer, allowLocalHttp());
  if (problem) throw ValidationError.of('issuer', problem);
  const empty = {
    issuer: null,
    authorization_endpoint: null,
    token_endpoint: null,
    jwks_uri: null,
  };
  try {
    const r = await testDiscovery(issuer);
    return {
      ok: true,
      detail: `The identity provider at ${r.issuer} answered its discovery document: its sign-in page, token endpoint and signing keys are known.`,
      issuer: r.issuer,
      authorization_endpoint: r.authorizationEndpoint,
      token_endpoint: r.tokenEndpoint,
      jwks_uri: r.jwksUri,
    };
  } catch (err) {
    const f = err instanceof OidcFailure ? err : new OidcFailure('invalid', String(err));
    return {
      ok: false,
      detail:
        f.kind === 'unavailable'
          ? `The identity provider could not be reached at ${issuer}. Check the address, and that it is reachable from the internet.`
          : `${issuer} did not answer a valid OpenID Connect discovery document (${f.message.slice(0, 200)}). Check the issuer address: it must be exactly the provider's issuer.`,
      ...empty,
    };
  }
}

/** The enabled configuration covering an email's domain (the system's view), or null. */
export async function configForEmail(tx: Tx, email: string): Promise<ConfigRow | null> {
  const domain = emailDomain(email);
  if (!isEmailDomain(domain)) return null;
  const [row] = await tx
    .select()
    .from(customerSsoConfigs)
    .where(
      and(
        eq(customerSsoConfigs.enabled, true),
        sql`${domain} = any(${customerSsoConfigs.allowedDomains})`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Password sign-in refused for the typed login's domain, or for the found account's email
 * domain, when its organisation's sign-in is on and does not allow passwords. Called by the
 * password login (accounts) before the password is checked.
 */
export async function passwordSignInRefused(
  deps: Pick<AppDeps, 'db'>,
  username: string,
): Promise<string | null> {
  return deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, async (tx) => {
    const name = username.trim().toLowerCase();
    const [user] = await tx
      .select({ email: productUsers.email, customerId: productUsers.customerId })
      .from(productUsers)
      .where(sql`lower(${productUsers.username}) = ${name}`)
      .limit(1);
    for (const email of [name, user?.email ?? '']) {
      const config = await configForEmail(tx, email);
      if (!config || config.passwordAllowed) continue;
      // Only that organisation's staff (an ops login or another customer's is not theirs).
      if (!user || user.customerId === config.customerId) return SSO_PASSWORD_NOT_ALLOWED;
    }
    return null;
  });
}

/** The client settings, with the client secret unsealed (it is stored sealed). */
function settingsOf(deps: Pick<AppDeps, 'secrets'>, c: ConfigRow): OidcClientSettings {
  return {
    issuer: c.issuer,
    clientId: c.clientId,
    clientSecret: unseal(deps.secrets, 'sso_client_secret', c.clientSecret),
  };
}

/** The state sent to the provider: the customer id, a dot, then the random part. */
function parseState(state: string): { customerId: number; hash: string } | null {
  const m = /^(\d{1,10})\.([A-Za-z0-9_-]{16,200})$/.exec(state);
  if (!m) return null;
  const customerId = Number(m[1]);
  if (!Number.isSafeInteger(customerId) || customerId <= 0 || customerId > 2_147_483_647) {
    return null;
  }
  return { customerId, hash: hashToken(state) };
}

/**
 * POST /api/accounts/sso/start/: the provider's authorization URL for the email's organisation
 * (code flow, PKCE S256, state and nonce kept here, single use, ten minutes).
 */
export async function startSignIn(
  deps: AppDeps,
  input: { email: string; next?: string | undefined; redirectUri: string; browser: string },
): Promise<string> {
  const config = await deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, (tx) =>
    configForEmail(tx, input.email),
  );
  if (!config) throw ValidationError.of('email', SSO_NOT_SET_UP);
  const secrets = newSignInSecrets();
  const state = `${config.customerId}.${secrets.state}`;
  let url: string;
  try {
    url = await authorizationUrl(settingsOf(deps, config), {
      redirectUri: input.redirectUri,
      codeVerifier: secrets.codeVerifier,
      state,
      nonce: secrets.nonce,
      loginHint: input.email.trim().toLowerCase(),
    });
  } catch {
    throw new SsoFailure('unavailable');
  }
  const now = deps.clock.now();
  const next = input.next && /^\/(?!\/)/.test(input.next) ? input.next : null;
  await deps.db.transaction(SYSTEM_TX, async (tx) => {
    // the customer's finished or expired sign-ins are not kept
    await tx
      .delete(ssoLoginStates)
      .where(
        and(
          eq(ssoLoginStates.customerId, config.customerId),
          lt(ssoLoginStates.expiresAt, new Date(now.getTime() - SSO_STATE_TTL_MS)),
        ),
      );
    await tx.insert(ssoLoginStates).values({
      customerId: config.customerId,
      stateHash: hashToken(state),
      browserHash: hashToken(input.browser),
      codeVerifier: secrets.codeVerifier,
      nonce: secrets.nonce,
      redirectUri: input.redirectUri,
      nextPath: next,
      expiresAt: new Date(now.getTime() + SSO_STATE_TTL_MS),
    });
  });
  return url;
}

/** Who signed in, for the session the password login also creates. */
export interface SsoSignedIn {
  userId: number;
  customerId: number;
  name: string;
  next: string | null;
}

async function auditFailure(
  deps: Pick<AppDeps, 'db'>,
  actor: Actor,
  customerId: number | null,
  reason: SsoReason,
  who: string,
) {
  await deps.db.transaction(SYSTEM_TX, (tx) =>
    recordAudit(tx, actor, {
      verb: 'login_failed',
      contentType: SSO_CONTENT_TYPE,
      objectRepr: `Organisation sign-in refused (${reason})${who ? `: ${who}` : ''}`,
      customerId,
    }),
  );
}

/**
 * POST /api/accounts/sso/callback/: checks the state (known, this browser's, unexpired, unused),
 * exchanges the code and validates the ID token, then matches a product user of the state's
 * customer by email. A user with TOTP on is asked for the code (400 'MFA token required') unless
 * the provider did multi-factor (`amr`); the state then waits five minutes for it. Every outcome
 * is audited. Failures are SsoFailure (400 with the reason).
 */
export async function finishSignIn(
  deps: AppDeps,
  actor: Actor,
  input: SsoCallbackIn & { browser: string },
): Promise<SsoSignedIn> {
  const parsed = parseState(input.state);
  const now = deps.clock.now();
  const fail = async (reason: SsoReason, customerId: number | null, who = ''): Promise<never> => {
    await auditFailure(deps, actor, customerId, reason, who);
    throw new SsoFailure(reason);
  };
  if (!parsed) return fail('invalid_state', null);
  const live = and(
    eq(ssoLoginStates.customerId, parsed.customerId),
    eq(ssoLoginStates.stateHash, parsed.hash),
    eq(ssoLoginStates.browserHash, hashToken(input.browser)),
    isNull(ssoLoginStates.usedAt),
    gt(ssoLoginStates.expiresAt, now),
  );

  // Second step: the provider's sign-in is done, the product's TOTP code is given.
  if (input.totp !== undefined && input.totp !== '') {
    const [waiting] = await deps.db.transaction(SYSTEM_TX, (tx) =>
      tx
        .select()
        .from(ssoLoginStates)
        .where(and(live, isNotNull(ssoLoginStates.userId))),
    );
    if (!waiting?.userId) return fail('invalid_state', parsed.customerId);
    const userId = waiting.userId;
    const [user] = await deps.db.transaction(SYSTEM_TX, (tx) =>
      tx.select().from(productUsers).where(eq(productUsers.id, userId)),
    );
    if (!user?.isActive || !user.totpSecret) return fail('deactivated_user', parsed.customerId);
    const step = await checkTotp(unseal(deps.secrets, 'totp', user.totpSecret), input.totp, now);
    const accepted = step !== null && (await acceptTotpStep(deps, user.id, step));
    if (!accepted) {
      await deps.db.transaction(SYSTEM_TX, (tx) =>
        recordAudit(
          tx,
          { ...actor, type: 'ProductUser', id: user.id, customerId: parsed.customerId },
          {
            verb: step === null ? 'totp_failed' : 'totp_replayed',
            objectRepr: user.username.slice(0, 200),
            customerId: parsed.customerId,
          },
        ),
      );
      throw new NotAuthenticatedError(INVALID_LOGIN);
    }
    const [spent] = await deps.db.transaction(SYSTEM_TX, (tx) =>
      tx
        .update(ssoLoginStates)
        .set({ usedAt: now })
        .where(and(live, eq(ssoLoginStates.userId, user.id)))
        .returning({ next: ssoLoginStates.nextPath }),
    );
    if (!spent) return fail('invalid_state', parsed.customerId);
    return {
      userId: user.id,
      customerId: parsed.customerId,
      name: user.username,
      next: spent.next,
    };
  }

  // First step: the state is spent at once (single use), whatever follows.
  const [state] = await deps.db.transaction(SYSTEM_TX, (tx) =>
    tx
      .update(ssoLoginStates)
      .set({ usedAt: now })
      .where(and(live, isNull(ssoLoginStates.userId)))
      .returning(),
  );
  if (!state) return fail('invalid_state', parsed.customerId);
  if (input.error !== undefined) {
    return fail('provider_error', state.customerId, input.error.slice(0, 60));
  }
  if (!input.code) return fail('invalid_state', state.customerId);
  const config = await deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, async (tx) => {
    const [row] = await tx
      .select()
      .from(customerSsoConfigs)
      .where(eq(customerSsoConfigs.customerId, state.customerId));
    return row ?? null;
  });
  if (!config?.enabled) return fail('not_configured', state.customerId);

  const params: Record<string, string> = { code: input.code, state: input.state };
  if (input.iss !== undefined) params.iss = input.iss;
  let claims: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    claims = await exchangeCode(settingsOf(deps, config), {
      redirectUri: state.redirectUri,
      params,
      codeVerifier: state.codeVerifier,
      state: input.state,
      nonce: state.nonce,
    });
  } catch (err) {
    const kind = err instanceof OidcFailure ? err.kind : 'invalid';
    return fail(kind === 'unavailable' ? 'unavailable' : 'token_invalid', state.customerId);
  }
  const email = claims.email?.trim().toLowerCase() ?? '';
  if (email === '' || claims.emailVerified === false) {
    return fail('no_email', state.customerId, claims.sub.slice(0, 100));
  }
  if (!config.allowedDomains.includes(emailDomain(email))) {
    return fail('unknown_user', state.customerId, email);
  }
  const matches = await deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, (tx) =>
    tx.select().from(productUsers).where(sql`lower(${productUsers.email}) = ${email}`),
  );
  const user = matches.find((u) => u.customerId === state.customerId);
  if (!user) {
    return fail(
      matches.length > 0 ? 'other_organisation' : 'unknown_user',
      state.customerId,
      email,
    );
  }
  if (!user.isActive) return fail('deactivated_user', state.customerId, email);
  // An invited user who has not chosen a password yet claims the account here: their
  // organisation's provider has verified the email the administrator invited (their status is
  // active from this sign-in on; the invitation's link stays, to choose a password too).
  if (user.totpEnabled && user.totpSecret && !amrIsMultiFactor(claims.amr)) {
    // The provider signed them in with a password only: the product's own code is asked.
    await deps.db.transaction(SYSTEM_TX, (tx) =>
      tx
        .update(ssoLoginStates)
        .set({
          usedAt: null,
          userId: user.id,
          expiresAt: new Date(now.getTime() + SSO_TOTP_TTL_MS),
        })
        .where(
          and(eq(ssoLoginStates.customerId, state.customerId), eq(ssoLoginStates.id, state.id)),
        ),
    );
    throw ValidationError.of('totp', MFA_REQUIRED);
  }
  return {
    userId: user.id,
    customerId: state.customerId,
    name: user.username,
    next: state.nextPath,
  };
}

/** The audit of a successful organisation sign-in, in the session's transaction. */
export function auditSsoLogin(actor: Actor, who: SsoSignedIn): (tx: Tx) => Promise<unknown> {
  return async (tx) => {
    const [person] = await tx
      .select({
        name: sql<string>`trim(${productUsers.firstName} || ' ' || ${productUsers.lastName})`,
      })
      .from(productUsers)
      .where(eq(productUsers.id, who.userId));
    return recordAudit(
      tx,
      {
        ...actor,
        type: 'ProductUser',
        id: who.userId,
        customerId: who.customerId,
        name: person?.name || who.name,
      },
      {
        verb: 'logged_in',
        contentType: 'users.productuser',
        objectId: who.userId,
        objectRepr: 'Signed in through the organisation (OpenID Connect)',
        customerId: who.customerId,
      },
    );
  };
}
