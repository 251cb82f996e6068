import { createHash } from 'node:crypto';
import type { ApplicationUpdate } from '@kestrel/domain';
import type { Clock } from '../../platform/clock.js';
import { signWebhook } from '../../platform/webhooks.js';
import {
  aborted,
  type DisclosureApplication,
  type DisclosureLevel,
  type DisclosureProvider,
  ProviderError,
} from './provider.js';

/** The e-bulk refusal of a standard or enhanced application nobody countersigned. */
export const COUNTERSIGNATURE_REQUIRED =
  'A standard or enhanced application needs the identity verified and a countersignature.';

/*
 * A deterministic criminal-record provider (the default). An application's outcome follows from
 * the applicant's surname (README.md lists the test data) and its progress from the provider's
 * clock (the app's clock): the stages complete over simulated days after submission, so moving
 * the clock moves the application. A simulated day lasts `dayMs` of that clock (a real day by
 * default; shorter on the demo, CHECKS_SIMULATOR_DAY_SECONDS), and each stage is dated the real
 * day it was reached, so the same code gives real timelines and a demo that answers in minutes. The reference encodes everything a status query needs, so the
 * simulator keeps no state but the first-attempt failures of FLAKY applicants.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

type Outcome = 'clear' | 'records-held' | 'barred-list-match' | 'cancelled';
const OUTCOME_LETTER: Record<Outcome, string> = {
  clear: 'C',
  'records-held': 'R',
  'barred-list-match': 'B',
  cancelled: 'X',
};
const LEVEL_LETTER: Record<DisclosureLevel, string> = { basic: 'B', standard: 'S', enhanced: 'E' };

/** The amount (pence) and reason of the top-up a TOPUP applicant's provider demands. */
export const SIMULATED_TOP_UP = { amount_pence: 1500, reason: 'Provider surcharge' } as const;

/** Days after submission at which each stage completes (null: not applicable). */
export function stageSchedule(
  level: DisclosureLevel,
  lists: boolean,
): Record<1 | 2 | 3 | 4 | 5, number | null> {
  if (level === 'basic') return { 1: 0, 2: 1, 3: null, 4: null, 5: 2 };
  if (level === 'standard') return { 1: 0, 2: 1, 3: lists ? 2 : null, 4: null, 5: 3 };
  return { 1: 0, 2: 1, 3: lists ? 2 : null, 4: 5, 5: 7 };
}

/**
 * Days after submission at which the certificate is assembled (the day before it is printed,
 * after every search) and despatched (the day it is printed, when the application completes).
 */
export function certificateSchedule(
  level: DisclosureLevel,
  lists: boolean,
): { assembled: number; despatched: number } {
  const printed = stageSchedule(level, lists)[5] ?? 0;
  return { assembled: printed - 1, despatched: printed };
}

interface Decoded {
  outcome: Outcome;
  level: DisclosureLevel;
  lists: ('adult' | 'child')[];
  /** A MANUAL applicant's certificate is a manual certificate (its 'manual certificate' flag). */
  manual: boolean;
  submittedAt: number;
  reference: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const digits = (s: string, n: number) =>
  BigInt(`0x${createHash('sha256').update(s).digest('hex')}`)
    .toString()
    .slice(0, n)
    .padStart(n, '0');

export interface DisclosureSimulatorOptions {
  name: 'dbs-basic' | 'ebulk';
  clock: Clock;
  /** Signs the callbacks it makes (callbackFor). */
  callbackSecret: string;
  /**
   * The time its callbacks are signed at (the receiver's "now"); default `clock`. Tests move the
   * provider's clock over simulated days while the app's stays (sessions would expire).
   */
  signingClock?: Clock;
  /** How long a simulated day lasts on `clock`, in milliseconds (default: a real day). */
  dayMs?: number;
}

export class DisclosureSimulator implements DisclosureProvider {
  readonly name: 'dbs-basic' | 'ebulk';
  private readonly failedOnce = new Set<string>();
  private readonly prefix: string;
  private readonly dayMs: number;
  private events = 0;

  constructor(private readonly options: DisclosureSimulatorOptions) {
    this.name = options.name;
    this.dayMs = options.dayMs && options.dayMs > 0 ? options.dayMs : DAY_MS;
    this.prefix = options.name === 'ebulk' ? 'EB' : 'BD';
  }

  async submit(app: DisclosureApplication, signal: AbortSignal): Promise<ApplicationUpdate> {
    const surname = app.applicant.surname.toUpperCase();
    if (surname.startsWith('TIMEOUT')) return aborted(signal);
    if (surname.startsWith('ERROR')) {
      throw new ProviderError('Service unavailable (503).', true, 503);
    }
    if (surname.startsWith('FLAKY') && !this.failedOnce.has(app.idempotency_key)) {
      this.failedOnce.add(app.idempotency_key);
      throw new ProviderError('Service unavailable (503).', true, 503);
    }
    if (app.level === 'basic' ? this.name !== 'dbs-basic' : this.name !== 'ebulk') {
      throw new ProviderError(`A ${app.level} check is not made here.`, false, 400);
    }
    if (app.level !== 'basic' && !app.identity_verification?.countersigned_by) {
      throw new ProviderError(COUNTERSIGNATURE_REQUIRED, false, 400);
    }
    const lists = app.level === 'enhanced' ? [...app.barred_lists].sort() : [];
    if (surname.startsWith('TOPUP') && !app.top_up_payment) {
      return {
        reference: `${this.prefix}-T-${digits(app.idempotency_key, 8)}`,
        status: 'top-up-required',
        stage: 0,
        stages: [],
        received_date: null,
        e_number: null,
        disclosure: null,
        barred_lists: [],
        top_up: { ...SIMULATED_TOP_UP },
      };
    }
    let outcome: Outcome = 'clear';
    if (surname.startsWith('RECORDS')) outcome = 'records-held';
    else if (surname.startsWith('BARRED') && lists.length > 0) outcome = 'barred-list-match';
    else if (surname.startsWith('CANCEL')) outcome = 'cancelled';
    const manual = surname.startsWith('MANUAL');
    const submittedAt = this.options.clock.now().getTime();
    const reference = [
      this.prefix,
      `${OUTCOME_LETTER[outcome]}${LEVEL_LETTER[app.level]}${lists.map((l) => l[0]).join('') || 'n'}${manual ? 'm' : ''}`,
      submittedAt.toString(36),
      digits(app.idempotency_key, 8),
    ].join('-');
    return this.at(this.decode(reference), submittedAt);
  }

