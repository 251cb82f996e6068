/**
 * Case states (spec point 4), and 'awaiting-payment' (issue 30): a case charged per case whose
 * charge has not succeeded yet (declined, no card, or still processing). Its subject's invitation
 * waits; it is never derived from the activities: the payment puts a case in it and takes it out.
 */
export const CASE_STATES = [
  'pending',
  'awaiting-payment',
  'awaiting-subject',
  'in-progress',
  'pending-case-decision',
  'complete',
  'cancelled',
] as const;
export type CaseState = (typeof CASE_STATES)[number];

/** Case activity states (spec point 4). */
export const CASE_ACTIVITY_STATES = [
  'ca-pending',
  'ca-awaiting-subject',
  'ca-awaiting-agent',
  'ca-awaiting-ops',
  'ca-in-progress',
  'ca-pending-activity-decision',
  'ca-complete',
  'ca-cancelled',
  'ca-error-initiating',
] as const;
export type CaseActivityState = (typeof CASE_ACTIVITY_STATES)[number];

export const CASE_STATE_LABELS: Record<CaseState, string> = {
  pending: 'Pending',
  'awaiting-payment': 'Awaiting payment',
  'awaiting-subject': 'Awaiting subject',
  'in-progress': 'In progress',
  'pending-case-decision': 'Pending case decision',
  complete: 'Complete',
  cancelled: 'Cancelled',
};

export const CASE_ACTIVITY_STATE_LABELS: Record<CaseActivityState, string> = {
  'ca-pending': 'Pending',
  'ca-awaiting-subject': 'Awaiting subject',
  'ca-awaiting-agent': 'Awaiting agent',
  'ca-awaiting-ops': 'Awaiting ops',
  'ca-in-progress': 'In progress',
  'ca-pending-activity-decision': 'Pending activity decision',
  'ca-complete': 'Complete',
  'ca-cancelled': 'Cancelled',
  'ca-error-initiating': 'Error initiating',
};

/**
 * Allowed case moves. Open states move freely among themselves (the derived state follows the
 * activities); a new case's charge holds it in 'awaiting-payment' and its success releases it to
 * the derived state; only a recorded decision completes a case; complete and cancelled are final.
 */
export const CASE_TRANSITIONS: Record<CaseState, readonly CaseState[]> = {
  pending: [
    'awaiting-payment',
    'awaiting-subject',
    'in-progress',
    'pending-case-decision',
    'cancelled',
  ],
  'awaiting-payment': [
    'pending',
    'awaiting-subject',
    'in-progress',
    'pending-case-decision',
    'cancelled',
  ],
  'awaiting-subject': [
    'pending',
    'awaiting-payment',
    'in-progress',
    'pending-case-decision',
    'cancelled',
  ],
  'in-progress': [
    'pending',
    'awaiting-payment',
    'awaiting-subject',
    'pending-case-decision',
    'cancelled',
  ],
  'pending-case-decision': ['awaiting-subject', 'in-progress', 'complete', 'cancelled'],
  complete: [],
  cancelled: [],
};

const WORKING: readonly CaseActivityState[] = [
  'ca-awaiting-subject',
  'ca-awaiting-agent',
  'ca-awaiting-ops',
  'ca-in-progress',
];
const others = (self: CaseActivityState) => WORKING.filter((s) => s !== self);

/**
 * Allowed activity moves. Starting can fail (error-initiating, which may be retried); working
 * states move among themselves and to a decision or an outcome; complete and cancelled are final.
 */
export const CASE_ACTIVITY_TRANSITIONS: Record<CaseActivityState, readonly CaseActivityState[]> = {
  'ca-pending': [...WORKING, 'ca-error-initiating', 'ca-cancelled'],
  'ca-error-initiating': ['ca-pending', ...WORKING, 'ca-cancelled'],
  'ca-awaiting-subject': [
    ...others('ca-awaiting-subject'),
    'ca-pending-activity-decision',
    'ca-complete',
    'ca-cancelled',
  ],
  'ca-awaiting-agent': [
    ...others('ca-awaiting-agent'),
    'ca-pending-activity-decision',
    'ca-complete',
    'ca-cancelled',
  ],
  'ca-awaiting-ops': [
    ...others('ca-awaiting-ops'),
    'ca-pending-activity-decision',
    'ca-complete',
    'ca-cancelled',
  ],
  'ca-in-progress': [
    ...others('ca-in-progress'),
    'ca-pending-activity-decision',
    'ca-complete',
    'ca-cancelled',
    // A check the subject submitted is in progress while the engine starts it with its provider;
    // a start that fails is an error (issue 17), retried automatically and by operations.
    'ca-error-initiating',
  ],
  // a decision may also send the activity back to its subject (`sendBackRefusal`)
  'ca-pending-activity-decision': [
    'ca-awaiting-subject',
    'ca-in-progress',
    'ca-complete',
    'ca-cancelled',
  ],
  'ca-complete': [],
  'ca-cancelled': [],
};

/** True when a case may move from one state to another (a move to itself is not a move). */
export function canTransitionCase(from: CaseState, to: CaseState): boolean {
  return CASE_TRANSITIONS[from].includes(to);
}

