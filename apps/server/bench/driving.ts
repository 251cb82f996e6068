// The driving-kinds drain bench (issue 27): 1,000 activities (half driver data, half licence
// checks, two to a case, across a few customers) are started in one transaction, as a subject's
// submit starts them, and the server's own job workers drain them through the DVLA and
// licence-checking simulators, each of which allows 10 requests a second and answers 429 above
// it (src/providers/dvla/rate-limit.ts). Measures the time until every activity has its result,
// the requests each simulated service received (the peak in any one-second window, the mean, the
// 429s it answered), the activities that ended in error or whose provider log shows an error or a
// 429, and the case list's latency (autocannon, as the load bench) for the drain's customers
// without the drain and during it. Sends the figures to scripts/bench.mjs (`--only=driving`), which
// prints them against their targets. Runs on PostgreSQL (BENCH_DB=pg, BENCH_DATABASE_URL) or
// PGlite (BENCH_DB=pglite, BENCH_DATA_DIR).

import autocannon, { type Client } from 'autocannon';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import {
  type Database,
  openPglite,
  openPgPool,
  pgDatabase,
  pgliteDatabase,
  servingUrl,
} from '../src/db/connection.js';
import {
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
} from '../src/db/factories.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { QUEUE_SCHEMA } from '../src/db/queue-schema.js';
import { caseActivities } from '../src/modules/activities/activities.table.js';
import {
  createCaseBasicDetails,
  createCaseDrivingLicence,
} from '../src/modules/case-data/case-data.factories.js';
import { dvlaProvider } from '../src/modules/checks/driver-data/providers.js';
import { activitiesSubmitted } from '../src/modules/checks/hooks.js';
import { davisProvider } from '../src/modules/checks/licence-check/providers.js';
import { checkEngine, pollSecondsOf, useCheckEngine } from '../src/modules/checks/providers.js';
import { subjectConsents } from '../src/modules/portal/consents.table.js';
import { runAsSystem } from '../src/platform/service-context.js';
import { createDavisService, createDavisSimulator } from '../src/providers/davis/simulator.js';
import { createRateLimiter, DVLA_REQUESTS_PER_SECOND } from '../src/providers/dvla/rate-limit.js';
import {
  createDvlaService,
  createDvlaSimulator,
  type RequestOutcome,
} from '../src/providers/dvla/simulator.js';
import { CONNECTIONS, login, verify } from './load.js';

const HOST = '127.0.0.1';
const ACTIVITIES = Math.max(2, Number(process.env.BENCH_ACTIVITIES ?? 1000));
const TENANTS = 4;
const CASES = Math.ceil(ACTIVITIES / 2);
const WARMUP = 2;
/** The case list's run without the drain (at least 10 s: the drain's run lasts minutes). */
const BASELINE_SECONDS = Math.max(Number(process.env.BENCH_DURATION ?? 5), 10);
const DRAIN_LIMIT_S = Number(process.env.BENCH_DRAIN_SECONDS ?? 600);
/**
 * The simulators' day in real seconds: the engine polls a licence check waiting for the DVLA a
 * quarter of a day after its registration (6 hours with the real service), so 1 s here.
 */
const DAY_SECONDS = Number(process.env.BENCH_DAY_SECONDS ?? 4);
const PASSWORD = 'kestrel-bench-password-2026';
/** Ordinary surnames: none of the simulators' special prefixes, so every check ends clean. */
const SURNAMES = ['Morgan', 'Hughes', 'Patel', 'Walker', 'Clarke', 'Bennett', 'Okafor', 'Lewis'];
/**
 * One case in this many has the simulators' `RATEL` surname: both services answer its first two
 * requests 429 whatever the rate (then a clean record), so the drain carries 429s the client must
 * wait out without its activity seeing them.
 */
const RATE_LIMITED_EVERY = 100;
/** States in which an activity still waits for its provider (or for its start). */
const WAITING = [
  'ca-pending',
  'ca-awaiting-subject',
  'ca-awaiting-agent',
  'ca-in-progress',
  'ca-error-initiating',
];

const send = (m: object) => (process.send ? process.send(m) : console.log(JSON.stringify(m)));
const log = (text: string) => send({ type: 'log', text });
const seconds = (ms: number) => Number((ms / 1000).toFixed(1));

async function openBenchDatabase(): Promise<Database> {
  if (process.env.BENCH_DB === 'pg') {
    const url = process.env.BENCH_DATABASE_URL;
    if (!url) throw new Error('BENCH_DATABASE_URL is required with BENCH_DB=pg');
    return pgDatabase(openPgPool(servingUrl(url)), openPgPool(url, 2));
  }
  if (process.env.BENCH_DB === 'pglite') {
    const dir = process.env.BENCH_DATA_DIR;
    if (!dir) throw new Error('BENCH_DATA_DIR is required with BENCH_DB=pglite');
    return pgliteDatabase(await openPglite(dir));
  }
  throw new Error('BENCH_DB must be pg or pglite');
}

