import { describe, expect, it } from 'vitest';
import { removedLines } from './api';

describe("an erasure's outcome in words", () => {
  it('names every kind of data the erasure reports, never its table key', () => {
    const lines = removedLines({
      removed: {
        case_basic_details: 1,
        case_addresses: 3,
        case_online_idv: 1,
        case_documents: 2,
        checks_cancelled: 1,
        cases_closed: 2,
        subscriptions_ended: 1,
        applications_withdrawn: 1,
        activity_notes: 3,
        decision_notes: 1,
        flags: 2,
        lms_applications: 1,
        licences: 1,
        portal_registrations: 2,
        subjects: 2,
      },
      files: 4,
      results: 1,
      kept: [],
      sign_in: 'disabled',
    });
    expect(lines).toEqual([
      'Basic details: 1',
      'Addresses: 3',
      'Online identity profiles: 1',
      'Documents (files and thumbnails): 2',
      'Checks in progress cancelled: 1',
      'Open cases cancelled: 2',
      'Subscriptions ended: 1',
      'Open licence applications withdrawn: 1',
      'Check notes: 3',
      'Decision notes: 1',
      'Flag messages and comments: 2',
      'Licence applications (tax check and information requests): 1',
      'Licence conditions: 1',
      'Portal registrations: 2',
      "The subject's name, email, date of birth and phone",
      'Files removed from storage: 4',
      'Check results redacted: 1',
      'Sign-in closed',
    ]);
    expect(lines.join(' ')).not.toMatch(/_/);
  });
});
