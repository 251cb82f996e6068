import { describe, expect, it } from 'vitest';
import {
  addDays,
  addWorkingDays,
  expectedCompletion,
  isOverdue,
  type OpenCheck,
  overdueFlagMessage,
} from './expected-completion.js';

const check = (over: Partial<OpenCheck>): OpenCheck => ({
  code: 'dbs-basic',
  state: 'ca-in-progress',
  startedOn: '2026-03-02', // a Monday
  result: {},
  ...over,
});

describe('expected completion dates', () => {
  it('counts calendar and working days', () => {
    expect(addDays('2026-03-02', 14)).toBe('2026-03-16');
    expect(addWorkingDays('2026-03-06', 1)).toBe('2026-03-09'); // Friday → Monday
    expect(addWorkingDays('2026-03-02', 28)).toBe('2026-04-09');
    expect(addWorkingDays('2026-03-02', 0)).toBe('2026-03-02');
  });

  it('runs only while the provider or operations hold the check', () => {
    expect(expectedCompletion(check({ state: 'ca-awaiting-subject' }))).toBeNull();
    expect(expectedCompletion(check({ state: 'ca-complete' }))).toBeNull();
    expect(expectedCompletion(check({ state: 'ca-awaiting-ops' }))?.date).toBe('2026-03-16');
  });

  it('DBS: the typical days from receipt, then shrinking with the tracking stages', () => {
    const received = { application: { received_date: '2026-03-04' } };
    expect(expectedCompletion(check({ result: received }))).toEqual({
      date: '2026-03-18',
      basis: 'Typically 14 days from the DBS receiving the application.',
    });
    expect(expectedCompletion(check({ code: 'dbs-enhanced' }))?.date).toBe('2026-03-30');
    const twoDone = {
      ...received,
      tracking: [
        { stage: 'Received', status: 'complete', completed_date: '2026-03-05' },
        { stage: 'PNC', status: 'complete', completed_date: '2026-03-09' },
        { stage: 'Barred', status: 'pending', completed_date: null },
        'junk',
      ],
    };
    // 3 of 5 stages left: ceil(14 × 3 / 5) = 9 days after the last one done
    expect(expectedCompletion(check({ result: twoDone }))).toEqual({
      date: '2026-03-18',
      basis: 'DBS stage 2 of 5 complete: about 9 days for the rest.',
    });
    const allDone = {
      tracking: [1, 2, 3, 4, 5].map((n) => ({
        stage: String(n),
        status: 'complete',
        completed_date: `2026-03-1${n}`,
      })),
    };
    expect(expectedCompletion(check({ result: allDone }))?.date).toBe('2026-03-18');
    // stages marked complete without dates count, but give no date to start from
    const noDates = { tracking: [{ stage: '1', status: 'complete' }] };
    expect(expectedCompletion(check({ result: noDates }))?.date).toBe('2026-03-16');
  });

  it('licence check: 2 working days, or 28 working days once the DVLA answers by hand', () => {
    expect(expectedCompletion(check({ code: 'licence-check' }))?.date).toBe('2026-03-04');
    expect(
      expectedCompletion(
        check({ code: 'licence-check', result: { status: 'DQ3', last_check_date: '2026-03-02' } }),
      ),
    ).toEqual({
      date: '2026-04-09',
      basis: 'The DVLA answers this licence by hand: 14 to 28 working days.',
    });
    expect(
      expectedCompletion(check({ code: 'licence-check', result: { status: 'DQ3' } }))?.date,
    ).toBe('2026-04-09');
  });

  it('adult first: 72 hours from the request; other kinds their typical days', () => {
    expect(
      expectedCompletion(check({ code: 'adult-first', result: { requested_date: '2026-03-05' } })),
    ).toEqual({
      date: '2026-03-08',
      basis: 'An adult first result can take up to 72 hours from the request.',
    });
    expect(expectedCompletion(check({ code: 'adult-first' }))?.date).toBe('2026-03-05');
    expect(expectedCompletion(check({ code: 'dbs-update' }))).toEqual({
      date: '2026-03-03',
      basis: 'Typically 1 working day.',
    });
    expect(expectedCompletion(check({ code: 'document-collection' }))?.date).toBe('2026-03-09');
  });

  it('is overdue from the day after; flags in words', () => {
    expect(isOverdue('2026-03-16', '2026-03-16')).toBe(false);
    expect(isOverdue('2026-03-16', '2026-03-17')).toBe(true);
    expect(overdueFlagMessage('DBS basic check', '2026-03-16')).toBe(
      'DBS basic check is taking longer than expected (expected by 2026-03-16). Our operations team is looking into it.',
    );
  });
});
