import { describe, expect, it } from 'vitest';
import { RTW_PANEL_TEXTS, rtwFollowUpDate, rtwManualCheckIn } from './identity.js';
import {
  formatTestDuration,
  isKnowledgeTestCompleted,
  subjectKnowledgeTestData,
} from './knowledge-test.js';
import {
  sessionDateTime,
  sessionStartsAt,
  TRUST_TO_RIDE_MESSAGES,
  trustToRideAttendanceIn,
  trustToRideOutcome,
} from './trust-to-ride.js';

describe('right to work rules', () => {
  it('asks for the follow-up 28 days before a time-limited right ends, never before the check', () => {
    expect(rtwFollowUpDate('2027-03-01', '2026-11-28')).toBe('2027-02-01');
    expect(rtwFollowUpDate('2026-12-10', '2026-11-28')).toBe('2026-11-28');
    expect(RTW_PANEL_TEXTS.followUp('1 Feb 2027')).toBe(
      'A follow-up right to work check is due by 1 Feb 2027.',
    );
  });

  it('needs an expiry for a time-limited right and documents unless there is no right', () => {
    const limited = rtwManualCheckIn.safeParse({ outcome: 'time-limited', documents: [] });
    expect(limited.success).toBe(false);
    const paths = limited.error?.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['documents', 'expiry_date']);
    expect(rtwManualCheckIn.safeParse({ outcome: 'no-right' }).success).toBe(true);
    const ok = rtwManualCheckIn.parse({
      outcome: 'time-limited',
      expiry_date: '2027-01-31',
      documents: ['Biometric residence permit'],
    });
    expect(ok.notes).toBe('');
    const long = rtwManualCheckIn.safeParse({ outcome: 'no-right', notes: 'x'.repeat(401) });
    expect(long.error?.issues[0]?.message).toBe('Max length 400');
  });
});

describe('knowledge test rules', () => {
  it('is completed once it has an overall pass or fail', () => {
    expect(isKnowledgeTestCompleted({ test_url: 'https://t/x' })).toBe(false);
    expect(isKnowledgeTestCompleted({ passed: null })).toBe(false);
    expect(isKnowledgeTestCompleted({ passed: false })).toBe(true);
  });

  it('says a completion time in hours, minutes and seconds', () => {
    expect(formatTestDuration(undefined)).toBe('');
    expect(formatTestDuration(null)).toBe('');
    expect(formatTestDuration(-1)).toBe('');
    expect(formatTestDuration(0)).toBe('0 s');
    expect(formatTestDuration(45)).toBe('45 s');
    expect(formatTestDuration(120)).toBe('2 min');
    expect(formatTestDuration(23 * 60 + 5)).toBe('23 min 5 s');
    expect(formatTestDuration(7200)).toBe('2 h');
    expect(formatTestDuration(3600 + 120 + 9)).toBe('1 h 2 min');
  });

  it("leaves the recorder's name out of the subject's view", () => {
    const view = subjectKnowledgeTestData({ passed: true, method: 'paper', recorded_by: 'Ops A' });
    expect(view).toEqual({ passed: true, method: 'paper' });
  });
});

describe('trust-to-ride rules', () => {
  const session = { id: 1, date: '2026-12-03', time: '10:30', place: 'Town hall' };

  it('words the outcome: nothing yet, booked, attended or not', () => {
    expect(trustToRideOutcome({})).toBe(TRUST_TO_RIDE_MESSAGES.noSession);
    expect(trustToRideOutcome({ session })).toMatch(
      /^Booked on the session on .+ at 10:30, Town hall$/,
    );
    expect(trustToRideOutcome({ session, attendance: 'attended' })).toMatch(
      /^Attended the session on /,
    );
    expect(trustToRideOutcome({ session, attendance: 'did-not-attend' })).toMatch(
      /^Did not attend the session on /,
    );
  });

  it('needs an attendance and keeps a session start as entered', () => {
    expect(trustToRideAttendanceIn.safeParse({}).success).toBe(false);
    expect(trustToRideAttendanceIn.parse({ attendance: 'attended' })).toEqual({
      attendance: 'attended',
    });
    const starts = sessionStartsAt('2026-12-03', '10:30');
    expect(starts.toISOString()).toBe('2026-12-03T10:30:00.000Z');
    expect(sessionDateTime(starts)).toEqual({ date: '2026-12-03', time: '10:30' });
  });
});
