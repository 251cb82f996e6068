import { describe, expect, it } from 'vitest';
import {
  BULK_INVITE_MAX_CHARS,
  bulkInviteColumns,
  bulkInviteIn,
  bulkInviteMissingColumns,
  checkBulkInviteRow,
  sameSubjectNames,
} from './bulk-invite.js';

describe('bulk invite', () => {
  it('finds the columns by their usual names, in any order', () => {
    const cols = bulkInviteColumns(['E-mail', 'Surname', 'First name', 'Mobile', 'Notes']);
    expect(cols).toEqual({ email: 0, last_name: 1, first_name: 2, phone_number: 3 });
    expect(bulkInviteMissingColumns(cols)).toEqual([]);
    expect(bulkInviteMissingColumns(bulkInviteColumns(['Name', 'Email']))).toEqual([
      'first name',
      'last name',
    ]);
    expect(bulkInviteMissingColumns({})).toEqual(['first name', 'last name', 'email']);
  });

  it('checks a row by the subject rules: good rows parsed, bad ones with errors by field', () => {
    const cols = bulkInviteColumns(['first_name', 'last_name', 'email', 'dob']);
    const good = checkBulkInviteRow(cols, [' Ada ', 'Lovelace', 'ada@example.com', '']);
    expect(good.ok).toBe(true);
    if (good.ok) expect(good.data.email).toBe('ada@example.com');
    expect(good.raw).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    });
    const bad = checkBulkInviteRow(cols, ['Bob', '', 'not-an-email']);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(Object.keys(bad.errors).sort()).toEqual(['email', 'last_name']);
      expect(bad.errors.email?.length).toBeGreaterThan(0);
    }
    // a column the file lacks reads as empty
    const none = checkBulkInviteRow({}, []);
    expect(none.ok).toBe(false);
  });

  it('compares names without case or spacing', () => {
    const a = { first_name: 'Ada ', last_name: 'Love  Lace' };
    expect(sameSubjectNames(a, { first_name: 'ada', last_name: 'love lace' })).toBe(true);
    expect(sameSubjectNames(a, { first_name: 'Ada', last_name: 'Byron' })).toBe(false);
  });

  it('asks for a process and a CSV within its size', () => {
    expect(bulkInviteIn.safeParse({ process: 1, csv: 'a' }).success).toBe(true);
    expect(bulkInviteIn.safeParse({ process: 1, csv: '' }).success).toBe(false);
    const big = 'x'.repeat(BULK_INVITE_MAX_CHARS + 1);
    expect(bulkInviteIn.safeParse({ process: 1, csv: big }).success).toBe(false);
  });
});
