import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import {
  aborted,
  type KnowledgeTestProvider,
  ProviderError,
  TEST_PLATFORM,
  type TestCandidate,
  type TestInvitation,
  type TestInvitationRequest,
  type TestResult,
} from './provider.js';
import { TEST_SIGNATURE_HEADER, testSignatureHeader } from './signature.js';

/*
 * The test platform's deterministic simulator (README.md): the outcome follows a tag in the
 * candidate's email (`+kt-fail`, `+kt-never`, ...); a candidate finishes the test one simulated
 * day after the invitation. Everything an answer says is derived from the invitation id (its
 * outcome and invitation time are in it), so it reads the same after a restart; the candidate's
 * intro fields are remembered while the process runs.
 */

export type TestOutcome = 'pass' | 'fail' | 'never';
const LETTER: Record<TestOutcome, string> = { pass: 'P', fail: 'F', never: 'N' };

export const SIMULATED_TEST_URL = 'https://knowledge-test.example/take/';
export const SIMULATED_RESULTS_URL = 'https://knowledge-test.example/results/';

/** The categories of the simulated test: name and points available. */
const CATEGORIES: readonly [string, number][] = [
  ['Highway Code', 10],
  ['Safeguarding and equality', 8],
  ['Local knowledge', 12],
  ['Licensing conditions', 10],
];
/** Points scored per category for a pass (34 of 40: 85%) and a fail (18 of 40: 45%). */
const SCORED: Record<'pass' | 'fail', readonly number[]> = {
  pass: [9, 7, 9, 9],
  fail: [6, 3, 4, 5],
};

/** The outcome the simulator gives a candidate (README's table). */
export function outcomeOf(c: TestCandidate): TestOutcome {
  const email = c.email.toLowerCase();
  if (email.includes('+kt-fail')) return 'fail';
  if (email.includes('+kt-never')) return 'never';
  return 'pass';
}

export interface TestPlatformSimulatorOptions {
  clock: Clock;
  /** Signs the callbacks it makes (callbackFor). */
  callbackSecret: string;
  /** The time its callbacks are signed at (the receiver's "now"); default `clock`. */
  signingClock?: Clock;
  /** The length of a simulated day in ms (the test is done one day after the invitation). */
  dayMs?: number;
}

export class TestPlatformSimulator implements KnowledgeTestProvider {
  readonly name = TEST_PLATFORM;
  private readonly byReference = new Map<string, string>();
  private readonly candidates = new Map<string, TestCandidate>();
  private readonly flaky = new Set<string>();
  private events = 0;

  constructor(private readonly options: TestPlatformSimulatorOptions) {}

  private get dayMs() {
    return this.options.dayMs ?? 24 * 60 * 60 * 1000;
  }

  async invite(request: TestInvitationRequest, signal: AbortSignal): Promise<TestInvitation> {
    if (signal.aborted) return aborted(signal);
    const email = request.candidate.email.toLowerCase();
    if (email.includes('+kt-timeout')) return aborted(signal);
    if (email.includes('+kt-outage'))
      throw new ProviderError('The provider answered 503.', true, 503);
    if (email.includes('+kt-flaky') && !this.flaky.has(request.reference)) {
      this.flaky.add(request.reference);
      throw new ProviderError('The provider answered 503.', true, 503);
    }
    if (email.includes('+kt-reject') || !request.candidate.email.includes('@')) {
      throw new ProviderError('The provider answered 400.', false, 400);
    }
    // the same reference: the same invitation (idempotent)
    let id = this.byReference.get(request.reference);
    if (!id) {
      const at = this.options.clock.now().getTime();
      const hash = createHash('sha256').update(request.reference).digest('hex').slice(0, 8);
      id = `KT-${LETTER[outcomeOf(request.candidate)]}-${at.toString(36)}-${hash}`;
      this.byReference.set(request.reference, id);
    }
    this.candidates.set(id, request.candidate);
    return this.at(id);
  }

  async invitation(invitationId: string, signal: AbortSignal): Promise<TestInvitation> {
    if (signal.aborted) return aborted(signal);
    return this.at(invitationId);
  }

  /** A signed callback of the invitation as it stands now: the body and its headers. */
  callbackFor(
    invitationId: string,
    eventId = `${invitationId}-${++this.events}`,
  ): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify({
      event_id: eventId,
      reference: invitationId,
      ...this.at(invitationId),
    });
    const t = Math.floor((this.options.signingClock ?? this.options.clock).now().getTime() / 1000);
    return {
      body,
      headers: {
        'content-type': 'application/json',
        [TEST_SIGNATURE_HEADER]: testSignatureHeader(this.options.callbackSecret, t, body),
      },
    };
  }

  private at(id: string): TestInvitation {
    const m = /^KT-([PFN])-([0-9a-z]+)-([0-9a-f]{8})$/.exec(id);
    if (!m) throw new ProviderError('Unknown invitation.', false, 404);
    const outcome = (Object.keys(LETTER) as TestOutcome[]).find((o) => LETTER[o] === m[1]);
    const invitedAt = Number.parseInt(m[2] ?? '0', 36);
    if (!outcome) throw new ProviderError('Unknown invitation.', false, 404);
    const done =
      outcome !== 'never' && this.options.clock.now().getTime() >= invitedAt + this.dayMs;
    return {
      invitation_id: id,
      status: done ? 'completed' : 'invited',
      test_url: `${SIMULATED_TEST_URL}${id}`,
      invited_at: new Date(invitedAt).toISOString(),
      result: done ? this.result(id, outcome, invitedAt) : null,
    };
  }

  private result(id: string, outcome: 'pass' | 'fail', invitedAt: number): TestResult {
    const c = this.candidates.get(id);
    // taken on the simulated day, finished exactly at its end; 23 min 40 s (a pass) or 31 min
    const duration = outcome === 'pass' ? 1420 : 1860;
    const finished = invitedAt + this.dayMs;
    const started = finished - Math.min(duration * 1000, this.dayMs);
    const scored = SCORED[outcome];
    const categories = CATEGORIES.map(([name, available], i) => {
      const points = scored[i] ?? 0;
      return {
        name,
        percentage: Math.round((points / available) * 100),
        points_scored: points,
        points_available: available,
      };
    });
    const total = categories.reduce((n, x) => n + x.points_scored, 0);
    const available = categories.reduce((n, x) => n + x.points_available, 0);
    return {
      passed: outcome === 'pass',
      percentage: Math.round((total / available) * 100),
      points_scored: total,
      points_available: available,
      time_started: new Date(started).toISOString(),
      time_finished: new Date(finished).toISOString(),
      duration_seconds: duration,
      intro: {
        first_name: c?.first_name ?? '',
        last_name: c?.last_name ?? '',
        email: c?.email ?? '',
        extra_info: 'Private hire driver',
        extra_info2: 'New licence application',
      },
      category_results: categories,
      results_url: `${SIMULATED_RESULTS_URL}${id}`,
    };
  }
}
