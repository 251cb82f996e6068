import type { Clock } from '../../platform/clock.js';
import {
  createRateLimiter,
  DVLA_REQUESTS_PER_SECOND,
  type LimiterClock,
  limited,
  RateLimited,
  type RateLimiter,
  realLimiterClock,
} from '../dvla/rate-limit.js';
import type { RequestOutcome } from '../dvla/simulator.js';
import { ProviderError } from '../errors.js';
import type { DavisCheck, DavisDriverIn, DavisEndorsement, DavisProvider } from './provider.js';

/*
 * A deterministic licence-checking service (the default): the licence number's first five
 * characters (the surname's, as the portal checks them) choose what its checks find (README.md).
 * Like the DVLA behind it, it answers 429 past 10 requests in a second (real time); the engine's
 * side (createDavisSimulator) keeps below it and waits a 429 out, as the real client does.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const DAVIS_TEST_DATA = {
  notFound: 'NOTFO',
  awaiting: 'AWAIT',
  manual: 'MANUA',
  unconfirmed: 'UNCON',
  endorsed: 'ENDOR',
  disqualified: 'DISQU',
  changes: 'CHANG',
  failOnce: 'FAILO',
  rateLimited: 'RATEL',
} as const;

/** Simulated days an AWAIT… driver's check waits for the DVLA, and a MANUA… one's DQ3 lasts. */
export const AWAITING_DAYS = 2;
export const DQ3_DAYS = 10;

