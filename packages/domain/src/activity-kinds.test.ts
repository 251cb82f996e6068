import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_KIND_CODES,
  ACTIVITY_KINDS,
  consentKindOf,
  guidanceLink,
  hasResultAudience,
  isActivityKindCode,
  PORTAL_ACTIVITY_SECTIONS,
  TOP_UP_KINDS,
} from './activity-kinds.js';
import { CONSENT_KINDS } from './contracts/portal.js';
import { activityAskingConsent, CONSENT_SECTION, requiredConsents } from './portal.js';

describe('activity kinds', () => {
  it('registers the fourteen kinds of check', () => {
    expect(ACTIVITY_KIND_CODES).toEqual([
      'address-history',
      'basic-details',
      'document-collection',
      'dbs-basic',
      'dbs-standard',
      'dbs-enhanced',
      'dbs-update',
      'knowledge-test',
      'trust-to-ride',
      'licence-check',
      'online-idv',
      'driver-data',
      'adult-first',
      'rtw',
    ]);
  });

  it('maps each portal section to exactly one kind', () => {
    const sections = Object.values(ACTIVITY_KINDS)
      .map((k) => k.portalSection)
      .filter((s) => s !== null);
    expect([...sections].sort()).toEqual([...PORTAL_ACTIVITY_SECTIONS].sort());
  });

  it('shows criminal-record results in the DBS panel', () => {
    expect(ACTIVITY_KINDS['dbs-enhanced'].resultPanel).toBe('dbs-result');
    expect(ACTIVITY_KINDS['knowledge-test'].portalSection).toBeNull();
  });

  it('recognises codes', () => {
    expect(isActivityKindCode('rtw')).toBe(true);
    expect(isActivityKindCode('toString')).toBe(false);
  });

  it.each([
    ['dbs-basic', 'Basic check ID checking guidelines'],
    ['dbs-enhanced', 'ID checking guidelines'],
    ['rtw', 'ID checking guidelines'],
  ])('guidance for %s', (code, label) => {
    expect(guidanceLink(code).label).toBe(label);
  });
});

describe('activity kind entries', () => {
  it('carry their own code', () => {
    for (const [code, kind] of Object.entries(ACTIVITY_KINDS)) expect(kind.code).toBe(code);
  });
});

describe('what the registry carries for the portal and the panels', () => {
  it('says which consent each kind asks for (a licence check asks for the DVLA mandate)', () => {
    expect(consentKindOf('dbs-basic')).toBe('dbs-application');
    expect(consentKindOf('dbs-enhanced')).toBe('dbs-application');
    expect(consentKindOf('dbs-update')).toBe('dbs-update');
    expect(consentKindOf('driver-data')).toBe('driver-data');
    expect(consentKindOf('licence-check')).toBe('driver-data');
    expect(consentKindOf('rtw')).toBeNull();
    expect(consentKindOf('nonsense')).toBeNull();
    // every consent kind is asked for by some kind, and has its place in the portal
    const asked = new Set(Object.values(ACTIVITY_KINDS).map((k) => k.consent));
    for (const kind of CONSENT_KINDS) {
      expect(asked.has(kind), kind).toBe(true);
      expect(Object.hasOwn(CONSENT_SECTION, kind)).toBe(true);
    }
  });

  it('derives the consents the portal asks in a section of their own (required_consents)', () => {
    expect(requiredConsents(['dbs-enhanced', 'rtw'])).toEqual([]);
    expect(requiredConsents(['licence-check'])).toEqual(['driver-data']);
    expect(requiredConsents(['driver-data', 'dbs-update', 'licence-check', 'nonsense'])).toEqual([
      'dbs-update',
      'driver-data',
    ]);
  });

  it('finds the activity a consent is given for', () => {
    const of = (...codes: string[]) => codes.map((code, id) => ({ id, activity_type: { code } }));
    // the driver-data section's own activity, even when a licence check comes first
    expect(activityAskingConsent(of('licence-check', 'driver-data'), 'driver-data')?.id).toBe(1);
    // a licence check alone: its own
    expect(activityAskingConsent(of('rtw', 'licence-check'), 'driver-data')?.id).toBe(1);
    expect(activityAskingConsent(of('dbs-basic', 'dbs-update'), 'dbs-update')?.id).toBe(1);
    expect(activityAskingConsent(of('rtw'), 'dbs-application')).toBeUndefined();
  });

  it('derives the top-up kinds (the criminal-record family)', () => {
    expect([...TOP_UP_KINDS]).toEqual(['dbs-basic', 'dbs-standard', 'dbs-enhanced']);
  });

  it('names the audiences of each kind’s panel', () => {
    expect(hasResultAudience('dbs-enhanced', 'subject')).toBe(true);
    expect(hasResultAudience('adult-first', 'ops')).toBe(true);
    expect(hasResultAudience('nonsense', 'customer')).toBe(false);
    for (const kind of Object.values(ACTIVITY_KINDS))
      expect(kind.audiences.length).toBeGreaterThan(0);
  });
});
