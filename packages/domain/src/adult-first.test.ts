import { describe, expect, it } from 'vitest';
import {
  ADULT_FIRST_RESULTS,
  ADULT_FIRST_STAGE_LABELS,
  ADULT_FIRST_STAGES,
  type AdultFirstOfferInput,
  adultFirstPendingSchema,
  adultFirstRequestedSchema,
  isAdultFirstOffered,
  nextAdultFirstStage,
} from './adult-first.js';
import { issuesByField } from './first-message.js';

const offered: AdultFirstOfferInput = {
  activityCode: 'dbs-enhanced',
  customerActivityCodes: ['dbs-enhanced', 'adult-first'],
  caseActivityCodes: ['dbs-enhanced'],
  permissions: ['cases.view_case', 'cases.add_case'],
  config: { adult_barred_list: true, workforce: 'A' },
};

describe('isAdultFirstOffered', () => {
  it.each<[string, Partial<AdultFirstOfferInput>, boolean]>([
    ['all six hold', {}, true],
    ['child and adult workforce', { config: { adult_barred_list: true, workforce: 'CA' } }, true],
    ['not enhanced', { activityCode: 'dbs-standard' }, false],
    ['customer lacks adult-first', { customerActivityCodes: ['dbs-enhanced'] }, false],
    ['case already has one', { caseActivityCodes: ['dbs-enhanced', 'adult-first'] }, false],
    ['no add-case permission', { permissions: ['cases.view_case'] }, false],
    ['barred list off', { config: { adult_barred_list: false, workforce: 'A' } }, false],
    ['workforce child only', { config: { adult_barred_list: true, workforce: 'C' } }, false],
    ['no config', { config: null }, false],
  ])('%s', (_name, change, expected) => {
    expect(isAdultFirstOffered({ ...offered, ...change })).toBe(expected);
  });
});

describe('adult-first stages and forms', () => {
  it('moves pending → requested → result received', () => {
    expect(ADULT_FIRST_STAGES.map((s) => ADULT_FIRST_STAGE_LABELS[s])).toEqual([
      'Pending',
      'Requested',
      'Result Received',
    ]);
    expect(nextAdultFirstStage('pending')).toBe('requested');
    expect(nextAdultFirstStage('requested')).toBe('result-received');
    expect(nextAdultFirstStage('result-received')).toBeNull();
  });

  it('requires the DBS case and the reference when pending', () => {
    const r = adultFirstPendingSchema.safeParse({ reference: ' ' });
    expect(r.success ? {} : issuesByField(r.error)).toEqual({
      dbs_case: ['Required'],
      reference: ['Required'],
    });
    expect(adultFirstPendingSchema.parse({ dbs_case: 4, reference: 'E1' })).toEqual({
      dbs_case: 4,
      reference: 'E1',
    });
  });

  it('requires one of the three results when requested', () => {
    expect(ADULT_FIRST_RESULTS.map((r) => r.label)).toEqual([
      'No Match',
      'Wait for Certificate',
      'Certificate Already Issued',
    ]);
    const r = adultFirstRequestedSchema.safeParse({});
    expect(r.success ? {} : issuesByField(r.error)).toEqual({ result: ['Required'] });
    expect(adultFirstRequestedSchema.safeParse({ result: 'no-match' }).success).toBe(true);
  });
});
