import { describe, expect, it } from 'vitest';
import {
  amrIsMultiFactor,
  emailDomain,
  isEmailDomain,
  isSsoReason,
  issuerProblem,
  SSO_DOMAIN_INVALID,
  SSO_DOMAIN_REQUIRED,
  SSO_DOMAIN_TAKEN,
  SSO_ISSUER_INVALID,
  SSO_ISSUER_LOCAL_HTTP,
  SSO_REASON_CODES,
  SSO_REASON_DEFAULT,
  SSO_REASONS,
  ssoConfigIn,
  ssoReasonText,
} from './sso.js';

describe('organisation sign-in reasons', () => {
  it('has one sentence per reason, the default for anything else', () => {
    expect(SSO_REASON_CODES).toContain('unknown_user');
    expect(ssoReasonText('deactivated_user')).toBe(SSO_REASONS.deactivated_user);
    expect(ssoReasonText('toString')).toBe(SSO_REASON_DEFAULT);
    expect(ssoReasonText(null)).toBe(SSO_REASON_DEFAULT);
    expect(ssoReasonText(undefined)).toBe(SSO_REASON_DEFAULT);
    expect(isSsoReason('invalid_state')).toBe(true);
    expect(isSsoReason('nope')).toBe(false);
    for (const code of SSO_REASON_CODES) expect(ssoReasonText(code)).toMatch(/\.$/);
  });
});

describe('email domains', () => {
  it('reads the domain of an email, lower case', () => {
    expect(emailDomain('Ann.Lee@Example.CO.UK')).toBe('example.co.uk');
    expect(emailDomain('a@b@corp.test')).toBe('corp.test');
    expect(emailDomain('no-at-sign')).toBe('');
  });
  it('knows a well-formed domain', () => {
    for (const d of ['example.com', 'corp.test', 'a-b.example.co.uk', 'x1.io'])
      expect(isEmailDomain(d)).toBe(true);
    for (const d of [
      'localhost',
      'example',
      '-a.com',
      'a-.com',
      'a..com',
      'exa mple.com',
      '@a.com',
      'a.c',
    ])
      expect(isEmailDomain(d)).toBe(false);
  });
});

describe('issuer', () => {
  it('takes https', () => {
    expect(issuerProblem('https://login.microsoftonline.com/abc/v2.0', false)).toBeNull();
    expect(issuerProblem('https://accounts.google.com', false)).toBeNull();
  });
  it('takes http only for localhost, and only while developing or testing', () => {
    expect(issuerProblem('http://localhost:4000/oidc', true)).toBeNull();
    expect(issuerProblem('http://127.0.0.1:4000', true)).toBeNull();
    expect(issuerProblem('http://localhost:4000', false)).toBe(SSO_ISSUER_LOCAL_HTTP);
    expect(issuerProblem('http://idp.example.com', true)).toBe(SSO_ISSUER_INVALID);
  });
  it('refuses what is not an issuer', () => {
    for (const u of [
      'not a url',
      'ftp://idp.example.com',
      'https://idp.example.com/?x=1',
      'https://idp.example.com/#a',
      'https://u:p@idp.example.com',
    ])
      expect(issuerProblem(u, true)).toBe(SSO_ISSUER_INVALID);
  });
});

describe('multi-factor amr', () => {
  it('knows when the provider did more than a password', () => {
    expect(amrIsMultiFactor(['pwd', 'mfa'])).toBe(true);
    expect(amrIsMultiFactor(['otp'])).toBe(true);
    expect(amrIsMultiFactor(['hwk'])).toBe(true);
    expect(amrIsMultiFactor(['pwd'])).toBe(false);
    expect(amrIsMultiFactor([])).toBe(false);
    expect(amrIsMultiFactor(undefined)).toBe(false);
    expect(amrIsMultiFactor('mfa')).toBe(false);
    expect(amrIsMultiFactor([1, null])).toBe(false);
  });
});

describe('configuration form', () => {
  const base = {
    issuer: ' https://idp.example.com ',
    client_id: 'kestrel',
    allowed_domains: [' Example.COM '],
    password_allowed: true,
    enabled: true,
  };
  it('trims and lower-cases', () => {
    const v = ssoConfigIn.parse(base);
    expect(v.issuer).toBe('https://idp.example.com');
    expect(v.allowed_domains).toEqual(['example.com']);
    expect(v.client_secret).toBeUndefined();
  });
  it('needs at least one well-formed domain', () => {
    const none = ssoConfigIn.safeParse({ ...base, allowed_domains: [] });
    expect(none.success).toBe(false);
    expect(none.error?.issues.map((i) => i.message)).toEqual([SSO_DOMAIN_REQUIRED]);
    const bad = ssoConfigIn.safeParse({ ...base, allowed_domains: ['example.com', 'bad domain'] });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([SSO_DOMAIN_INVALID('bad domain')]);
    expect(SSO_DOMAIN_TAKEN('example.com')).toContain('"example.com"');
  });
});