// ---------------------------------------------------------------- the simulated services, counted

/** Each request a simulated service counted, at its own (limiter clock) time, in ms. */
interface Arrivals {
  /** Every request, 429s included. */
  all: number[];
  /** Those within its 10 a second (answered, or a RATEL test datum's 429). */
  admitted: number[];
  /** Those over its 10 a second (answered 429). */
  overRate: number;
}

const arrivalsOf = () => {
  const arrivals: Arrivals = { all: [], admitted: [], overRate: 0 };
  const onRequest = (at: number, outcome: RequestOutcome) => {
    arrivals.all.push(at);
    if (outcome === 'admitted') arrivals.admitted.push(at);
    else arrivals.overRate += 1;
  };
  return { arrivals, onRequest };
};

/** The most requests in any one second (the services' own window: less than 1000 ms apart). */
function peakPerSecond(times: readonly number[]): number {
  let peak = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while ((times[last] ?? 0) - (times[first] ?? 0) >= 1000) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

// ---------------------------------------------------------------- the case list under load

interface Latencies {
  name: string;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

const percentile = (sorted: readonly number[], q: number) =>
  Number((sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(1));

/**
 * autocannon at CONNECTIONS connections (connection i with session i % n), every response time
 * kept, until `stop()` or `limitSeconds`; the percentiles are exact over the whole run.
 */
function caseListLoad(url: string, cookies: readonly string[], limitSeconds: number) {
  const times: number[] = [];
  let failed = 0;
  let n = 0;
  const setupClient = (client: Client) => {
    client.setHeaders({ cookie: cookies[n++ % cookies.length] ?? '' });
  };
  const started = performance.now();
  let stop = () => {};
  const done = new Promise<Latencies>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: limitSeconds, timeout: 10, setupClient },
      (err, result) => {
        if (err) return reject(err);
        const elapsed = (performance.now() - started) / 1000;
        times.sort((a, b) => a - b);
        resolve({
          name: '',
          seconds: Number(elapsed.toFixed(1)),
          requests: times.length,
          rps: Math.round(times.length / elapsed),
          p50: percentile(times, 0.5),
          p99: percentile(times, 0.99),
          failed: failed + result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      times.push(ms);
      if (status < 200 || status >= 300) failed++;
    });
    stop = () => instance.stop();
  });
  return { done, stop: () => stop() };
}

// ---------------------------------------------------------------- the bench

const db = await openBenchDatabase();
const t00 = performance.now();
await migrateDatabase(db);
log(`migrated (${seconds(performance.now() - t00)} s)`);

// The drain's customers: an admin each (their case lists are measured), a driving process (driver
// data and a licence check), and CASES cases whose subjects gave a licence and the DVLA mandate.
const tSeed = performance.now();
const customerIds: number[] = [];
const usernames: string[] = [];
const cases: { caseId: number; activityIds: number[]; rateLimited: boolean }[] = [];
await db.ownerTransaction(async (tx) => {
  for (let t = 0; t < TENANTS; t++) {
    const customerId = (await createCustomer(tx, { name: `Driving bench ${t + 1}` })).id;
    customerIds.push(customerId);
    const username = `driving-admin-${t + 1}@bench.test`;
    await createProductUser(tx, { customerId, username, password: PASSWORD, roles: ['admin'] });
    usernames.push(username);
  }
  const processOf = new Map<number, number>();
  for (const customerId of customerIds) {
    const p = await createProcess(tx, {
      customerId,
      name: 'Taxi driver',
      requirements: ['driver-data', 'licence-check'],
    });
    processOf.set(customerId, p.id);
  }
  const now = new Date();
  for (let i = 0; i < CASES; i++) {
    const customerId = customerIds[i % TENANTS] ?? 0;
    const surname =
      i % RATE_LIMITED_EVERY === RATE_LIMITED_EVERY - 1
        ? 'Ratelimit'
        : (SURNAMES[i % SURNAMES.length] ?? 'Morgan');
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + (Math.floor(i / 28) % 12)).padStart(2, '0');
    const person = {
      forename: 'Bench',
      surname,
      dob: `${1960 + (i % 40)}-${month}-${day}`,
      gender: i % 2 ? ('male' as const) : ('female' as const),
    };
    const subject = await createSubjectUser(tx, {
      customerId,
      email: `driver-${i}@bench.test`,
      firstName: person.forename,
      lastName: surname,
      dob: person.dob,
      password: null,
    });
    const c = await createCase(tx, {
      customerId,
      processId: processOf.get(customerId) ?? 0,
      subjectId: subject.id,
    });
    const key = { customerId, caseId: c.id };
    await createCaseBasicDetails(tx, key, person);
    await createCaseDrivingLicence(tx, key, person, now);
    const activities = await tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(eq(caseActivities.caseId, c.id));
    for (const a of activities) {
      await tx.insert(subjectConsents).values({
        customerId,
        caseId: c.id,
        caseActivityId: a.id,
        kind: 'driver-data',
        givenAt: now,
        expiresAt: new Date(now.getTime() + 3 * 365 * 86_400_000),
      });
    }
    cases.push({
      caseId: c.id,
      activityIds: activities.map((a) => a.id),
      rateLimited: surname === 'Ratelimit',
    });
  }
});
const activityCount = cases.reduce((n, c) => n + c.activityIds.length, 0);
log(
  `${activityCount} activities in ${cases.length} cases of ${TENANTS} customers (${seconds(performance.now() - tSeed)} s)`,
);

