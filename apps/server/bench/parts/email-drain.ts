// `npm run bench -- --only=email-drain` (issue 33): 10,000 queued emails drained by the server's
// send-email workers (the product's job queue and mailer: the local outbox provider, as with no
// SMTP_URL) while the case list is under load, on PostgreSQL.
// A fresh database `kestrel_bench_email_<pid>` on BENCH_PG_URL, migrated and loaded with the demo
// data; one server process (bench/serve.ts: the app with its job workers, and its bare Fastify
// ceiling); the load from this one (bench/load.ts, autocannon). The case list (25 a page, as
// Acme's administrator) is measured with nothing queued; then BENCH_EMAILS send-email jobs are
// queued at once (one through the product's `enqueue`, the rest copies of its row in the same
// transaction, each to its own address: set-based SQL) and the case list is measured again while
// the workers send them. Reported: emails per second over the whole drain (each in the outbox
// once), the case list's p99 without and during, with the ceiling of the run.
// Target: p99 during ≤ 1.5 × p99 without, and every email in the outbox exactly once.
// Knobs: BENCH_EMAILS (default 10,000), BENCH_DURATION (seconds per measurement),
// BENCH_DRAIN_LIMIT (seconds the drain is followed, default 120; past it the rate is that of the
// emails sent by then; none sent fails), and the server's own JOB_CONCURRENCY (e.g.
// `send-email=1` for one email at a time; default: the send-email kind's `workers`), printed with
// the figures and the load average at the start and the end of the drain.
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { openPgPool, pgDatabase, servingUrl, txQuery } from '../../src/db/connection.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { QUEUE_SCHEMA } from '../../src/db/queue-schema.js';
import { DEMO_PASSWORD, seedDemo } from '../../src/db/seed.js';
import { emailJob, sendEmailJob } from '../../src/jobs/send-email.js';
import { enqueue, readJobConcurrency } from '../../src/platform/jobs.js';
import { type Figure, login, measure, verify } from '../load.js';
import { startServeChild, stopServeChild } from '../serve-child.js';

const HOST = '127.0.0.1';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = 2;
const DB_NAME = `kestrel_bench_email_${process.pid}`;
const EMAILS = Number(process.env.BENCH_EMAILS ?? 10_000);
const ADMIN = 'admin@acme.test';
const PORT = 23_000 + (process.pid % 1000) * 2;
const PLAIN_PORT = PORT + 1;
const P99_FACTOR = 1.5;
const DRAIN_LIMIT_MS = Number(process.env.BENCH_DRAIN_LIMIT ?? 120) * 1000;
const DOMAIN = '@bench-mail.test';
/** The send-email jobs the server process runs at once (as its JobQueue reads them). */
const WORKERS = Math.max(
  1,
  readJobConcurrency(process.env)[sendEmailJob.name] ?? sendEmailJob.workers ?? 1,
);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

