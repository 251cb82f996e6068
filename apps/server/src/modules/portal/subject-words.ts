import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  type CaseState,
  isActivityKindCode,
  isCaseActivityState,
  isCaseState,
} from '@kestrel/domain';

/** A case's state as the person being checked reads it. */
export const SUBJECT_CASE_STATE_WORDS: Record<CaseState, string> = {
  pending: 'Not started',
  // held for the organisation's payment (issue 30): nothing is asked of the person yet
  'awaiting-payment': 'Not started',
  'awaiting-subject': 'Waiting for you',
  'in-progress': 'Being checked',
  'pending-case-decision': 'Being reviewed',
  complete: 'Complete',
  cancelled: 'Cancelled',
};

/** An activity's state as the person being checked reads it. */
export const SUBJECT_ACTIVITY_STATE_WORDS: Record<CaseActivityState, string> = {
  'ca-pending': 'Not started',
  'ca-awaiting-subject': 'Waiting for you',
  'ca-awaiting-agent': 'Being checked',
  'ca-awaiting-ops': 'Being checked',
  'ca-in-progress': 'Being checked',
  'ca-pending-activity-decision': 'Being reviewed',
  'ca-complete': 'Complete',
  'ca-cancelled': 'Cancelled',
  'ca-error-initiating': 'Being checked',
};

export const caseStateWords = (s: string) => (isCaseState(s) ? SUBJECT_CASE_STATE_WORDS[s] : s);
export const activityStateWords = (s: string) =>
  isCaseActivityState(s) ? SUBJECT_ACTIVITY_STATE_WORDS[s] : s;

/** The name of an activity kind (its activity type's code), or the type's own name. */
export const kindName = (code: string, fallback: string) =>
  isActivityKindCode(code) ? ACTIVITY_KINDS[code].name : fallback;