const app = await buildApp({
  db,
  logger: false,
  config: {
    logLevel: 'silent',
    housekeepingMs: 0,
    webDist: null,
    jobWorkers: true,
    publicUrl: `http://${HOST}`,
    checksSimulatorDaySeconds: DAY_SECONDS,
  },
});

// The engine as the app makes it, its DVLA and licence-checking simulators made here with the
// same limiter and 429 handling (createDvlaSimulator, createDavisSimulator) around services whose
// requests the bench counts.
const engine = checkEngine(app.deps);
for (const p of [dvlaProvider, davisProvider]) {
  if (engine.config.providers[p.name].real) {
    throw new Error(`${p.env.url} is set: the bench drives the simulators, not a real provider`);
  }
}
const dayMs = engine.config.simulatorDaySeconds * 1000;
const clock = app.deps.clock;
const dvla = arrivalsOf();
const davis = arrivalsOf();
const dvlaService = createDvlaService({ clock, dayMs, onRequest: dvla.onRequest });
const davisService = createDavisService({ clock, dayMs, onRequest: davis.onRequest });
const dvlaLimiter = createRateLimiter();
const davisLimiter = createRateLimiter();
const providers = new Map(engine.providers);
providers.set(
  dvlaProvider.name,
  createDvlaSimulator({ clock, dayMs, service: dvlaService, limiter: dvlaLimiter }),
);
providers.set(
  davisProvider.name,
  createDavisSimulator({ clock, dayMs, service: davisService, limiter: davisLimiter }),
);
useCheckEngine(app.deps, { config: engine.config, providers });

await app.listen({ host: HOST, port: 0 });
const address = app.server.address();
const appUrl = `http://${HOST}:${address && typeof address === 'object' ? address.port : 0}`;
const cookies: string[] = [];
for (const u of usernames) cookies.push(await login(appUrl, u, PASSWORD));
const listUrl = `${appUrl}/api/cases/?page_size=25`;
// the first customer's list: its share of the cases (every i-th case is its)
const firstCustomerCases = Math.ceil(CASES / TENANTS);
await verify('case list', listUrl, cookies[0], (b) =>
  Array.isArray(b.results) &&
  b.results.length === Math.min(25, firstCustomerCases) &&
  b.count === firstCustomerCases
    ? null
    : `count ${b.count}, expected ${firstCustomerCases}`,
);

// The case list without the drain: a warm-up, then the measured run.
await caseListLoad(listUrl, cookies, WARMUP).done;
const without = await caseListLoad(listUrl, cookies, BASELINE_SECONDS).done;
without.name = 'case list without the drain';
log(`${without.name}: ${JSON.stringify(without)}`);

// Every activity started at once: one transaction, as a submit starts its case's checks (each in
// progress, its start a job); the jobs exist from its commit.
const tSubmit = performance.now();
await runAsSystem(app.deps, async (ctx) => {
  for (const c of cases) await activitiesSubmitted(ctx, c.caseId, c.activityIds);
});
const t0 = performance.now();
log(`${activityCount} activities started in one transaction (${seconds(t0 - tSubmit)} s)`);

// The drain, with the case list under the same load meanwhile.
const during = caseListLoad(listUrl, cookies, DRAIN_LIMIT_S);
const byKind = `
  select t.code, a.state, count(*)::int as n
    from case_activities a join activity_types t on t.id = a.activity_type_id
   where a.customer_id = any($1::int[])
   group by 1, 2`;
