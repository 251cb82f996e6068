import { describe, expect, it } from 'vitest';
import {
  activityProgressIn,
  adultFirstPendingData,
  processingDataPatch,
  servicedStageOut,
  subjectResultData,
} from './activity-ops.js';

describe('activity ops contracts', () => {
  it('takes a stage and its data', () => {
    expect(activityProgressIn.safeParse({ stage: 'pending', data: {} }).success).toBe(true);
    expect(activityProgressIn.safeParse({ stage: 'later', data: {} }).success).toBe(false);
    expect(
      activityProgressIn.safeParse({ stage: 'requested', data: { result: 'maybe' } }).success,
    ).toBe(false);
  });

  it('requires the DBS case and reference at pending', () => {
    const r = adultFirstPendingData.safeParse({});
    expect(r.success).toBe(false);
    expect(
      adultFirstPendingData.parse({ dbs_case: 3, reference: 'AF1', e_number: ' E1 ' }),
    ).toEqual({
      dbs_case: 3,
      reference: 'AF1',
      e_number: 'E1',
    });
  });

  it('checks the provider configuration and keeps other keys', () => {
    expect(processingDataPatch.parse({ other: 1 })).toEqual({ other: 1 });
    expect(processingDataPatch.safeParse({ provider_configuration: {} }).success).toBe(false);
  });

  it('answers a strict serviced stage', () => {
    const out = {
      activity: 1,
      case: 2,
      activity_type: 'adult-first',
      stage: 'pending',
      next_stage: 'requested',
      state: 'ca-awaiting-ops',
      result_data: { stage: 'pending' },
      dbs_case_options: [{ id: 2, label: 'Case #2' }],
    };
    expect(servicedStageOut.parse(out)).toEqual(out);
    expect(servicedStageOut.safeParse({ ...out, result_data: { x: 1 } }).success).toBe(false);
  });
});

describe('the subject result view', () => {
  it('drops other people names and staff references', () => {
    expect(
      subjectResultData('dbs-enhanced', {
        application: { reference: 'E1', verified_by: 'Vera', countersigned_by: 'Colin' },
        disclosure: { status: 'clear' },
      }),
    ).toEqual({ application: { reference: 'E1' }, disclosure: { status: 'clear' } });
    expect(
      subjectResultData('adult-first', { stage: 'requested', reference: 'AF', e_number: 'E' }),
    ).toEqual({ stage: 'requested' });
    expect(subjectResultData('dbs-basic', null)).toEqual({});
    expect(subjectResultData('dbs-basic', [1])).toEqual({});
  });
});
