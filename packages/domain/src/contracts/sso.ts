import { z } from 'zod';
import { nullableTimestampOut } from './common.js';
import { userTypeOut } from './session.js';

/**
 * Sign-in through the organisation's identity provider (OpenID Connect, issue 30): a customer's
 * configuration (GET/PUT /api/sso-config/), the start of a sign-in
 * (POST /api/accounts/sso/start/) and its callback (POST /api/accounts/sso/callback/).
 */

/** Why an organisation sign-in failed: `/auth/social-error?reason=<code>`, one sentence each. */
export const SSO_REASONS = {
  invalid_state: 'This sign-in has expired or was already used. Start again from the sign-in page.',
  provider_error:
    "Your organisation's sign-in service did not sign you in. Try again, or ask your administrator.",
  token_invalid:
    "Your organisation's sign-in could not be verified. Try again; if it keeps happening, ask your administrator.",
  no_email:
    "Your organisation's sign-in did not tell us a verified email address. Ask your administrator.",
  unknown_user:
    'There is no account for this email address in your organisation. Ask your administrator to invite you.',
  deactivated_user: 'Your account has been deactivated. Ask your administrator.',
  other_organisation:
    'This email address belongs to an account of another organisation. Sign in with your password.',
  not_configured:
    'Sign-in through your organisation is not switched on for your organisation. Sign in with your password.',
  unavailable:
    "Your organisation's sign-in service could not be reached. Try again in a few minutes.",
} as const;
export type SsoReason = keyof typeof SSO_REASONS;
export const SSO_REASON_CODES = Object.keys(SSO_REASONS) as SsoReason[];

/** The sentence shown when the reason is missing or unknown. */
export const SSO_REASON_DEFAULT =
  'Sign-in through your organisation did not work. Start again from the sign-in page.';

export function isSsoReason(code: string | null | undefined): code is SsoReason {
  return typeof code === 'string' && Object.hasOwn(SSO_REASONS, code);
}

/** The sentence of a failure's reason code (the default for anything else). */
export function ssoReasonText(code: string | null | undefined): string {
  return isSsoReason(code) ? SSO_REASONS[code] : SSO_REASON_DEFAULT;
}

/** Password sign-in refused for a domain whose organisation signs its staff in itself. */
export const SSO_PASSWORD_NOT_ALLOWED =
  'Your organisation signs you in through its own sign-in service. Use "Sign in with your organisation".';
/** No enabled configuration covers the email's domain (POST /api/accounts/sso/start/). */
export const SSO_NOT_SET_UP =
  'Sign-in through an organisation is not set up for this email address.';
export const SSO_ISSUER_INVALID = 'Enter the issuer as a web address starting with https://.';
export const SSO_ISSUER_LOCAL_HTTP =
  'Use https:// (http:// is allowed only for localhost while developing or testing).';
export const SSO_DOMAIN_INVALID = (d: string) => `"${d}" is not a valid email domain.`;
export const SSO_DOMAIN_REQUIRED = 'Enter at least one email domain.';
export const SSO_DOMAIN_TAKEN = (d: string) =>
  `The domain "${d}" is already used by another organisation's sign-in.`;
export const SSO_SECRET_REQUIRED = 'Enter the client secret.';

/** The domain of an email address, lower case ('' when it has none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** True for a well-formed email domain (lower case, at least two labels). */
export function isEmailDomain(domain: string): boolean {
  return DOMAIN.test(domain);
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * What is wrong with an issuer URL, or null: https, or http for localhost only when
 * `allowLocalHttp` (development and tests); no query or fragment.
 */
export function issuerProblem(issuer: string, allowLocalHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return SSO_ISSUER_INVALID;
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return SSO_ISSUER_INVALID;
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)) {
    return allowLocalHttp ? null : SSO_ISSUER_LOCAL_HTTP;
  }
  return SSO_ISSUER_INVALID;
}