const finished: Record<string, number> = {};
let states: { code: string; state: string; n: number }[] = [];
let lastLog = 0;
for (;;) {
  const { rows } = await db.ownerQuery(byKind, [customerIds]);
  states = rows.map((r) => ({ code: String(r.code), state: String(r.state), n: Number(r.n) }));
  const elapsed = performance.now() - t0;
  for (const code of ['driver-data', 'licence-check']) {
    const waiting = states.some((s) => s.code === code && WAITING.includes(s.state) && s.n > 0);
    if (!waiting && finished[code] === undefined) finished[code] = seconds(elapsed);
  }
  const waiting = states.filter((s) => WAITING.includes(s.state)).reduce((n, s) => n + s.n, 0);
  if (elapsed - lastLog > 15_000) {
    lastLog = elapsed;
    log(
      `${seconds(elapsed)} s: ${waiting} waiting; DVLA ${dvlaService.counts.requests} requests, licence checks ${davisService.counts.requests}`,
    );
  }
  if (waiting === 0 || elapsed / 1000 > DRAIN_LIMIT_S) break;
  await new Promise((r) => setTimeout(r, 250));
}
const drainMs = performance.now() - t0;
during.stop();
const duringFigure = await during.done;
duringFigure.name = 'case list during the drain';
log(`${duringFigure.name}: ${JSON.stringify(duringFigure)}`);

// What the activities' own records say: an error on the provider log, a 429 anywhere in it.
const { rows: logs } = await db.ownerQuery(
  `select count(*) filter (where a.state = 'ca-error-initiating')::int as in_error,
          count(*) filter (where exists (
            select 1 from jsonb_array_elements(coalesce(a.processing_data->'events', '[]'::jsonb)) e
             where e->>'type' = 'error'))::int as with_error_event,
          count(*) filter (
            where a.processing_data::text ~* 'too many requests|"status": ?429')::int as with_429
     from case_activities a where a.customer_id = any($1::int[])`,
  [customerIds],
);
const { rows: jobs } = await db.ownerQuery(
  `select count(*)::int as n from ${QUEUE_SCHEMA}.job
    where name like 'checks-%' and state in ('failed', 'retry')`,
);
const record = logs[0] ?? {};

const stateCounts: Record<string, Record<string, number>> = {};
for (const s of states) {
  stateCounts[s.code] ??= {};
  const of = stateCounts[s.code];
  if (of) of[s.state] = s.n;
}
const serviceFigures = (
  name: string,
  service: { counts: { requests: number; tooMany: number } },
  limiter: { stats: { calls: number; limited: number } },
  arrivals: Arrivals,
  finishedS: number | undefined,
) => {
  const first = arrivals.all[0] ?? 0;
  const span = ((arrivals.all.at(-1) ?? first) - first) / 1000;
  return {
    name,
    limit_per_second: DVLA_REQUESTS_PER_SECOND,
    requests: service.counts.requests,
    answered_429: service.counts.tooMany,
    /** Of those, the ones over the service's 10 a second (the others: RATEL test data). */
    answered_429_over_rate: arrivals.overRate,
    waited_out_429: limiter.stats.limited,
    /** Requests the service took within its 10 a second, at most in any one second. */
    peak_admitted_per_second: peakPerSecond(arrivals.admitted),
    /** Requests sent to it (429s included), at most in any one second. */
    peak_sent_per_second: peakPerSecond(arrivals.all),
    mean_per_second: span > 0 ? Number((arrivals.all.length / span).toFixed(2)) : 0,
    finished_s: finishedS ?? null,
  };
};
const figures = {
  activities: activityCount,
  cases: cases.length,
  rate_limited_cases: cases.filter((c) => c.rateLimited).length,
  customers: TENANTS,
  start_s: seconds(t0 - tSubmit),
  drain_s: seconds(drainMs),
  drain_limit_s: DRAIN_LIMIT_S,
  poll_seconds: pollSecondsOf(checkEngine(app.deps), davisProvider.name),
  still_waiting: states.filter((s) => WAITING.includes(s.state)).reduce((n, s) => n + s.n, 0),
  states: stateCounts,
  in_error: Number(record.in_error ?? 0),
  with_error_event: Number(record.with_error_event ?? 0),
  with_429: Number(record.with_429 ?? 0),
  failed_jobs: Number(jobs[0]?.n ?? 0),
  services: [
    serviceFigures(
      'DVLA (driver data)',
      dvlaService,
      dvlaLimiter,
      dvla.arrivals,
      finished['driver-data'],
    ),
    serviceFigures(
      'licence checks (Davis)',
      davisService,
      davisLimiter,
      davis.arrivals,
      finished['licence-check'],
    ),
  ],
  case_list: { without, during: duringFigure },
};
log(JSON.stringify(figures));
send({ type: 'driving', figures });
await app.close();
await db.close();
