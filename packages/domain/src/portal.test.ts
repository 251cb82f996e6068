import { describe, expect, it } from 'vitest';
import type { ConsentKind } from './contracts/portal.js';
import {
  type ConsentOnRecord,
  DBS_APPLICATION_LEVELS,
  dbsApplicationSection,
  missingConsents,
  portalProgress,
  portalSections,
  SUBMIT_WITHOUT_CONSENT,
} from './portal.js';
import {
  PORTAL_SECTION_LABELS,
  PORTAL_SECTIONS,
  portalStepCounts,
  portalSteps,
} from './portal-sections.js';

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

describe('portalSteps and portalStepCounts: what the person is asked for', () => {
  const every = [
    'online-idv',
    'basic-details',
    'address-history',
    'document-collection',
    'dbs-enhanced',
    'dbs-standard',
    'dbs-basic',
    'dbs-update',
    'driver-data',
    'rtw',
  ];

  it('counts the steps the Welcome lists: every section but Welcome and Done', () => {
    const sections = portalSections({ activityCodes: every });
    expect(sections).toHaveLength(13);
    const steps = portalSteps(sections);
    expect(steps).toHaveLength(11);
    expect(steps).not.toContain('welcome');
    expect(steps).not.toContain('done');
    expect(steps.at(-1)).toBe('review');
    expect(portalStepCounts(sections, 0)).toEqual({ done: 0, total: 11, percent: 0 });
  });

  it('counts the steps done from the sections completed (Welcome is no step)', () => {
    const sections = portalSections({ activityCodes: ['basic-details', 'rtw'] });
    // welcome, basic-details, rtw, review, done
    expect(portalStepCounts(sections, 1)).toEqual({ done: 0, total: 3, percent: 0 });
    expect(portalStepCounts(sections, 2)).toEqual({ done: 1, total: 3, percent: 33 });
    expect(portalStepCounts(sections, 4)).toEqual({ done: 3, total: 3, percent: 100 });
    expect(portalStepCounts(sections, 5)).toEqual({ done: 3, total: 3, percent: 100 });
  });
});

describe('dbsApplicationSection: the shared criminal-record questions are asked once', () => {
  it('is the first criminal-record level of the case, in portal order', () => {
    const all = portalSections({ activityCodes: ['dbs-basic', 'dbs-standard', 'dbs-enhanced'] });
    expect(dbsApplicationSection(all)).toBe('dbs-enhanced');
    expect(
      dbsApplicationSection(portalSections({ activityCodes: ['dbs-basic', 'dbs-standard'] })),
    ).toBe('dbs-standard');
    expect(dbsApplicationSection(portalSections({ activityCodes: ['dbs-basic'] }))).toBe(
      'dbs-basic',
    );
    expect(dbsApplicationSection(portalSections({ activityCodes: ['rtw'] }))).toBeNull();
    expect(DBS_APPLICATION_LEVELS).toEqual(['dbs-enhanced', 'dbs-standard', 'dbs-basic']);
  });
});

describe('missingConsents', () => {
  const act = (id: number, code: string) => ({ id, activity_type: { code } });
  const basic = act(1, 'basic-details');
  const enhanced = act(2, 'dbs-enhanced');
  const dbsBasic = act(3, 'dbs-basic');
  const licence = act(4, 'licence-check');
  const driver = act(5, 'driver-data');
  const update = act(6, 'dbs-update');
  const given = (
    case_activity: number,
    kind: ConsentKind,
    status: ConsentOnRecord['status'] = 'active',
  ): ConsentOnRecord => ({ case_activity, kind, status });

  it('asks each criminal-record level for its own declaration', () => {
    const all = [basic, enhanced, dbsBasic];
    expect(missingConsents(all, [])).toEqual([
      { activity: enhanced, kind: 'dbs-application' },
      { activity: dbsBasic, kind: 'dbs-application' },
    ]);
    // one level's consent does not stand for the other's
    expect(missingConsents(all, [given(2, 'dbs-application')])).toEqual([
      { activity: dbsBasic, kind: 'dbs-application' },
    ]);
    expect(
      missingConsents(all, [given(2, 'dbs-application'), given(3, 'dbs-application', 'expiring')]),
    ).toEqual([]);
  });

  it('asks a consent of its own section once for the case, of the activity whose section asks it', () => {
    const all = [basic, licence, driver, update];
    expect(missingConsents(all, [])).toEqual([
      { activity: driver, kind: 'driver-data' },
      { activity: update, kind: 'dbs-update' },
    ]);
    // a DVLA mandate given for the licence check counts for the case
    expect(missingConsents(all, [given(4, 'driver-data'), given(6, 'dbs-update')])).toEqual([]);
  });

  it('counts only live consents, and only for the activities being submitted', () => {
    expect(missingConsents([licence], [given(4, 'driver-data', 'expired')])).toEqual([
      { activity: licence, kind: 'driver-data' },
    ]);
    expect(missingConsents([enhanced], [given(2, 'dbs-application', 'withdrawn')])).toEqual([
      { activity: enhanced, kind: 'dbs-application' },
    ]);
    expect(missingConsents([basic, enhanced, licence], [], [basic, licence])).toEqual([
      { activity: licence, kind: 'driver-data' },
    ]);
  });

  it('tells the person where to give it', () => {
    expect(SUBMIT_WITHOUT_CONSENT).toMatch(/^Give your consent .* before you submit\.$/);
  });
});
