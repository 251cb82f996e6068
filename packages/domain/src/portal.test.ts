import { describe, expect, it } from 'vitest';
import {
  PORTAL_SECTION_LABELS,
  PORTAL_SECTIONS,
  portalProgress,
  portalSections,
} from './portal.js';

describe('portalSections', () => {
  it('keeps the spec order', () => {
    expect(PORTAL_SECTIONS.map((s) => PORTAL_SECTION_LABELS[s])).toEqual([
      'Welcome',
      'Online identity check',
      'Basic details',
      'Address history',
      'Documents',
      'Enhanced DBS check',
      'Standard DBS check',
      'Basic DBS check',
      'DBS update service',
      'Driver data',
      'Right to work',
      'Review & Submit',
      'Done',
    ]);
  });

  it('includes only the case activities with a portal section, in portal order', () => {
    expect(
      portalSections({ activityCodes: ['rtw', 'knowledge-test', 'basic-details', 'unknown'] }),
    ).toEqual(['welcome', 'basic-details', 'rtw', 'review', 'done']);
  });

  it('takes dbs-update and driver-data from consents or cycle requirements', () => {
    expect(
      portalSections({
        activityCodes: ['dbs-basic'],
        requiredConsents: ['driver-data', 'marketing'],
        cycleRequirements: ['dbs-update', 'rtw'],
      }),
    ).toEqual(['welcome', 'dbs-basic', 'dbs-update', 'driver-data', 'review', 'done']);
  });
});

describe('portalProgress', () => {
  const activityCodes = ['basic-details', 'address-history', 'rtw'];
  // welcome, basic-details, address-history, rtw, review, done
  it.each([
    [null, 0, 'welcome'],
    ['', 0, 'welcome'],
    ['nonsense', 0, 'welcome'],
    ['welcome', 1, 'basic-details'],
    ['basic-details', 2, 'address-history'],
    ['address-history/2', 2, 'address-history'],
    ['address-history', 3, 'rtw'],
    ['review', 5, 'done'],
    ['done', 6, 'done'],
  ])('last %s → %i done, next %s', (last, completed, next) => {
    const p = portalProgress({ activityCodes, lastCompletedSection: last });
    expect(p.completed).toBe(completed);
    expect(p.next).toBe(next);
    expect(p.total).toBe(6);
  });

  it('gives a percentage', () => {
    expect(portalProgress({ activityCodes, lastCompletedSection: 'basic-details' }).percent).toBe(
      33,
    );
    expect(portalProgress({ activityCodes, lastCompletedSection: 'done' }).percent).toBe(100);
  });
});