interface Driver {
  id: string;
  input: DavisDriverIn;
  registeredAt: number;
  emailConfirmed: boolean;
  /** Checks answered Checked so far (re-checks of CHANG… add an endorsement each). */
  checks: number;
  checkedAt: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function createDavisService(o: {
  clock: Clock;
  dayMs?: number;
  limiterClock?: LimiterClock;
  /** Told of each request as it arrives (its limiter-clock time; the bench's rate figures). */
  onRequest?: (at: number, outcome: RequestOutcome) => void;
}) {
  const dayMs = o.dayMs ?? DAY_MS;
  const limiterClock = o.limiterClock ?? realLimiterClock;
  const drivers = new Map<string, Driver>();
  const byReference = new Map<string, Driver>();
  const failedOnce = new Set<string>();
  const rateLimited = new Map<string, number>();
  const recent: number[] = [];
  const counts = { requests: 0, tooMany: 0 };

  const admit = (number: string) => {
    const now = limiterClock.now();
    while (recent.length > 0 && (recent[0] ?? 0) <= now - 1000) recent.shift();
    counts.requests += 1;
    if (recent.length >= DVLA_REQUESTS_PER_SECOND) {
      counts.tooMany += 1;
      o.onRequest?.(now, 'over-the-rate');
      throw new RateLimited(1000 - (now - (recent[0] ?? now)));
    }
    recent.push(now);
    o.onRequest?.(now, 'admitted');
    if (number.startsWith(DAVIS_TEST_DATA.rateLimited)) {
      const n = rateLimited.get(number) ?? 0;
      rateLimited.set(number, n + 1);
      if (n < 2) {
        counts.tooMany += 1;
        throw new RateLimited(1000);
      }
    }
  };

  const today = () => o.clock.now().getTime();

  /** The driver's check as of now; `recheck` counts a new completed check. */
  const checkOf = (d: Driver, recheck: boolean): DavisCheck => {
    const number = d.input.licence_number.toUpperCase();
    const prefix = number.slice(0, 5);
    const now = today();
    const empty = {
      driver_id: d.id,
      checked_at: d.checkedAt,
      licence: null,
      address: null,
      endorsements: [],
      entitlements: [],
    };
    if (prefix === DAVIS_TEST_DATA.notFound) return { ...empty, status: 'NotFound' };
    if (prefix === DAVIS_TEST_DATA.unconfirmed && !d.emailConfirmed) {
      return { ...empty, status: 'EmailUnconfirmed' };
    }
    if (prefix === DAVIS_TEST_DATA.awaiting && now < d.registeredAt + AWAITING_DAYS * dayMs) {
      return { ...empty, status: 'AwaitingCheck' };
    }
    if (prefix === DAVIS_TEST_DATA.manual && now < d.registeredAt + DQ3_DAYS * dayMs) {
      return { ...empty, status: 'DQ3' };
    }
    if (d.checks === 0 || recheck) {
      d.checks += 1;
      d.checkedAt = iso(now);
    }
    const ago = (days: number) => iso(now - days * DAY_MS);
    const endorsements: DavisEndorsement[] =
      prefix === DAVIS_TEST_DATA.endorsed
        ? [
            { code: 'SP30', offence_date: ago(400), conviction_date: ago(350), points: 3 },
            { code: 'ZZ99', offence_date: ago(200), conviction_date: null, points: 2 },
          ]
        : prefix === DAVIS_TEST_DATA.disqualified
          ? [{ code: 'DR10', offence_date: ago(120), conviction_date: ago(60), points: 0 }]
          : prefix === DAVIS_TEST_DATA.changes
            ? Array.from({ length: d.checks - 1 }, (_, i) => ({
                code: 'SP30',
                offence_date: ago(30 + i),
                conviction_date: null,
                points: 3,
              }))
            : [];
    return {
      driver_id: d.id,
      status: 'Checked',
      checked_at: d.checkedAt,
      licence: {
        number,
        type: 'Full',
        status: prefix === DAVIS_TEST_DATA.disqualified ? 'Disqualified' : 'Valid',
        issue_number: '17',
        valid_from: ago(1000),
        valid_to: iso(now + 2650 * DAY_MS),
      },
      address: '1 Test Street, Swansea, SA6 7JL',
      endorsements,
      entitlements: [
        {
          category: 'B',
          type: 'Full',
          valid_from: '2010-05-04',
          valid_to: iso(now + 3000 * DAY_MS),
          restrictions: [{ code: '01', text: 'Eyesight correction' }],
        },
        {
          category: 'A',
          type: 'Provisional',
          valid_from: '2010-05-04',
          valid_to: iso(now + 3000 * DAY_MS),
          restrictions: [],
        },
      ],
    };
  };

  const find = (id: string): Driver => {
    const d = drivers.get(id);
    if (!d) throw new ProviderError('The licence check service answered 404.', false, 404);
    return d;
  };

  return {
    counts,
    async register(input: DavisDriverIn): Promise<DavisCheck> {
      const number = input.licence_number.toUpperCase();
      admit(number);
      if (number.startsWith(DAVIS_TEST_DATA.failOnce) && !failedOnce.has(input.reference)) {
        failedOnce.add(input.reference);
        throw new ProviderError('The licence check service answered 503.', true, 503);
      }
      if (!/^[A-Z0-9]{8,18}$/.test(number) || !input.email) {
        throw new ProviderError('The licence check service answered 400.', false, 400);
      }
      let d = byReference.get(input.reference);
      if (!d) {
        d = {
          id: `DV-${drivers.size + 1}`,
          input,
          registeredAt: today(),
          emailConfirmed: false,
          checks: 0,
          checkedAt: null,
        };
        drivers.set(d.id, d);
        byReference.set(input.reference, d);
      }
      // a new registration waits for the DVLA until it is first asked again
      const state = checkOf(d, false);
      if (state.status !== 'Checked' || d.checks > 1) return state;
      return { ...state, status: 'AwaitingCheck', checked_at: null, licence: null, address: null };
    },
    async check(id: string): Promise<DavisCheck> {
      const d = find(id);
      admit(d.input.licence_number.toUpperCase());
      return checkOf(d, false);
    },
    async recheck(id: string): Promise<DavisCheck> {
      const d = find(id);
      admit(d.input.licence_number.toUpperCase());
      return checkOf(d, true);
    },
    async confirmEmail(id: string, email: string): Promise<DavisCheck> {
      const d = find(id);
      admit(d.input.licence_number.toUpperCase());
      d.emailConfirmed = true;
      d.input = { ...d.input, email };
      const state = checkOf(d, false);
      return state.status === 'Checked' ? { ...state, status: 'AwaitingCheck' } : state;
    },
  };
}

export type DavisService = ReturnType<typeof createDavisService>;

/**
 * The engine's licence-checking simulator: the simulated service behind the same rate limiter
 * and 429 handling as the real client; a simulated day lasts `dayMs` of the providers' clock.
 */
export function createDavisSimulator(o: {
  clock: Clock;
  dayMs?: number;
  service?: DavisService;
  limiter?: RateLimiter;
  limiterClock?: LimiterClock;
}): DavisProvider {
  const limiterClock = o.limiterClock ?? realLimiterClock;
  const service =
    o.service ??
    createDavisService({ clock: o.clock, limiterClock, ...(o.dayMs ? { dayMs: o.dayMs } : {}) });
  const limiter = o.limiter ?? createRateLimiter(DVLA_REQUESTS_PER_SECOND, limiterClock);
  const go = <T>(signal: AbortSignal, f: () => Promise<T>) =>
    limited(limiter, signal, f, limiterClock);
  return {
    register: (d, signal) => go(signal, () => service.register(d)),
    check: (id, signal) => go(signal, () => service.check(id)),
    recheck: (id, signal) => go(signal, () => service.recheck(id)),
    confirmEmail: (id, email, signal) => go(signal, () => service.confirmEmail(id, email)),
  };
}