/**
 * Authentication methods (RFC 8176 `amr`) that mean the provider did more than a password: the
 * product then does not ask for its own TOTP code.
 */
export const MULTI_FACTOR_AMR = [
  'mfa',
  'mca',
  'otp',
  'hwk',
  'sc',
  'sms',
  'tel',
  'fpt',
  'face',
  'iris',
  'retina',
] as const;

/** True when an ID token's `amr` claim says the provider did multi-factor authentication. */
export function amrIsMultiFactor(amr: unknown): boolean {
  return (
    Array.isArray(amr) &&
    amr.some((m) => typeof m === 'string' && (MULTI_FACTOR_AMR as readonly string[]).includes(m))
  );
}

/** The administrator's form (PUT /api/sso-config/). An empty secret keeps the stored one. */
export const ssoConfigIn = z
  .object({
    issuer: z.string().trim().min(1, 'Required').max(500),
    client_id: z.string().trim().min(1, 'Required').max(255),
    client_secret: z.string().trim().max(1000).optional(),
    allowed_domains: z.array(z.string().trim().toLowerCase().max(253)).max(50),
    password_allowed: z.boolean(),
    enabled: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.allowed_domains.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['allowed_domains'], message: SSO_DOMAIN_REQUIRED });
    }
    for (const d of v.allowed_domains) {
      if (!isEmailDomain(d)) {
        ctx.addIssue({ code: 'custom', path: ['allowed_domains'], message: SSO_DOMAIN_INVALID(d) });
      }
    }
  });
export type SsoConfigIn = z.infer<typeof ssoConfigIn>;

/** GET/PUT /api/sso-config/: the secret is never answered, only whether one is stored. */
export const ssoConfigOut = z.strictObject({
  configured: z.boolean(),
  issuer: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  allowed_domains: z.array(z.string()),
  password_allowed: z.boolean(),
  enabled: z.boolean(),
  updated_at: nullableTimestampOut,
  updated_by: z.string(),
});
export type SsoConfigOut = z.infer<typeof ssoConfigOut>;

/** POST /api/sso-config/test-discovery/: the issuer typed (else the stored one). */
export const ssoDiscoveryIn = z.object({ issuer: z.string().trim().max(500).optional() });

/** The discovery test's report: ok, or what went wrong, in one sentence. */
export const ssoDiscoveryOut = z.strictObject({
  ok: z.boolean(),
  detail: z.string(),
  issuer: z.string().nullable(),
  authorization_endpoint: z.string().nullable(),
  token_endpoint: z.string().nullable(),
  jwks_uri: z.string().nullable(),
});
export type SsoDiscoveryOut = z.infer<typeof ssoDiscoveryOut>;

/** POST /api/accounts/sso/start/. */
export const ssoStartIn = z.object({
  email: z.string().trim().min(1, 'Required').max(254),
  /** Where to go once signed in (a path of this site). */
  next: z.string().max(2000).optional(),
});
export const ssoStartOut = z.strictObject({ authorization_url: z.string() });
export type SsoStartOut = z.infer<typeof ssoStartOut>;

/**
 * POST /api/accounts/sso/callback/: what the provider sent back to /auth/callback (code and
 * state, or error), and the TOTP code when the server asked for it (400 'MFA token required').
 */
export const ssoCallbackIn = z.object({
  state: z.string().min(1, 'Required').max(500),
  code: z.string().max(4000).optional(),
  /** The provider's issuer, when it names itself in the response (RFC 9207). */
  iss: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  totp: z.string().trim().max(10).optional(),
});
export type SsoCallbackIn = z.infer<typeof ssoCallbackIn>;

/** Signed in: as the password login's answer, with where to go next. */
export const ssoCallbackOut = z.strictObject({
  csrf_token: z.string(),
  user_type: userTypeOut,
  next: z.string().nullable(),
});
export type SsoCallbackOut = z.infer<typeof ssoCallbackOut>;
