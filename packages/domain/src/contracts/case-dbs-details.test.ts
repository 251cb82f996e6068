import { describe, expect, it } from 'vitest';
import {
  caseDbsDetailsPatch,
  caseDbsDetailsSubjectOut,
  caseRtwDetailsPatch,
  dbsDetailsSubjectIn,
  normaliseShareCode,
  rtwDetailsIn,
  verifyDbsDetailsIn,
} from './case-dbs-details.js';

const TODAY = '2026-11-24';
const errors = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('DBS details', () => {
  it('needs a route, and the date of a video call or an in-person check, not in the past', () => {
    const schema = dbsDetailsSubjectIn(TODAY);
    const blank = { idv_option: '', video_call_date: null, in_person_expected_date: null };
    expect(errors(schema.safeParse(blank))).toEqual({ idv_option: 'Required' });
    expect(errors(schema.safeParse({ ...blank, idv_option: 'online' }))).toEqual({});
    expect(errors(schema.safeParse({ ...blank, idv_option: 'video-call' }))).toEqual({
      video_call_date: 'Required',
    });
    expect(
      errors(
        schema.safeParse({
          ...blank,
          idv_option: 'in-person',
          in_person_expected_date: '2026-11-23',
        }),
      ),
    ).toEqual({ in_person_expected_date: 'The date cannot be in the past.' });
    expect(
      errors(schema.safeParse({ ...blank, idv_option: 'video-call', video_call_date: TODAY })),
    ).toEqual({});
    expect(errors(schema.safeParse({ ...blank, idv_option: 'post' }))).toHaveProperty('idv_option');
  });

  it('reads a blank date as none and caps the discrepancy notes at 400 characters', () => {
    expect(caseDbsDetailsPatch.parse({ video_call_date: '' })).toEqual({ video_call_date: null });
    expect(errors(caseDbsDetailsPatch.safeParse({ discrepancy_notes: 'x'.repeat(401) }))).toEqual({
      discrepancy_notes: 'Max length 400',
    });
    expect(verifyDbsDetailsIn.parse({ discrepancy_notes: '  ' })).toEqual({});
  });

  it('shows the subject no notes and no names', () => {
    expect(Object.keys(caseDbsDetailsSubjectOut.shape).sort()).toEqual([
      'case',
      'idv_option',
      'in_person_expected_date',
      'state',
      'video_call_date',
    ]);
  });
});

describe('right-to-work details', () => {
  it('normalises a share code and checks its format', () => {
    expect(normaliseShareCode('w12 345-67x')).toBe('W1234567X');
    expect(caseRtwDetailsPatch.parse({ share_code: 'w12 345 67x' })).toEqual({
      share_code: 'W1234567X',
    });
    expect(errors(caseRtwDetailsPatch.safeParse({ share_code: 'A12345678' }))).toEqual({
      share_code: 'Invalid format',
    });
    expect(caseRtwDetailsPatch.parse({ share_code: '' })).toEqual({ share_code: '' });
  });

  it('needs a route, and a share code for the online check', () => {
    expect(errors(rtwDetailsIn.safeParse({ route: '', share_code: '' }))).toEqual({
      route: 'Required',
    });
    expect(errors(rtwDetailsIn.safeParse({ route: 'share-code', share_code: '' }))).toEqual({
      share_code: 'Required',
    });
    expect(errors(rtwDetailsIn.safeParse({ route: 'documents', share_code: '' }))).toEqual({});
  });
});
