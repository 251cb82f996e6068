import {
  ACTIVITY_KINDS,
  type CaseActivityState,
  canTransitionActivity,
  isActivityKindCode,
  isCaseActivityState,
} from '@kestrel/domain';
import { ValidationError } from '../../platform/errors.js';
import type { caseActivities } from './activities.table.js';

/*
 * The activity's state machine as the server applies it (the domain's transitions): its content
 * type, how a stored state is read, the refusal of a move, and the first state of a new one.
 */

export type ActivityRow = typeof caseActivities.$inferSelect;
export const ACTIVITY_CT = 'cases.caseactivity';

/** A stored activity state, read (an unknown one is a bug, not an input error). */
export const activityStateOf = (s: string): CaseActivityState => {
  if (!isCaseActivityState(s)) throw new Error(`unknown activity state ${s}`);
  return s;
};

export const activityMoveError = (from: string, to: string) =>
  ValidationError.of('state', `Cannot change an activity from '${from}' to '${to}'.`);

/**
 * The first state of a new activity: the subject's turn when the portal has its section, or when
 * the check engine runs it (it starts on the subject's Review & Submit: a knowledge test's
 * invitation, a licence check from the driver-data section); else operations'.
 */
export function initialActivityState(code: string): CaseActivityState {
  const kind = isActivityKindCode(code) ? ACTIVITY_KINDS[code] : null;
  const target: CaseActivityState =
    kind && (kind.portalSection !== null || 'engine' in kind)
      ? 'ca-awaiting-subject'
      : 'ca-awaiting-ops';
  if (!canTransitionActivity('ca-pending', target)) throw activityMoveError('ca-pending', target);
  return target;
}
