import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import {
  type IdvCallbackEvent,
  type IdvNameMismatchReason,
  type IdvPerson,
  type IdvProvider,
  IdvProviderError,
  type IdvResult,
  type IdvSession,
  type IdvSessionRequest,
} from './provider.js';
import { signIdvCallback } from './signature.js';

/** Where the simulator's own pages are served (modules/online-idv registers them). */
export const IDV_SIMULATOR_PATH = '/idv-simulator';

/**
 * What the person's surname (as Kestrel sent it, case and spaces ignored) makes the simulator
 * answer, first match wins. Documented in README.md beside this file; anything else passes.
 */
export const SIMULATOR_OUTCOMES = [
  {
    prefix: 'fail',
    outcome: 'failed',
    reason: 'Your identity document could not be verified.',
  },
  { prefix: 'mismatchshort', outcome: 'mismatch', reason: 'document_short_name' },
  { prefix: 'mismatchaccount', outcome: 'mismatch', reason: 'account_name_incorrect' },
  { prefix: 'mismatchother', outcome: 'mismatch', reason: 'other' },
  { prefix: 'mismatch', outcome: 'mismatch', reason: 'document_previous_name' },
  { prefix: 'bank', outcome: 'passed-bank', reason: null },
  { prefix: 'branch', outcome: 'passed-branch', reason: null },
  { prefix: 'nortw', outcome: 'passed-no-rtw', reason: null },
  { prefix: 'nodbs', outcome: 'passed-no-dbs', reason: null },
] as const;

type Outcome = (typeof SIMULATOR_OUTCOMES)[number]['outcome'] | 'passed';

/** The outcome and its reason (a failure's words, a name mismatch's code) for a person. */
export function simulatedOutcome(person: IdvPerson): { outcome: Outcome; reason: string | null } {
  const surname = person.surname.toLowerCase().replace(/\s+/g, '');
  const hit = SIMULATOR_OUTCOMES.find((o) => surname.startsWith(o.prefix));
  return hit ? { outcome: hit.outcome, reason: hit.reason } : { outcome: 'passed', reason: null };
}

/** The address the simulator "verifies" for everyone (a real provider reads it from its sources). */
export const SIMULATED_ADDRESS = {
  line_one: '10 Verified Street',
  line_two: '',
  town: 'London',
  postcode: 'SW1A 1AA',
  country: 'GBR',
} as const;
/** The date of birth given when Kestrel sent none. */
export const SIMULATED_DOB = '1990-01-01';

/** The name the simulated documents carry when it differs from the one sent (a mismatch). */
function documentNameOf(
  p: { forename: string; middlename: string; surname: string },
  reason: IdvNameMismatchReason,
): string {
  if (reason === 'document_short_name') return `${p.forename.slice(0, 3)} ${p.surname}`;
  if (reason === 'document_previous_name') return `${p.forename} Maidenname`;
  return `${p.forename} ${p.middlename ? `${p.middlename} ` : ''}${p.surname}-Other`.trim();
}

/** A session the simulator holds (in this process's memory: sessions vanish on restart). */
export interface SimulatedSession {
  id: string;
  request: IdvSessionRequest;
  result: IdvResult | null;
}

export interface IdvSimulatorOptions {
  /** Signs its callbacks (IDV_CALLBACK_SECRET, else the installation's simulator secret). */
  callbackSecret: string;
  /** The provider's clock (results' completion times). */
  clock: Clock;
  /** The app's clock, which its callbacks are signed at (defaults to `clock`). */
  signingClock?: Clock;
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The date `years` before `d` (YYYY-MM-DD). */
function yearsBefore(d: Date, years: number): string {
  const x = new Date(d.getTime());
  x.setUTCFullYear(x.getUTCFullYear() - years);
  return isoDay(x);
}

/**
 * The default provider: deterministic, no network. Its person-facing pages (served by the app
 * under IDV_SIMULATOR_PATH, at the origin of the session's callback address: modules/online-idv/
 * simulator.routes.ts) call `finish`.
 */
export class IdvSimulator implements IdvProvider {
  readonly name = 'simulator';
  private readonly sessions = new Map<string, SimulatedSession>();

