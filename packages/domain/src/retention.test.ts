import { describe, expect, it } from 'vitest';
import {
  ACCESS_LOG_RETENTION_MONTHS,
  accessLogMonths,
  caseRetentionOut,
  closedByErasure,
  ERASURE_CASE_REASON,
  keptCriminalRecordResult,
  keptDrivingResult,
  presentRetentionSettings,
  RETENTION_RULE_CODES,
  RETENTION_RULES,
  type RetentionRuleCode,
  type RetentionSettings,
  redactionDueAt,
  redactionNotice,
  retentionRule,
  retentionSettingsIn,
  ruleMonths,
} from './retention.js';

const none: RetentionSettings = { inspector: null, nextInspectionDate: null, months: {} };

describe('retention rules', () => {
  it('has one rule per code with safe defaults (six months after a DBS decision)', () => {
    expect(RETENTION_RULES.map((r) => r.code)).toEqual([...RETENTION_RULE_CODES]);
    expect(retentionRule('criminal-record-content').defaultMonths).toBe(6);
    expect(retentionRule('criminal-record-images').basis).toBe('decision');
    expect(retentionRule('rtw-images').basis).toBe('employment-end');
    expect(() => retentionRule('nope' as RetentionRuleCode)).toThrow(/Unknown/);
  });

  it('counts a period from its basis date, the customer’s own or the default', () => {
    const decided = new Date('2026-01-15T10:00:00Z');
    expect(redactionDueAt(none, 'criminal-record-content', decided)?.toISOString()).toBe(
      '2026-07-15T10:00:00.000Z',
    );
    const own = { ...none, months: { 'driving-results': 2 } };
    expect(ruleMonths(own, 'driving-results')).toBe(2);
    expect(redactionDueAt(own, 'driving-results', decided)?.toISOString()).toBe(
      '2026-03-15T10:00:00.000Z',
    );
    expect(redactionDueAt(none, 'rtw-images', null)).toBeNull();
  });

  it('keeps criminal-record information until an inspected customer’s next inspection', () => {
    const decided = new Date('2026-01-15T00:00:00Z');
    const cqc: RetentionSettings = {
      inspector: 'CQC',
      nextInspectionDate: '2026-11-01',
      months: {},
    };
    expect(redactionDueAt(cqc, 'criminal-record-images', decided)?.toISOString()).toBe(
      '2026-11-01T00:00:00.000Z',
    );
    // an inspection before the period's end changes nothing; nor does it for other rules
    const early = { ...cqc, nextInspectionDate: '2026-03-01' };
    expect(redactionDueAt(early, 'criminal-record-content', decided)?.toISOString()).toBe(
      '2026-07-15T00:00:00.000Z',
    );
    expect(redactionDueAt(cqc, 'identity-images', decided)?.toISOString()).toBe(
      '2026-07-15T00:00:00.000Z',
    );
  });

  it('keeps a criminal-record result’s date, reference, certificate number and outcome only', () => {
    const result = {
      applicant: { forename: 'Ann', nin: 'AB123456C' },
      application: { reference: 'R1', received_date: '2026-01-02', verified_by: 'X' },
      disclosure: { status: 'clear', certificate_number: '001', issue_date: '2026-01-10' },
      tracking: [{ stage: 'one' }],
      barred_lists: [],
    };
    expect(keptCriminalRecordResult(result)).toEqual({
      application: { reference: 'R1', received_date: '2026-01-02' },
      disclosure: { status: 'clear', certificate_number: '001', issue_date: '2026-01-10' },
    });
    expect(keptCriminalRecordResult({ disclosure: [1], application: null })).toEqual({});
    expect(
      keptDrivingResult({ status: 'valid', licence: { number: 'X' }, checked_date: '2026-01-01' }),
    ).toEqual({ status: 'valid', checked_date: '2026-01-01' });
  });

  it('tells a case an erasure closed from one cancelled otherwise', () => {
    expect(closedByErasure({ state: 'cancelled', cancelled_reason: ERASURE_CASE_REASON })).toBe(
      true,
    );
    expect(closedByErasure({ state: 'cancelled', cancelled_reason: 'Duplicate' })).toBe(false);
    expect(
      closedByErasure({ state: 'awaiting-subject', cancelled_reason: ERASURE_CASE_REASON }),
    ).toBe(false);
  });

  it('words the notice with the product’s date format', () => {
    expect(redactionNotice('2026-07-15T10:00:00Z')).toBe(
      'Redacted on 15th Jul 2026 under the retention policy',
    );
    expect(redactionNotice('2026-07-15T10:00:00Z', 'erasure')).toBe(
      "Redacted on 15th Jul 2026 under the subject's erasure request",
    );
    expect(redactionNotice('2026-07-15T10:00:00Z', 'identity-images')).toContain(
      'under the retention policy',
    );
  });

  it('validates the settings: an inspector needs its next inspection date', () => {
    expect(
      retentionSettingsIn.safeParse({ inspector: 'Ofsted', next_inspection_date: null, rules: [] })
        .success,
    ).toBe(false);
    expect(
      retentionSettingsIn.safeParse({
        inspector: null,
        next_inspection_date: null,
        rules: [{ code: 'driving-results', months: 0 }],
      }).success,
    ).toBe(false);
    expect(
      retentionSettingsIn.parse({
        inspector: 'CSSIW',
        next_inspection_date: '2027-01-01',
        rules: [{ code: 'closed-cases', months: 24 }],
      }).rules,
    ).toHaveLength(1);
  });

  it('presents every rule with its period', () => {
    const out = presentRetentionSettings({ ...none, months: { 'closed-cases': 24 } });
    expect(out.rules).toHaveLength(RETENTION_RULES.length);
    expect(out.rules.find((r) => r.code === 'closed-cases')).toMatchObject({
      months: 24,
      default_months: 12,
    });
    expect(
      caseRetentionOut.safeParse({
        legal_hold: false,
        hold_reason: '',
        hold_set_at: null,
        hold_set_by: '',
        employment_ended_on: null,
        redactions: [],
      }).success,
    ).toBe(true);
  });
});

describe('the access log’s period', () => {
  it('is the default, or longer when criminal-record information is kept longer', () => {
    const base = { inspector: null, nextInspectionDate: null, months: {} };
    expect(accessLogMonths(base)).toBe(ACCESS_LOG_RETENTION_MONTHS);
    expect(accessLogMonths({ ...base, months: { 'driving-results': 60 } })).toBe(24);
    expect(accessLogMonths({ ...base, months: { 'criminal-record-content': 36 } })).toBe(36);
    expect(accessLogMonths({ ...base, months: { 'criminal-record-images': 48 } })).toBe(48);
  });
});
