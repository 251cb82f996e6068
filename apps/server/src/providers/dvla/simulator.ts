import type { Clock } from '../../platform/clock.js';
import { aborted, ProviderError } from '../errors.js';
import type {
  DriverEnquiry,
  DriverEnquiryAnswer,
  DvlaDriverRecord,
  DvlaProvider,
} from './provider.js';
import {
  createRateLimiter,
  DVLA_REQUESTS_PER_SECOND,
  type LimiterClock,
  limited,
  RateLimited,
  type RateLimiter,
  realLimiterClock,
} from './rate-limit.js';

/*
 * A deterministic DVLA (the default): the licence number's first five characters (the surname's,
 * as the portal checks them) choose the answer (README.md). Like the real service it answers
 * 429 past 10 requests in a second (on real time, `limiterClock`); the engine's side of it
 * (createDvlaSimulator) waits for its place first and waits out a 429, as the real client does.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const DVLA_TEST_DATA = {
  noRecord: 'NOREC',
  suppressed: 'SUPPR',
  endorsed: 'ENDOR',
  disqualified: 'DISQU',
  rateLimited: 'RATEL',
  failOnce: 'FAILO',
  refused: 'BADRQ',
  noAnswer: 'SLOWW',
} as const;

/**
 * A request as the simulated service counted it: within its 10 a second (answered, or a test
 * datum's 429), or over them (answered 429).
 */
export type RequestOutcome = 'admitted' | 'over-the-rate';

/** How many simulated days a suppressed record (SUPPR…) stays suppressed after it is first asked. */
export const SUPPRESSED_DAYS = 2;

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The date of birth characters 6-11 encode (decade, month (+50 female), day, year). */
function dobOf(number: string): string {
  const m = /^.{5}(\d)(\d)(\d)(\d\d)(\d)/.exec(number);
  if (!m) return '1980-01-01';
  const [, decade = '8', tens = '0', units = '1', day = '01', year = '0'] = m;
  const month = `${Number(tens) % 5}${units}`;
  return `${Number(decade) >= 3 ? '19' : '20'}${decade}${year}-${month}-${day}`;
}

function recordOf(enquiry: DriverEnquiry, today: number): DvlaDriverRecord {
  const number = enquiry.drivingLicenceNumber;
  const prefix = number.slice(0, 5);
  const ago = (days: number) => iso(today - days * DAY_MS);
  const ahead = (days: number) => iso(today + days * DAY_MS);
  const female = /^.{6}[5-6]/.test(number);
  const endorsements: NonNullable<DvlaDriverRecord['endorsements']> =
    prefix === DVLA_TEST_DATA.endorsed
      ? [
          {
            offenceCode: 'SP30',
            offenceDate: ago(400),
            convictionDate: ago(350),
            penaltyPoints: 3,
          },
          { offenceCode: 'CU80', offenceDate: ago(900), penaltyPoints: 3 },
          {
            offenceCode: 'ZZ99',
            offenceDate: ago(200),
            convictionDate: ago(150),
            penaltyPoints: 2,
          },
        ]
      : prefix === DVLA_TEST_DATA.disqualified
        ? [
            {
              offenceCode: 'DR10',
              offenceDate: ago(120),
              convictionDate: ago(60),
              penaltyPoints: 0,
              disqualification: { type: 'Disqualified', forMonths: 12 },
            },
          ]
        : [];
  const record: DvlaDriverRecord = {
    driver: {
      drivingLicenceNumber: number,
      firstNames: 'SIMULATED',
      lastName: prefix.replace(/9+$/, ''),
      gender: female ? 'Female' : 'Male',
      dateOfBirth: dobOf(number),
      address: {
        unstructuredAddress: {
          line1: '1 Test Street',
          line2: 'Swansea',
          postcode: 'SA6 7JL',
        },
      },
    },
    licence: {
      type: 'Full',
      status: prefix === DVLA_TEST_DATA.disqualified ? 'Disqualified' : 'Valid',
      ...(prefix === DVLA_TEST_DATA.disqualified
        ? { statusQualifier: 'Until further notice' }
        : {}),
    },
    entitlement: [
      {
        categoryCode: 'B',
        categoryType: 'Full',
        fromDate: '2010-05-04',
        expiryDate: ahead(3000),
        restrictions: [{ restrictionCode: '01', restrictionLiteral: 'Eyesight correction' }],
      },
      { categoryCode: 'AM', categoryType: 'Full', fromDate: '2010-05-04', expiryDate: ahead(3000) },
      {
        categoryCode: 'A',
        categoryType: 'Provisional',
        fromDate: '2010-05-04',
        expiryDate: ahead(3000),
      },
    ],
    endorsements,
    token: { validFromDate: ago(1000), validToDate: ahead(2650), issueNumber: '17' },
    testPass: [{ categoryCode: 'B', testDate: '2010-05-04', status: 'Passed' }],
  };
  if (enquiry.includeCPC) {
    record.cpc = { cpcs: [{ lgvValidTo: ahead(700), pcvValidTo: ahead(700) }] };
    record.holder = {
      dqc: {
        dqcs: [{ dqcNumber: `DQC${number.slice(-6)}`, issueDate: ago(1100), validTo: ahead(700) }],
      },
    };
  }
  if (enquiry.includeTacho) {
    record.tachoCards = [
      {
        cardNumber: `DB${number.slice(0, 14)}`,
        cardStatus: 'Issued',
        cardStartOfValidityDate: ago(500),
        cardExpiryDate: ahead(1300),
      },
    ];
  }
  return record;
}

