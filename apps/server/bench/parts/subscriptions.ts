// `npm run bench -- --only=subscriptions` (issue 31, "Done when"): 10,000 subscriptions coming due
// at once, turned into cases by the job workers of a server process, on PostgreSQL.
// A fresh database `kestrel_bench_subscriptions` on BENCH_PG_URL, migrated and loaded with the
// demo data (seedDemo: Acme's six-monthly update-service cycle on 'Care worker onboarding'), then
// 10,000 subjects each subscribed to that cycle (set-based SQL), due tomorrow. One server process
// (bench/serve.ts: the app with its job workers, and its bare Fastify ceiling); the load from this
// one (bench/load.ts). The case list (25 a page, as Acme's administrator) is measured first with
// nothing due; then every subscription is made due now and a `subscriptions-due` job is enqueued
// (as its schedule does every 5 minutes), and the case list is measured again while the workers
// open the cases. Reported: cases per second over the whole drain (every subscription's case
// opened, once), the case list's p99 without and during the drain, with the ceiling of the run.
// Target: p99 during ≤ 1.5 × p99 without, and exactly one case per subscription.
// Knobs: BENCH_SUBSCRIPTIONS (default 10,000), BENCH_DURATION (seconds per measurement),
// BENCH_DRAIN_LIMIT (seconds the drain is followed, default 120; past it the rate is that of the
// cases opened by then, each checked to have one case; none opened fails). The
// database is dropped at the end.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { openPgPool, pgDatabase, servingUrl } from '../../src/db/connection.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { DEMO_PASSWORD, seedDemo } from '../../src/db/seed.js';
import { subscriptionsDueJob } from '../../src/modules/cycles/subscriptions-due-job.js';
import { enqueue, jobOf } from '../../src/platform/jobs.js';
import { type Figure, login, measure, verify } from '../load.js';
import { startServeChild, stopServeChild } from '../serve-child.js';

const HOST = '127.0.0.1';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = 2;
const DB_NAME = `kestrel_bench_subscriptions_${process.pid}`;
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const ADMIN = 'admin@acme.test';
const PORT = 21_000 + (process.pid % 1000) * 2;
const PLAIN_PORT = PORT + 1;
const P99_FACTOR = 1.5;
/** The drain gives up after this long (a stuck worker is a failure, not a hang). */
const DRAIN_LIMIT_MS = Number(process.env.BENCH_DRAIN_LIMIT ?? 120) * 1000;

