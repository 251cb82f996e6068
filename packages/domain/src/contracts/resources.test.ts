import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  activityNoteOut,
  customerOut,
  dashboardOut,
  duplicatePairOut,
  flagOut,
  flagResolve,
  jobOut,
  maintenanceWindowRecordOut,
  opsFlagOut,
  outboxEmailOut,
  pageOut,
  profileUpdate,
  roleOut,
  subjectProfileUpdate,
} from '../index.js';

const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : z.flattenError(r.error).fieldErrors;
};

const at = '2026-01-01T00:00:00.000Z';
const subject = {
  id: 3,
  first_name: 'Ann',
  middlename: '',
  last_name: 'Lee',
  email: 'a@b.com',
  dob: null,
  phone_number: '',
  has_account: false,
  is_archived: false,
  archived_at: null,
  created_at: at,
  open_cases: 0,
};
const flag = {
  id: 1,
  case: 2,
  subject: null,
  kind: 'manual',
  message: 'Check the address',
  active: true,
  created_at: at,
  created_by_name: 'Ada',
  resolved_at: null,
  resolved_by_name: null,
  resolution_comment: '',
  subject_name: 'Ann Lee',
};

/** One valid answer of each contract. */
const samples: [string, z.ZodType, Record<string, unknown>][] = [
  [
    'customerOut',
    customerOut,
    {
      id: 1,
      name: 'Acme',
      demo_mode: false,
      is_active: true,
      created_at: at,
      brand: 'kestrel',
      contact_name: 'Ann Contact',
      contact_email: 'ann@acme.test',
      contact_phone: '0161 496 0000',
      entitlements: ['cycles'],
      activity_types: [1, 2],
      case_count: 3,
      cases_by_state: { 'c-in-progress': 3 },
      user_count: 2,
    },
  ],
  ['flagOut', flagOut, flag],
  ['opsFlagOut', opsFlagOut, { ...flag, customer: 1 }],
  [
    'maintenanceWindowRecordOut',
    maintenanceWindowRecordOut,
    { id: 1, start: at, end: at, warning_start: at, reason: '' },
  ],
  [
    'outboxEmailOut',
    outboxEmailOut,
    { id: 1, to: 'a@b.com', subject: 'Hi', text: 'Hello', html: null, created_at: at },
  ],
  [
    'jobOut',
    jobOut,
    {
      id: 'b3c1',
      name: 'send-email',
      state: 'failed',
      retry_count: 3,
      retry_limit: 3,
      created_on: at,
      start_after: at,
      started_on: at,
      completed_on: null,
      error: 'SMTP down',
      data_summary: 'to=a@b.com, subject=Hi',
    },
  ],
  [
    'activityNoteOut',
    activityNoteOut,
    { id: 1, actor_first_name: 'Ops', actor_last_name: 'Lee', timestamp: at, description: 'x' },
  ],
  [
    'roleOut',
    roleOut,
    { id: 1, name: 'Admin', permissions: ['cases.view_case'], built_in: true, user_count: 2 },
  ],
  [
    'duplicatePairOut',
    duplicatePairOut,
    { subject, duplicate: { ...subject, id: 4 }, reasons: ['email'] },
  ],
  [
    'dashboardOut',
    dashboardOut,
    {
      cases_by_state: {
        pending: 0,
        'awaiting-payment': 0,
        'awaiting-subject': 1,
        'in-progress': 0,
        'pending-case-decision': 0,
        complete: 2,
        cancelled: 0,
      },
      open_cases: 1,
      outstanding_activities: 0,
      flagged_cases: 0,
      active_flags: 0,
      completed_by_week: [{ week_start: '2025-12-29', count: 2 }],
      recent_audit: [],
    },
  ],
];

describe('the response contracts of the remaining resources', () => {
  it.each(samples)('%s takes a valid answer, in a page too', (_, schema, value) => {
    expect(schema.safeParse(value).success).toBe(true);
    expect(
      pageOut(schema).safeParse({ count: 1, next: null, previous: null, results: [value] }),
    ).toMatchObject({ success: true });
  });

  it.each(samples)(
    '%s fails an answer that drifts: a field more or less, a type',
    (_, schema, value) => {
      expect(schema.safeParse({ ...value, extra: 1 }).success).toBe(false);
      const [first, ...rest] = Object.keys(value);
      const missing = Object.fromEntries(rest.map((k) => [k, value[k]]));
      expect(first && schema.safeParse(missing).success).toBe(false);
      expect(schema.safeParse({ ...value, [first ?? 'id']: { not: 'this' } }).success).toBe(false);
    },
  );
});

describe('the request contracts of the remaining resources', () => {
  it('resolve a flag with a comment', () => {
    expect(messages(flagResolve, {})).toEqual({ comment: ['Required'] });
    expect(flagResolve.parse({ comment: ' Done ' })).toEqual({ comment: 'Done' });
  });

  it("check a subject's middle name with the name rule, and let it be cleared (point 5)", () => {
    expect(messages(subjectProfileUpdate, { middlename: 'J0' })).toEqual({
      middlename: ['Contains invalid characters'],
    });
    expect(messages(subjectProfileUpdate, { middlename: 'M'.repeat(61) })).toEqual({
      middlename: ['Max 60 characters'],
    });
    expect(subjectProfileUpdate.parse({ middlename: ' ' })).toEqual({ middlename: '' });
    expect(subjectProfileUpdate.parse({ middlename: "Mary-Ann O'Neil" })).toEqual({
      middlename: "Mary-Ann O'Neil",
    });
  });

  it('document the profile update as either kind of profile', () => {
    expect(profileUpdate.safeParse({ job_title: 'Clerk' }).success).toBe(true);
    expect(profileUpdate.safeParse({ dbs_email_notifications: true }).success).toBe(true);
    expect(profileUpdate.safeParse({ first_name: 'J0hn' }).success).toBe(false);
  });
});
