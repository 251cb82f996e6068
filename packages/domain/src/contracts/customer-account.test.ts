import { describe, expect, it } from 'vitest';
import {
  consentListFilters,
  customerAccountUpdate,
  ENTITLEMENT_LABELS,
  staffConsentOut,
} from './customer-account.js';

describe('customerAccountUpdate', () => {
  it('takes any of the details and the policy, trimmed, the postcode upper-cased', () => {
    const v = customerAccountUpdate.parse({
      name: '  Acme  ',
      postcode: 'sw1a 1aa',
      contact_email: '',
      require_totp: true,
    });
    expect(v).toEqual({
      name: 'Acme',
      postcode: 'SW1A 1AA',
      contact_email: '',
      require_totp: true,
    });
  });

  it('refuses a blank name, a bad email, a bad postcode and unknown fields', () => {
    const r = customerAccountUpdate.safeParse({
      name: ' ',
      contact_email: 'nope',
      postcode: 'XX',
      demo_mode: true,
    });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join('.') || i.code) ?? [];
    expect(paths).toEqual(expect.arrayContaining(['name', 'contact_email', 'postcode']));
    expect(r.error?.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true);
  });
});

describe('consents of subjects', () => {
  it('filters by kind and state', () => {
    expect(consentListFilters.parse({ kind: 'driver-data', state: 'given' })).toEqual({
      kind: 'driver-data',
      state: 'given',
    });
    expect(consentListFilters.safeParse({ state: 'active' }).success).toBe(false);
  });

  it('labels every entitlement and shapes a consent', () => {
    expect(Object.values(ENTITLEMENT_LABELS)).toHaveLength(3);
    expect(
      staffConsentOut.safeParse({
        id: 1,
        subject: { id: 2, name: 'A B' },
        case: 3,
        case_activity: 4,
        activity_type_name: 'DBS basic',
        kind: 'dbs-application',
        kind_display: 'x',
        given_at: '2026-01-01T00:00:00.000Z',
        expires_at: null,
        withdrawn_at: null,
        status: 'active',
      }).success,
    ).toBe(true);
  });
});