const dbUrl = (() => {
  const u = new URL(PG_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function freshDatabase(): Promise<void> {
  await adminQuery(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${DB_NAME}`);
}

/** Migrates, loads the demo data and subscribes SUBSCRIPTIONS new subjects to Acme's cycle. */
async function prepare(): Promise<{ customerId: number; cycleId: number }> {
  const db = pgDatabase(openPgPool(servingUrl(dbUrl), 2), openPgPool(dbUrl, 2));
  try {
    await migrateDatabase(db);
    await seedDemo(db);
    const { rows } = await db.ownerQuery(
      `select c.customer_id, c.id from cycles c join customers cu on cu.id = c.customer_id
        where cu.name = 'Acme Care Ltd' and c.requirements = '["dbs-update"]'::jsonb limit 1`,
    );
    const customerId = Number(rows[0]?.customer_id);
    const cycleId = Number(rows[0]?.id);
    if (!customerId || !cycleId) throw new Error('the demo data has no Acme update-service cycle');
    await db.ownerQuery(
      `with u as (
         insert into subject_users (email, first_name, last_name)
         select 'bench-sub-' || g || '@bench-subs.test', 'Bench', 'Subscriber ' || g
           from generate_series(1, $3::int) g
         returning id, email, first_name, last_name
       ), s as (
         insert into subjects (customer_id, user_id, email, first_name, last_name)
         select $1, id, email, first_name, last_name from u
         returning id
       )
       insert into subscriptions (customer_id, cycle_id, subject_id, state, started_at,
                                  next_due_at, next_billing_at)
       select $1, $2, id, 'active', now() - interval '6 months', now() + interval '1 day',
              now() + interval '1 day'
         from s`,
      [customerId, cycleId, SUBSCRIPTIONS],
    );
    await db.ownerExec('analyze');
    return { customerId, cycleId };
  } finally {
    await db.close();
  }
}

const startServer = () =>
  startServeChild({ dbUrl, port: PORT, plainPort: PLAIN_PORT, load: false });

const line = (f: Figure, ceiling: Figure) =>
  `${f.name.padEnd(30)} ${Math.round(f.rps).toString().padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  ` +
  `${((100 * f.rps) / (ceiling.rps || 1)).toFixed(1)}% of ${Math.round(ceiling.rps)}` +
  (f.failed ? `  (${f.failed} failed of ${f.total})` : '');

let failed = false;
let created = false;
let server: ChildProcess | null = null;
const client = new pg.Client({ connectionString: dbUrl });
try {
  const t0 = performance.now();
  await freshDatabase();
  created = true;
  const { customerId, cycleId } = await prepare();
  console.log(
    `  database ${DB_NAME}: demo data and ${SUBSCRIPTIONS.toLocaleString('en-GB')} subscriptions ` +
      `(${((performance.now() - t0) / 1000).toFixed(0)} s); port ${PORT}; load from process ${process.pid}`,
  );
  await client.connect();
  const mine = `customer_id = ${customerId} and cycle_id = ${cycleId}
    and subject_id in (select id from subjects where customer_id = ${customerId}
                        and email like '%@bench-subs.test')`;
  const count = async (sql: string) => Number((await client.query(sql)).rows[0]?.n ?? 0);
  const opened = () =>
    count(
      `select count(*)::int as n from subscriptions where ${mine} and last_case_id is not null`,
    );
  const casesOfMine = () =>
    count(`select count(*)::int as n from cases c join subjects s
             on s.customer_id = c.customer_id and s.id = c.subject_id
            where c.customer_id = ${customerId} and s.email like '%@bench-subs.test'`);

  server = await startServer();
  const appUrl = `http://${HOST}:${PORT}`;
  const plainUrl = `http://${HOST}:${PLAIN_PORT}/bare`;
  const cookie = await login(appUrl, ADMIN, DEMO_PASSWORD);
  const list = `${appUrl}/api/cases/?page_size=25`;
  await verify('case list', list, cookie, (b) => (Array.isArray(b.results) ? null : 'no results'));
  const opts = { warmup: WARMUP, duration: DURATION };

  const ceilingBefore = await measure('bare Fastify', plainUrl, [], opts);
  const before = await measure('case list, nothing due', list, [cookie], opts);
  console.log(`  ${line(before, ceilingBefore)}`);

  // Everything due now, and the due job enqueued as its schedule enqueues it.
  const db = pgDatabase(openPgPool(servingUrl(dbUrl), 1), openPgPool(dbUrl, 1));
  try {
    await db.ownerQuery(
      `update subscriptions set next_due_at = now() - interval '1 minute',
              next_billing_at = now() - interval '1 minute' where ${mine}`,
    );
    await db.ownerTransaction((tx) => enqueue(tx, jobOf(subscriptionsDueJob, {})));
  } finally {
    await db.close();
  }
  const drainStart = performance.now();
  const ceilingDuring = await measure('bare Fastify', plainUrl, [], opts);
  // The case list is measured once the workers are opening cases (the first batch committed):
  // the due job's first batch of 50 takes several seconds, a window measured before it would
  // measure a job starting, not cases being opened.
  while ((await opened()) === 0 && performance.now() - drainStart < DRAIN_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const openedBeforeList = await opened();
  const during = await measure('case list, while due', list, [cookie], opts);
  const openedDuringList = (await opened()) - openedBeforeList;
  console.log(`  ${line(during, ceilingDuring)}  (${openedDuringList} cases opened meanwhile)`);

  let done = await opened();
  let lastReport = performance.now();
  while (done < SUBSCRIPTIONS && performance.now() - drainStart < DRAIN_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 250));
    done = await opened();
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      console.log(
        `  … ${done.toLocaleString('en-GB')} of ${SUBSCRIPTIONS.toLocaleString('en-GB')}`,
      );
    }
  }
  const drainS = (performance.now() - drainStart) / 1000;
  const cases = await casesOfMine();
  const perSecond = done / drainS;
  // Past the drain limit the figures are those of the cases opened by then (each exactly once);
  // a drain that opened none is a failure.
  const once = done > 0 && cases === done;
  const p99Ok = during.total > 0 && before.total > 0 && during.p99 <= P99_FACTOR * before.p99;
  console.log(
    `\n  PostgreSQL, ${SUBSCRIPTIONS.toLocaleString('en-GB')} subscriptions due at once: ` +
      `${done.toLocaleString('en-GB')} opened in ${drainS.toFixed(1)} s = ${perSecond.toFixed(1)} cases/s ` +
      `(${cases.toLocaleString('en-GB')} cases of those subjects: ${once ? 'one each' : 'NOT one each'}` +
      `${done < SUBSCRIPTIONS ? `; drain followed for BENCH_DRAIN_LIMIT=${DRAIN_LIMIT_MS / 1000} s, not to its end` : ''})`,
  );
  console.log(
    `  case list p99 ${before.p99} ms without, ${during.p99} ms during ` +
      `(target ≤ ${P99_FACTOR} × = ${(P99_FACTOR * before.p99).toFixed(0)} ms): ${p99Ok ? 'pass' : 'FAIL'}; ` +
      `bare Fastify ${Math.round(ceilingBefore.rps)} / ${Math.round(ceilingDuring.rps)} req/s in the same run`,
  );
  if (!once || !p99Ok || before.failed || during.failed) failed = true;
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  failed = true;
} finally {
  await client.end().catch(() => {});
  await stopServeChild(server);
  if (created) {
    await adminQuery(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch((e) =>
      console.error(`could not drop ${DB_NAME}: ${String(e)}`),
    );
  }
}
process.exit(failed ? 1 : 0);
