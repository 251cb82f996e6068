import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_KIND_CODES,
  ACTIVITY_KINDS,
  guidanceLink,
  isActivityKindCode,
  PORTAL_ACTIVITY_SECTIONS,
} from './activity-kinds.js';

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
