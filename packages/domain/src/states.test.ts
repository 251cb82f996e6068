import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CASE_ACTIVITY_STATE_LABELS,
  CASE_ACTIVITY_STATES,
  CASE_ACTIVITY_TRANSITIONS,
  CASE_STATE_LABELS,
  CASE_STATES,
  CASE_TRANSITIONS,
  type CaseActivityState,
  canTransitionActivity,
  canTransitionCase,
  deriveCaseState,
  isActivityOpen,
  isCaseActivityState,
  isCaseOpen,
  isCaseState,
  isCaseSubmitted,
  providerHasActivity,
  SEND_BACK_MESSAGES,
  SEND_BACK_STATES,
  sendBackRefusal,
} from './states.js';

describe('state lists', () => {
  it('match the spec', () => {
    expect(CASE_STATES).toEqual([
      'pending',
      'awaiting-payment',
      'awaiting-subject',
      'in-progress',
      'pending-case-decision',
      'complete',
      'cancelled',
    ]);
    expect(CASE_ACTIVITY_STATES).toHaveLength(9);
    expect(Object.keys(CASE_STATE_LABELS)).toEqual([...CASE_STATES]);
    expect(Object.keys(CASE_ACTIVITY_STATE_LABELS)).toEqual([...CASE_ACTIVITY_STATES]);
    expect(CASE_ACTIVITY_STATE_LABELS['ca-error-initiating']).toBe('Error initiating');
    expect(CASE_STATE_LABELS['awaiting-payment']).toBe('Awaiting payment');
  });

  it('recognises state names', () => {
    expect(isCaseState('complete')).toBe(true);
    expect(isCaseState('ca-complete')).toBe(false);
    expect(isCaseActivityState('ca-complete')).toBe(true);
    expect(isCaseActivityState('done')).toBe(false);
  });

  it('only names known states in the transition tables, never a self-move', () => {
    for (const [from, tos] of Object.entries(CASE_TRANSITIONS)) {
      for (const to of tos) expect(isCaseState(to) && to !== from).toBe(true);
    }
    for (const [from, tos] of Object.entries(CASE_ACTIVITY_TRANSITIONS)) {
      for (const to of tos) expect(isCaseActivityState(to) && to !== from).toBe(true);
    }
  });
});

describe('transitions', () => {
  it.each([
    ['pending', 'in-progress', true],
    ['in-progress', 'pending-case-decision', true],
    ['pending-case-decision', 'complete', true],
    ['pending', 'complete', false],
    ['in-progress', 'complete', false],
    ['complete', 'pending', false],
    ['cancelled', 'in-progress', false],
    ['awaiting-subject', 'cancelled', true],
    ['pending', 'pending', false],
    // a new case's charge holds it; its success releases it to the derived state
    ['pending', 'awaiting-payment', true],
    ['awaiting-subject', 'awaiting-payment', true],
    ['awaiting-payment', 'awaiting-subject', true],
    ['awaiting-payment', 'cancelled', true],
    ['awaiting-payment', 'complete', false],
    ['complete', 'awaiting-payment', false],
  ] as const)('case %s → %s: %s', (from, to, allowed) => {
    expect(canTransitionCase(from, to)).toBe(allowed);
  });

  it.each([
    ['ca-pending', 'ca-awaiting-subject', true],
    ['ca-pending', 'ca-error-initiating', true],
    ['ca-error-initiating', 'ca-pending', true],
    ['ca-in-progress', 'ca-error-initiating', true],
    ['ca-awaiting-subject', 'ca-error-initiating', false],
    ['ca-pending', 'ca-complete', false],
    ['ca-awaiting-subject', 'ca-in-progress', true],
    ['ca-in-progress', 'ca-pending-activity-decision', true],
    ['ca-pending-activity-decision', 'ca-complete', true],
    ['ca-complete', 'ca-in-progress', false],
    ['ca-cancelled', 'ca-pending', false],
    ['ca-in-progress', 'ca-pending', false],
  ] as const)('activity %s → %s: %s', (from, to, allowed) => {
    expect(canTransitionActivity(from, to)).toBe(allowed);
  });

  // The moves the check engine makes (apps/server modules/checks): a refusal here would make
  // changeActivity refuse the engine's write.
  it.each([
    // a started check goes to its provider, or waits for countersigning or a top-up
    ['ca-pending', 'ca-in-progress'],
    ['ca-pending', 'ca-awaiting-agent'],
    ['ca-awaiting-agent', 'ca-in-progress'],
    ['ca-awaiting-subject', 'ca-awaiting-agent'],
    // the provider's answers, polls and callbacks
    ['ca-in-progress', 'ca-complete'],
    ['ca-in-progress', 'ca-cancelled'],
    ['ca-in-progress', 'ca-awaiting-subject'],
    ['ca-in-progress', 'ca-pending-activity-decision'],
    // a failed start, and its retry
    ['ca-in-progress', 'ca-error-initiating'],
    ['ca-error-initiating', 'ca-in-progress'],
    ['ca-error-initiating', 'ca-awaiting-subject'],
    // a declined top-up: the customer cancels
    ['ca-awaiting-subject', 'ca-cancelled'],
  ] as const)('the engine may move an activity %s → %s', (from, to) => {
    expect(canTransitionActivity(from, to)).toBe(true);
  });

  it.each([
    // complete and cancelled are final: no late answer or callback reopens them
    ['ca-complete', 'ca-in-progress'],
    ['ca-complete', 'ca-cancelled'],
    ['ca-complete', 'ca-error-initiating'],
    ['ca-cancelled', 'ca-in-progress'],
    ['ca-cancelled', 'ca-complete'],
    // only a start fails: a decision pending or a subject's payment is no provider error
    ['ca-pending-activity-decision', 'ca-error-initiating'],
    ['ca-awaiting-agent', 'ca-error-initiating'],
    ['ca-pending', 'ca-complete'],
  ] as const)('refuses the move %s → %s', (from, to) => {
    expect(canTransitionActivity(from, to)).toBe(false);
  });
});

