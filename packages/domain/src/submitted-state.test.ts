import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_KIND_CODES,
  ACTIVITY_KINDS,
  type ActivityKind,
  submittedActivityState,
} from './activity-kinds.js';
import { canTransitionActivity } from './states.js';

describe('what the subject’s Review & Submit does to each kind (issue 27, part 3)', () => {
  it.each([
    ['basic-details', 'ca-complete'],
    ['address-history', 'ca-complete'],
    ['document-collection', 'ca-awaiting-ops'],
    ['dbs-basic', 'ca-in-progress'],
    ['not-a-kind', 'ca-in-progress'],
  ])('%s goes to %s', (code, state) => {
    expect(submittedActivityState(code)).toBe(state);
  });

  it('is a move the domain allows from the subject’s turn, for every kind with a section', () => {
    for (const code of ACTIVITY_KIND_CODES) {
      if (ACTIVITY_KINDS[code].portalSection === null) continue;
      expect(canTransitionActivity('ca-awaiting-subject', submittedActivityState(code))).toBe(true);
    }
  });

  it('never ends a kind the engine runs on submission', () => {
    for (const code of ACTIVITY_KIND_CODES) {
      const kind: ActivityKind = ACTIVITY_KINDS[code];
      if (kind.engine) expect(submittedActivityState(code)).toBe('ca-in-progress');
    }
  });
});