  async status(reference: string, signal: AbortSignal): Promise<ApplicationUpdate> {
    if (signal.aborted) return aborted(signal);
    return this.at(this.decode(reference), this.options.clock.now().getTime());
  }

  /** A signed callback of the application's state now: the body and its headers. */
  callbackFor(
    reference: string,
    eventId = `${reference}-${++this.events}`,
  ): { body: string; headers: Record<string, string> } {
    const now = this.options.clock.now().getTime();
    const update = this.at(this.decode(reference), now);
    const body = JSON.stringify({ event_id: eventId, ...update });
    const t = Math.floor((this.options.signingClock ?? this.options.clock).now().getTime() / 1000);
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-kestrel-signature': signWebhook(this.options.callbackSecret, t, body),
      },
    };
  }

  private decode(reference: string): Decoded {
    const m = /^(BD|EB)-([CRBX])([BSE])([acn]+)(m?)-([0-9a-z]+)-(\d{8})$/.exec(reference);
    if (!m || m[1] !== this.prefix) throw new ProviderError('Unknown reference.', false, 404);
    const outcome = (Object.keys(OUTCOME_LETTER) as Outcome[]).find(
      (o) => OUTCOME_LETTER[o] === m[2],
    );
    const level = (Object.keys(LEVEL_LETTER) as DisclosureLevel[]).find(
      (l) => LEVEL_LETTER[l] === m[3],
    );
    if (!outcome || !level) throw new ProviderError('Unknown reference.', false, 404);
    const lists: ('adult' | 'child')[] = [];
    if (m[4]?.includes('a')) lists.push('adult');
    if (m[4]?.includes('c')) lists.push('child');
    return {
      outcome,
      level,
      lists,
      manual: m[5] === 'm',
      submittedAt: Number.parseInt(m[6] ?? '0', 36),
      reference,
    };
  }

  /** The application's state at `now`. */
  private at(d: Decoded, now: number): ApplicationUpdate {
    const elapsedDays = Math.floor((now - d.submittedAt) / this.dayMs);
    // the real day on which simulated day `due` after the submission began
    const dateOf = (due: number) => day(d.submittedAt + due * this.dayMs);
    const schedule = stageSchedule(d.level, d.lists.length > 0);
    const cancelled = d.outcome === 'cancelled' && elapsedDays >= 1;
    const stages = ([1, 2, 3, 4, 5] as const).map((stage) => {
      const due = schedule[stage];
      if (due === null) return { stage, status: 'not-applicable' as const, completed_date: null };
      const done = due <= elapsedDays && !(cancelled && stage > 1);
      return {
        stage,
        status: done ? ('complete' as const) : ('pending' as const),
        completed_date: done ? dateOf(due) : null,
      };
    });
    const reached = Math.max(
      0,
      ...stages.filter((s) => s.status === 'complete').map((s) => s.stage),
    );
    const complete = !cancelled && reached === 5;
    const listsDay = schedule[3];
    const listsSearched = listsDay !== null && listsDay <= elapsedDays && !cancelled;
    const certificate = certificateSchedule(d.level, d.lists.length > 0);
    const dayOf = (due: number) => (due <= elapsedDays && !cancelled ? dateOf(due) : null);
    return {
      reference: d.reference,
      status: cancelled ? 'cancelled' : complete ? 'complete' : 'in-progress',
      stage: reached,
      stages,
      received_date: day(d.submittedAt),
      e_number: this.name === 'ebulk' ? `E${digits(d.reference, 9)}` : null,
      certificate_assembled_date: dayOf(certificate.assembled),
      certificate_despatched_date: dayOf(certificate.despatched),
      disclosure:
        complete && d.outcome !== 'cancelled'
          ? {
              status: d.outcome,
              certificate_number: digits(`${d.reference}/certificate`, 12),
              issue_date: dateOf(schedule[5] ?? 0),
              manual_certificate: d.manual,
            }
          : null,
      barred_lists: listsSearched
        ? d.lists.map((list, i) => ({
            list,
            search_date: dateOf(listsDay ?? 0),
            result:
              d.outcome === 'barred-list-match' && i === 0
                ? ('match' as const)
                : ('no-match' as const),
          }))
        : [],
      top_up: null,
      cancelled_reason: cancelled ? 'Withdrawn by the applicant.' : null,
    };
  }
}