/**
 * The simulated service itself: its answers, and its own 429 past 10 requests in a second
 * (thrown as RateLimited, as the client reads a 429). `retrieve` of the engine's side goes
 * through createDvlaSimulator.
 */
export function createDvlaService(o: {
  clock: Clock;
  dayMs?: number;
  limiterClock?: LimiterClock;
  /** Told of each request as it arrives (its limiter-clock time; the bench's rate figures). */
  onRequest?: (at: number, outcome: RequestOutcome) => void;
}) {
  const dayMs = o.dayMs ?? DAY_MS;
  const limiterClock = o.limiterClock ?? realLimiterClock;
  const firstAsked = new Map<string, number>();
  const failedOnce = new Set<string>();
  const rateLimitedCalls = new Map<string, number>();
  const recent: number[] = [];
  const counts = { requests: 0, tooMany: 0 };
  return {
    counts,
    async retrieve(enquiry: DriverEnquiry, signal: AbortSignal): Promise<DriverEnquiryAnswer> {
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
      const number = enquiry.drivingLicenceNumber.toUpperCase();
      const prefix = number.slice(0, 5);
      const today = o.clock.now().getTime();
      if (prefix === DVLA_TEST_DATA.noAnswer) return aborted(signal);
      if (prefix === DVLA_TEST_DATA.refused || !/^[A-Z0-9]{5,18}$/.test(number)) {
        throw new ProviderError('The DVLA answered 400 (ENQ001).', false, 400);
      }
      if (prefix === DVLA_TEST_DATA.rateLimited) {
        const n = rateLimitedCalls.get(number) ?? 0;
        rateLimitedCalls.set(number, n + 1);
        if (n < 2) {
          counts.tooMany += 1;
          throw new RateLimited(1000);
        }
      }
      if (prefix === DVLA_TEST_DATA.failOnce && !failedOnce.has(number)) {
        failedOnce.add(number);
        throw new ProviderError('The DVLA answered 503.', true, 503);
      }
      if (prefix === DVLA_TEST_DATA.noRecord) {
        return { found: false, code: 'ENQ018', detail: 'Driver number not found' };
      }
      if (prefix === DVLA_TEST_DATA.suppressed) {
        const first = firstAsked.get(number) ?? today;
        firstAsked.set(number, first);
        if (today < first + SUPPRESSED_DAYS * dayMs) {
          return { found: false, code: 'ENQ037', detail: 'Driver record suppressed' };
        }
      }
      return { found: true, record: recordOf({ ...enquiry, drivingLicenceNumber: number }, today) };
    },
  };
}

export type DvlaService = ReturnType<typeof createDvlaService>;

/**
 * The engine's DVLA simulator: the simulated service behind the same rate limiter and 429
 * handling as the real client. A simulated day lasts `dayMs` of the providers' clock; `service`
 * and `limiter` may be shared (the bench counts them).
 */
export function createDvlaSimulator(o: {
  clock: Clock;
  dayMs?: number;
  service?: DvlaService;
  limiter?: RateLimiter;
  limiterClock?: LimiterClock;
}): DvlaProvider {
  const limiterClock = o.limiterClock ?? realLimiterClock;
  const service =
    o.service ??
    createDvlaService({ clock: o.clock, limiterClock, ...(o.dayMs ? { dayMs: o.dayMs } : {}) });
  const limiter = o.limiter ?? createRateLimiter(DVLA_REQUESTS_PER_SECOND, limiterClock);
  return {
    retrieve: (enquiry, signal) =>
      limited(limiter, signal, () => service.retrieve(enquiry, signal), limiterClock),
  };
}