  constructor(private readonly opts: IdvSimulatorOptions) {}

  async createSession(request: IdvSessionRequest): Promise<IdvSession> {
    const id = `sim_${randomBytes(12).toString('hex')}`;
    this.sessions.set(id, { id, request, result: null });
    const base = new URL(request.callbackUrl).origin;
    return { id, url: `${base}${IDV_SIMULATOR_PATH}/sessions/${id}/` };
  }

  async fetchResult(sessionId: string): Promise<IdvResult | null> {
    const session = this.sessions.get(sessionId);
    // a restart forgets sessions: not an outage, the person starts again
    if (!session) throw new IdvProviderError(`Unknown session ${sessionId}`, false, 404);
    return session.result;
  }

  /** A session by id (the simulator's pages), or null. */
  session(id: string): SimulatedSession | null {
    return this.sessions.get(id) ?? null;
  }

  /**
   * The person completes the check: the result the test data picks (see SIMULATOR_OUTCOMES),
   * kept for `fetchResult`, and the signed callback to deliver. Finishing twice gives the same
   * result and the same event id (a redelivery).
   */
  finish(id: string): { result: IdvResult; body: string; signature: string } {
    const session = this.sessions.get(id);
    if (!session) throw new IdvProviderError(`Unknown session ${id}`);
    const now = this.opts.clock.now();
    session.result ??= this.resultOf(session, now);
    const event: IdvCallbackEvent = { id: `evt_${id}`, result: session.result };
    const body = JSON.stringify(event);
    return {
      result: session.result,
      body,
      signature: signIdvCallback(
        this.opts.callbackSecret,
        body,
        (this.opts.signingClock ?? this.opts.clock).now(),
      ),
    };
  }

  private resultOf(session: SimulatedSession, now: Date): IdvResult {
    const { person, level, reference } = session.request;
    const { outcome, reason } = simulatedOutcome(person);
    const base = {
      session: session.id,
      reference,
      ibv_verified: false,
      ibv_session: null,
      name_mismatch: null,
      completed_at: now.toISOString(),
    };
    if (outcome === 'failed') {
      return {
        ...base,
        outcome: 'failed',
        level_of_assurance: null,
        schemes: [
          { name: 'DBS', requirements_met: false },
          { name: 'RTW', requirements_met: false },
        ],
        person: null,
        address: null,
        failure_reason: reason,
        route: null,
      };
    }
    const bank = outcome === 'passed-bank';
    const verifiedPerson = {
      forename: person.forename || 'Sam',
      middlename: person.middlename,
      surname: person.surname || 'Simulated',
      dob: person.dob ?? SIMULATED_DOB,
    };
    return {
      ...base,
      outcome: 'passed',
      ibv_verified: bank,
      ibv_session: bank ? `ibv_${session.id.slice(4)}` : null,
      level_of_assurance: level,
      schemes: [
        // a bank-verified identity is not a document check: the schemes' requirements stay unmet
        { name: 'DBS', requirements_met: !bank && outcome !== 'passed-no-dbs' },
        { name: 'RTW', requirements_met: !bank && outcome !== 'passed-no-rtw' },
      ],
      person: verifiedPerson,
      address: { ...SIMULATED_ADDRESS, from_date: yearsBefore(now, 3) },
      failure_reason: null,
      route: bank ? 'bank' : outcome === 'passed-branch' ? 'post-office' : 'digital',
      name_mismatch:
        outcome === 'mismatch'
          ? {
              reason: (reason ?? 'other') as IdvNameMismatchReason,
              document_name: documentNameOf(
                verifiedPerson,
                (reason ?? 'other') as IdvNameMismatchReason,
              ),
            }
          : null,
    };
  }
}
