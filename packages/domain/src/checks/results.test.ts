import { describe, expect, it } from 'vitest';
import { isResultDataKind, RESULT_DATA_SCHEMAS, readResultData } from './kinds.js';
import {
  adultFirstResultDataSchema,
  dbsResultDataSchema,
  dbsUpdateResultDataSchema,
} from './results.js';

describe('criminal-record result data', () => {
  it('accepts a complete enhanced result', () => {
    const data = {
      application: { status: 'Completed', reference: 'E123', received_date: '2026-01-02' },
      disclosure: {
        status: 'clear',
        certificate_number: '001234567890',
        issue_date: '2026-02-01',
        manual_certificate: false,
      },
      tracking: [
        { stage: 'Application received', status: 'Completed', completed_date: '2026-01-02' },
      ],
      barred_lists: [
        { list: 'adult', searched: true, search_date: '2026-01-10', result: 'no-match' },
      ],
      update_service: { certificate_status: 'BLANK_NO_NEW_INFO' },
      top_up: { status: 'awaiting', amount: 1200, payment_id: 'pi_1' },
    };
    expect(dbsResultDataSchema.parse(data)).toEqual(data);
  });

  it('accepts empty data and refuses a wrong shape', () => {
    expect(dbsResultDataSchema.parse({})).toEqual({});
    expect(dbsResultDataSchema.safeParse({ barred_lists: [{ list: 'elderly' }] }).success).toBe(
      false,
    );
    expect(
      dbsResultDataSchema.safeParse({ top_up: { status: 'awaiting', amount: -1 } }).success,
    ).toBe(false);
  });

  it('types dbs-update and adult-first', () => {
    expect(
      dbsUpdateResultDataSchema.parse({ forename: 'Ann', print_date: '2026-01-01' }).forename,
    ).toBe('Ann');
    expect(adultFirstResultDataSchema.safeParse({ stage: 'requested', dbs_case: 4 }).success).toBe(
      true,
    );
    expect(adultFirstResultDataSchema.safeParse({ result: 'maybe' }).success).toBe(false);
  });

  it('reads by kind, leniently', () => {
    expect(isResultDataKind('dbs-enhanced')).toBe(true);
    expect(isResultDataKind('address-history')).toBe(false);
    expect(Object.keys(RESULT_DATA_SCHEMAS)).toHaveLength(11);
    expect(readResultData('adult-first', { stage: 'pending' })).toEqual({ stage: 'pending' });
    expect(readResultData('adult-first', { stage: 'nope' })).toEqual({});
    expect(readResultData('dbs-basic', null)).toEqual({});
  });
});
