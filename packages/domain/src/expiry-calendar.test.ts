import { describe, expect, it } from 'vitest';
import {
  csvCell,
  daysUntil,
  dueExpiryReminder,
  EXPIRY_THREE_YEARS_DAYS,
  EXPIRY_WINDOW_DAYS,
  EXPIRY_WINDOW_MAX_DAYS,
  EXPIRY_WINDOWS,
  type ExpiryItemOut,
  expiryCalendarCsv,
  expiryCalendarQuery,
  expiryWindowEnd,
  maskedNumber,
  sortExpiryItems,
} from './expiry-calendar.js';

describe('the expiry calendar', () => {
  it('counts whole days to a date', () => {
    expect(daysUntil('2026-01-01', '2026-01-01')).toBe(0);
    expect(daysUntil('2026-01-01', '2026-03-01')).toBe(59);
    expect(daysUntil('2026-03-01', '2026-01-01')).toBe(-59);
  });

  it('reminds at 90, 30 and 7 days, each step once, only the nearest when found late', () => {
    expect(dueExpiryReminder('2026-06-30', '2026-01-01', [])).toBeNull(); // 180 days ahead
    expect(dueExpiryReminder('2026-03-31', '2026-01-01', [])).toBe(90);
    expect(dueExpiryReminder('2026-03-31', '2026-01-01', [90])).toBeNull();
    expect(dueExpiryReminder('2026-01-31', '2026-01-01', [90])).toBe(30);
    expect(dueExpiryReminder('2026-01-31', '2026-01-01', [])).toBe(30); // found late: one only
    expect(dueExpiryReminder('2026-01-05', '2026-01-01', [90, 30])).toBe(7);
    expect(dueExpiryReminder('2026-01-01', '2026-01-01', [90, 30])).toBe(7); // on the day
    expect(dueExpiryReminder('2026-01-01', '2026-01-01', [90, 30, 7])).toBeNull();
    expect(dueExpiryReminder('2025-12-31', '2026-01-01', [])).toBeNull(); // past
  });

  it('reads its query: 90 days unless told, a kind of its list', () => {
    expect(expiryCalendarQuery.parse({})).toEqual({ days: EXPIRY_WINDOW_DAYS });
    expect(expiryCalendarQuery.parse({ days: '30', kind: 'passport' })).toEqual({
      days: 30,
      kind: 'passport',
    });
    expect(expiryCalendarQuery.safeParse({ days: '0' }).success).toBe(false);
    expect(expiryCalendarQuery.parse({ days: '1096' })).toEqual({ days: 1096 });
    expect(expiryCalendarQuery.parse({ days: String(EXPIRY_WINDOW_MAX_DAYS) }).days).toBe(3653);
    expect(expiryCalendarQuery.safeParse({ days: '3654' }).success).toBe(false);
    expect(expiryCalendarQuery.safeParse({ kind: 'visa' }).success).toBe(false);
  });

  it('offers windows up to ten years; the 3-year one holds every renewed DVLA mandate', () => {
    expect(EXPIRY_WINDOWS.map((w) => w.days)).toEqual([30, 60, 90, 180, 365, 1096, 3653]);
    expect(expiryWindowEnd('2026-11-29', 90)).toBe('2027-02-27');
    expect(expiryWindowEnd('2026-11-29', EXPIRY_WINDOW_MAX_DAYS)).toBe('2036-11-29');
    // a mandate renewed on any day of four years (leap days included) ends 3 years on, as the
    // server sets it, within the window's last day
    for (let d = 0; d < 4 * 366; d++) {
      const today = expiryWindowEnd('2027-01-01', d);
      const ends = new Date(`${today}T00:00:00Z`);
      ends.setUTCFullYear(ends.getUTCFullYear() + 3);
      const endsOn = ends.toISOString().slice(0, 10);
      expect(endsOn <= expiryWindowEnd(today, EXPIRY_THREE_YEARS_DAYS)).toBe(true);
    }
    expect(daysUntil('2027-03-01', '2030-03-01')).toBe(EXPIRY_THREE_YEARS_DAYS);
  });

  const item = (over: Partial<ExpiryItemOut>): ExpiryItemOut => ({
    kind: 'passport',
    kind_label: 'Passport',
    subject_id: 1,
    subject_name: 'Ada Lovelace',
    subject_email: 'ada@example.com',
    case_id: 7,
    reference: '…1234',
    expires_on: '2026-02-01',
    days_left: 31,
    ...over,
  });

  it('sorts by date, then subject, then kind', () => {
    const a = item({ expires_on: '2026-03-01' });
    const b = item({ subject_name: 'Bob' });
    const c = item({ kind: 'licence' });
    const d = item({});
    expect(sortExpiryItems([a, b, d, c])).toEqual([c, d, b, a]);
  });

  it('exports a CSV: quoted cells, formulas neutralised, CRLF', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    const csv = expiryCalendarCsv([item({ subject_name: 'Lovelace, Ada', case_id: null })]);
    expect(csv).toBe(
      'Expires on,Days left,What,Subject,Email,Case,Reference\r\n' +
        '2026-02-01,31,Passport,"Lovelace, Ada",ada@example.com,,…1234\r\n',
    );
  });

  it('masks a document number but its last four', () => {
    expect(maskedNumber(' 123456789 ')).toBe('…6789');
    expect(maskedNumber('12')).toBe('12');
  });
});