const dbUrl = (() => {
  const u = new URL(PG_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const line = (f: Figure, ceiling: Figure) =>
  `${f.name.padEnd(30)} ${Math.round(f.rps).toString().padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  ` +
  `${((100 * f.rps) / (ceiling.rps || 1)).toFixed(1)}% of bare Fastify ${Math.round(ceiling.rps)} req/s` +
  (f.failed ? `  (${f.failed} failed of ${f.total})` : '');

let failed = false;
let server: ChildProcess | null = null;
let created = false;
const client = new pg.Client({ connectionString: dbUrl });
try {
  const t0 = performance.now();
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  created = true;
  const db = pgDatabase(openPgPool(servingUrl(dbUrl), 1), openPgPool(dbUrl, 2));
  await migrateDatabase(db);
  await seedDemo(db);
  await db.ownerExec('analyze');
  console.log(
    `  database ${DB_NAME}: demo data (${((performance.now() - t0) / 1000).toFixed(0)} s); ` +
      `port ${PORT}; load from process ${process.pid}`,
  );
  await client.connect();
  const sent = async () =>
    Number(
      (
        await client.query(
          `select count(*)::int as n, count(distinct "to")::int as d from outbox_emails where "to" like '%${DOMAIN}'`,
        )
      ).rows[0]?.n ?? 0,
    );

  server = await startServeChild({ dbUrl, port: PORT, plainPort: PLAIN_PORT, load: false });
  const appUrl = `http://${HOST}:${PORT}`;
  const plainUrl = `http://${HOST}:${PLAIN_PORT}/bare`;
  const cookie = await login(appUrl, ADMIN, DEMO_PASSWORD);
  const list = `${appUrl}/api/cases/?page_size=25`;
  await verify('case list', list, cookie, (b) => (Array.isArray(b.results) ? null : 'no results'));
  const opts = { warmup: WARMUP, duration: DURATION };

  const ceilingBefore = await measure('bare Fastify', plainUrl, [], opts);
  const before = await measure('case list, nothing queued', list, [cookie], opts);
  console.log(`  ${line(before, ceilingBefore)}`);

  // The emails queued at once: one through the product's enqueue (pg-boss's insert, the queue's
  // policy), the others copies of its row with their own id and address, in one transaction
  // whose commit wakes the workers.
  const ceilingDuring = await measure('bare Fastify', plainUrl, [], { warmup: 1, duration: 1 });
  const tq = performance.now();
  await db.ownerTransaction(async (tx) => {
    const id = await enqueue(
      tx,
      emailJob({
        to: `bench-1${DOMAIN}`,
        subject: 'Reminder: your background check is waiting',
        text: 'Hello,\n\nYour background check with Acme Care Ltd is waiting for you.\n',
      }),
    );
    if (id === null) throw new Error('the send-email job was not queued');
    const { rows } = await txQuery(
      tx,
      `select column_name from information_schema.columns
        where table_schema = $1 and table_name = 'job' and column_name not in ('id', 'data')
          and is_generated = 'NEVER'`,
      [QUEUE_SCHEMA],
    );
    const cols = rows.map((r) => `"${String(r.column_name)}"`).join(', ');
    await txQuery(
      tx,
      `insert into ${QUEUE_SCHEMA}.job (id, data, ${cols})
       select gen_random_uuid(), jsonb_set(j.data, '{to}', to_jsonb('bench-' || g || '${DOMAIN}')), ${cols
         .split(', ')
         .map((c) => `j.${c}`)
         .join(', ')}
         from ${QUEUE_SCHEMA}.job j, generate_series(2, $2::int) g
        where j.id = $1::uuid`,
      [id, EMAILS],
    );
  });
  const queuedMs = performance.now() - tq;
  const loadAtQueueing = load();
  const drainStart = performance.now();
  // The case list is measured once the workers are sending (the first email in the outbox).
  while ((await sent()) === 0 && performance.now() - drainStart < DRAIN_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const sentBeforeList = await sent();
  const during = await measure('case list, while draining', list, [cookie], opts);
  const sentDuringList = (await sent()) - sentBeforeList;
  console.log(
    `  ${line(during, ceilingBefore)}  (${sentDuringList.toLocaleString('en-GB')} emails sent meanwhile)`,
  );

  let done = await sent();
  let lastReport = performance.now();
  while (done < EMAILS && performance.now() - drainStart < DRAIN_LIMIT_MS) {
    await new Promise((r) => setTimeout(r, 250));
    done = await sent();
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      console.log(`  … ${done.toLocaleString('en-GB')} of ${EMAILS.toLocaleString('en-GB')}`);
    }
  }
  const drainS = (performance.now() - drainStart) / 1000;
  const loadAtEnd = load();
  const { rows } = await client.query(
    `select count(*)::int as n, count(distinct "to")::int as d from outbox_emails where "to" like '%${DOMAIN}'`,
  );
  const n = Number(rows[0]?.n ?? 0);
  const distinct = Number(rows[0]?.d ?? 0);
  const ceilingAfter = await measure('bare Fastify', plainUrl, [], opts);
  // Past the drain limit the rate is that of the emails sent by then; none sent fails.
  const drained = n > 0;
  const once = n === distinct;
  const p99Ok = during.total > 0 && before.total > 0 && during.p99 <= P99_FACTOR * before.p99;
  console.log(
    `\n  PostgreSQL, ${EMAILS.toLocaleString('en-GB')} emails queued at once (in ${queuedMs.toFixed(0)} ms): ` +
      `${n.toLocaleString('en-GB')} sent in ${drainS.toFixed(1)} s = ${(n / drainS).toFixed(1)} emails/s ` +
      `(${n === EMAILS ? 'all' : `drain followed for BENCH_DRAIN_LIMIT=${DRAIN_LIMIT_MS / 1000} s, not to its end`}; ${once ? 'each once' : 'SOME TWICE'}); ` +
      `${WORKERS} send-email worker${WORKERS === 1 ? '' : 's'} in the server process; ` +
      `load average ${loadAtQueueing} at queueing, ${loadAtEnd} at the end`,
  );
  console.log(
    `  case list p99 ${before.p99} ms without, ${during.p99} ms during ` +
      `(target ≤ ${P99_FACTOR} × = ${(P99_FACTOR * before.p99).toFixed(0)} ms): ${p99Ok ? 'pass' : 'FAIL'}; ` +
      `bare Fastify ${Math.round(ceilingBefore.rps)} req/s before, ${Math.round(ceilingDuring.rps)} (1 s) just before queueing, ` +
      `${Math.round(ceilingAfter.rps)} after, in the same run`,
  );
  await db.close();
  if (!drained || !once || !p99Ok || before.failed || during.failed) failed = true;
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  failed = true;
} finally {
  await client.end().catch(() => {});
  await stopServeChild(server);
  if (created) {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)).catch((e) =>
      console.error(`could not drop ${DB_NAME}: ${String(e)}`),
    );
  }
}
process.exit(failed ? 1 : 0);