/** True when an activity may move from one state to another. */
export function canTransitionActivity(from: CaseActivityState, to: CaseActivityState): boolean {
  return CASE_ACTIVITY_TRANSITIONS[from].includes(to);
}

export function isCaseState(value: string): value is CaseState {
  return (CASE_STATES as readonly string[]).includes(value);
}

export function isCaseActivityState(value: string): value is CaseActivityState {
  return (CASE_ACTIVITY_STATES as readonly string[]).includes(value);
}

/**
 * The case state that follows from its activities when no explicit action (cancel, decision)
 * applies, checked in this order:
 * - no activities, or all still pending: pending;
 * - all cancelled: cancelled;
 * - all finished (complete or cancelled): pending-case-decision;
 * - any waiting for the subject: awaiting-subject (the subject is what holds the case up);
 * - otherwise (some working, awaiting agent or ops, a decision, an error, or a mix of finished
 *   and pending): in-progress.
 */
export function deriveCaseState(activityStates: readonly CaseActivityState[]): CaseState {
  const all = (...states: CaseActivityState[]) => activityStates.every((s) => states.includes(s));
  if (all('ca-pending')) return 'pending';
  if (all('ca-cancelled')) return 'cancelled';
  if (all('ca-complete', 'ca-cancelled')) return 'pending-case-decision';
  if (activityStates.includes('ca-awaiting-subject')) return 'awaiting-subject';
  return 'in-progress';
}

/** Open (not finished) activity states. */
export function isActivityOpen(state: string): boolean {
  return state !== 'ca-complete' && state !== 'ca-cancelled';
}

/** Open (not finished) case states: a subject sees its open cases only. */
export function isCaseOpen(state: string): boolean {
  return state !== 'complete' && state !== 'cancelled';
}

/**
 * Case states in which the subject still has its part to do (the portal is not submitted): its
 * case data may change. Once nothing waits for the subject, the case counts as submitted and the
 * subject may only read it. A case awaiting its payment has not been handed to the subject yet:
 * it is not submitted either.
 */
export const SUBJECT_EDITABLE_CASE_STATES: readonly CaseState[] = [
  'pending',
  'awaiting-payment',
  'awaiting-subject',
];

/** The portal progress a case's submission records (Review & Submit done). */
export const PORTAL_SUBMITTED_SECTION = 'review';

/**
 * True once the subject has handed the case over: nothing waits for them in the portal (the
 * case is no longer pending or awaiting them), or they submitted it. A submitted case that later
 * waits for the subject again (a provider's top-up demand) stays submitted: its portal does not
 * reopen, and its data cannot change under the application already sent.
 */
export function isCaseSubmitted(c: {
  state: string;
  portalLastCompletedSection: string | null;
}): boolean {
  return (
    c.portalLastCompletedSection === PORTAL_SUBMITTED_SECTION ||
    !(SUBJECT_EDITABLE_CASE_STATES as readonly string[]).includes(c.state)
  );
}

/**
 * Activity states that wait for staff (the customer's agent or operations, or their decision):
 * the only ones from which staff may send an activity back to its subject.
 */
export const SEND_BACK_STATES: readonly CaseActivityState[] = [
  'ca-awaiting-agent',
  'ca-awaiting-ops',
  'ca-pending-activity-decision',
];

/** Our own wording: why an activity cannot be sent back to its subject (400 `{state: [...]}`). */
export const SEND_BACK_MESSAGES = {
  noSection:
    'This check has nothing the person fills in: it cannot be sent back to them to change.',
  ended: 'This check has ended: it cannot be sent back to the person.',
  withProvider:
    'This check has been sent to its provider: it can no longer be sent back to the person.',
  notWaiting: 'Only a check waiting for staff can be sent back to the person.',
} as const;

/**
 * True once anything of the activity has gone to (or come from) its provider: the provider's
 * reference, or any exchange on its log (`processing_data`, the check engine's shape) other than
 * a price-list top-up (which is ours). An activity no provider runs, or not started, has none.
 */
export function providerHasActivity(processing: unknown): boolean {
  if (processing === null || typeof processing !== 'object') return false;
  const { reference, events } = processing as { reference?: unknown; events?: unknown };
  if (typeof reference === 'string' && reference !== '') return true;
  return (
    Array.isArray(events) &&
    events.some(
      (e: unknown) =>
        e !== null && typeof e === 'object' && (e as { type?: unknown }).type !== 'top-up',
    )
  );
}

/**
 * Staff sending an activity back to its subject (as DBS e-bulk lets the countersignatory or ID
 * checker return an application for correction before it is sent): allowed only while the
 * activity waits for staff (SEND_BACK_STATES) and nothing of it has gone to a provider, and only
 * for a kind the subject fills in (a portal section). Null when allowed, else the refusal.
 */
export function sendBackRefusal(a: {
  state: string;
  hasPortalSection: boolean;
  processing: unknown;
}): string | null {
  if (!a.hasPortalSection) return SEND_BACK_MESSAGES.noSection;
  if (!isActivityOpen(a.state)) return SEND_BACK_MESSAGES.ended;
  if (providerHasActivity(a.processing)) return SEND_BACK_MESSAGES.withProvider;
  if (!(SEND_BACK_STATES as readonly string[]).includes(a.state)) {
    return SEND_BACK_MESSAGES.notWaiting;
  }
  return null;
}
