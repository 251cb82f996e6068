import type { SubjectCaseOut, SubjectConsentOut } from '@kestrel/domain';

// Answers of the subject API (contracts subjectCaseOut and subjectConsentOut) for the tests.

export const page = <T>(results: T[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

export const subjectCase = (over: Partial<SubjectCaseOut> = {}): SubjectCaseOut => ({
  id: 11,
  customer: { id: 1, name: 'Acme Care' },
  state: 'awaiting-subject',
  state_display: 'Awaiting subject',
  created_at: '2026-11-20T09:00:00.000Z',
  submitted: false,
  progress: { completed: 2, total: 8, percent: 25, next: 'address-history' },
  needs: ['Address history', 'Documents'],
  next_step: {
    label: 'Continue with your address history',
    section: 'address-history',
    payment_intent: null,
  },
  case_activities: [
    {
      id: 101,
      activity_type: { code: 'basic-details', code_display: 'Basic details' },
      state: 'ca-complete',
      state_display: 'Complete',
    },
    {
      id: 102,
      activity_type: { code: 'address-history', code_display: 'Address history' },
      state: 'ca-awaiting-subject',
      state_display: 'Awaiting subject',
    },
  ],
  ...over,
});

export const consent = (over: Partial<SubjectConsentOut> = {}): SubjectConsentOut => ({
  id: 31,
  case: 11,
  case_activity: 102,
  activity_type_name: 'Driving licence check',
  customer_name: 'Acme Care',
  kind: 'driver-data',
  kind_display: 'Driving licence and driver data checks (DVLA mandate)',
  given_at: '2023-12-01T10:00:00.000Z',
  expires_at: '2026-12-01T10:00:00.000Z',
  withdrawn_at: null,
  status: 'active',
  ...over,
});