describe('deriveCaseState', () => {
  it.each<[CaseActivityState[], string]>([
    [[], 'pending'],
    [['ca-pending', 'ca-pending'], 'pending'],
    [['ca-cancelled', 'ca-cancelled'], 'cancelled'],
    [['ca-complete', 'ca-cancelled'], 'pending-case-decision'],
    [['ca-complete'], 'pending-case-decision'],
    [['ca-awaiting-subject', 'ca-in-progress'], 'awaiting-subject'],
    [['ca-awaiting-subject', 'ca-complete'], 'awaiting-subject'],
    [['ca-awaiting-ops', 'ca-pending'], 'in-progress'],
    [['ca-pending-activity-decision', 'ca-complete'], 'in-progress'],
    [['ca-complete', 'ca-pending'], 'in-progress'],
    [['ca-error-initiating'], 'in-progress'],
  ])('%j → %s', (states, expected) => {
    expect(deriveCaseState(states)).toBe(expected);
  });

  it('never derives awaiting-payment (only the payment holds a case there)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CASE_ACTIVITY_STATES)), (states) => {
        expect(deriveCaseState(states)).not.toBe('awaiting-payment');
      }),
    );
  });

  it('is finished only when every activity is finished', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...CASE_ACTIVITY_STATES), { minLength: 1 }),
        (states) => {
          const derived = deriveCaseState(states);
          const finished = derived === 'cancelled' || derived === 'pending-case-decision';
          expect(finished).toBe(states.every((s) => !isActivityOpen(s)));
        },
      ),
    );
  });
});

describe('a case seen by its subject', () => {
  it('is open until complete or cancelled, and submitted once nothing waits for them', () => {
    expect(['pending', 'in-progress', 'complete', 'cancelled'].map(isCaseOpen)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(
      [
        'pending',
        'awaiting-payment',
        'awaiting-subject',
        'in-progress',
        'pending-case-decision',
      ].map((state) => isCaseSubmitted({ state, portalLastCompletedSection: 'address-history' })),
    ).toEqual([false, false, false, true, true]);
    // submitted once, a case waiting for its subject again (a top-up) stays submitted
    expect(
      isCaseSubmitted({ state: 'awaiting-subject', portalLastCompletedSection: 'review' }),
    ).toBe(true);
    expect(isCaseSubmitted({ state: 'pending', portalLastCompletedSection: null })).toBe(false);
  });
});

describe('staff sending an activity back to its subject', () => {
  const waiting = { hasPortalSection: true, processing: {} };

  it('is allowed while it waits for staff and no provider has it', () => {
    for (const state of SEND_BACK_STATES) {
      expect(sendBackRefusal({ ...waiting, state })).toBeNull();
      // every such state may move back to the subject
      expect(canTransitionActivity(state, 'ca-awaiting-subject')).toBe(true);
    }
    // the engine started it but waits for verification and countersigning: nothing sent yet
    const gated = {
      provider: 'ebulk',
      reference: null,
      idempotency_key: 'kestrel-ca-1',
      events: [],
    };
    expect(
      sendBackRefusal({ state: 'ca-awaiting-agent', hasPortalSection: true, processing: gated }),
    ).toBeNull();
    // a price-list top-up is ours, not the provider's
    expect(
      sendBackRefusal({
        state: 'ca-awaiting-agent',
        hasPortalSection: true,
        processing: { ...gated, events: [{ type: 'top-up', at: '', body: {} }] },
      }),
    ).toBeNull();
  });

  it('is refused once a provider has it, once it has ended, or when it waits for no one on staff', () => {
    const sent = { reference: 'EB-1', events: [] };
    expect(
      sendBackRefusal({ state: 'ca-awaiting-agent', hasPortalSection: true, processing: sent }),
    ).toBe(SEND_BACK_MESSAGES.withProvider);
    // an answer or a callback on the log, with no reference yet (a name mismatch to decide)
    for (const type of ['request', 'answer', 'callback', 'poll', 'error'])
      expect(
        sendBackRefusal({
          state: 'ca-pending-activity-decision',
          hasPortalSection: true,
          processing: { reference: null, events: [{ type }] },
        }),
      ).toBe(SEND_BACK_MESSAGES.withProvider);
    for (const state of ['ca-complete', 'ca-cancelled'])
      expect(sendBackRefusal({ ...waiting, state })).toBe(SEND_BACK_MESSAGES.ended);
    for (const state of [
      'ca-pending',
      'ca-awaiting-subject',
      'ca-in-progress',
      'ca-error-initiating',
    ])
      expect(sendBackRefusal({ ...waiting, state })).toBe(SEND_BACK_MESSAGES.notWaiting);
    expect(
      sendBackRefusal({ state: 'ca-awaiting-ops', hasPortalSection: false, processing: {} }),
    ).toBe(SEND_BACK_MESSAGES.noSection);
  });

  it('reads a provider log whatever it holds', () => {
    expect(providerHasActivity(null)).toBe(false);
    expect(providerHasActivity('x')).toBe(false);
    expect(providerHasActivity({})).toBe(false);
    expect(providerHasActivity({ reference: '' })).toBe(false);
    expect(providerHasActivity({ events: 'none' })).toBe(false);
    expect(providerHasActivity({ events: [null, 3] })).toBe(false);
    expect(providerHasActivity({ events: [{}] })).toBe(true);
    expect(providerHasActivity({ reference: 'BD-1' })).toBe(true);
  });
});
