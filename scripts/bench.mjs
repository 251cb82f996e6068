// `npm run bench`: load benchmarks of the server on PostgreSQL and on PGlite.
//
// For each database a child process (apps/server/bench/server.ts) migrates and bulk-loads the
// database, serves the app on 127.0.0.1 with a bare route added to it (the ceiling), and drives
// the load itself (autocannon, 50 connections) in that same process: the ceiling and every
// scenario run in the same process setup. This process prepares the databases, collects the
// figures and prints the report. The PostgreSQL database (kestrel_bench_<pid>) and the PGlite
// temp directory are removed at the end, also on Ctrl-C; databases left by killed runs are dropped
// at the next start.
//
// Options: --only=pg|pglite|callbacks|uploads|driving|million|runtimes|<part>   --duration=<seconds per
// scenario, default 5>. `--only=runtimes [--node=<path>] [--rounds=2]`: the load bench's main
// figures (ceiling, check-session, case list) on the machine's Node.js (or --node) and on the
// project's (node_modules/.bin/node), alternating on the same loaded database.
// The default run (no --only) is the load bench on both databases, then the driving-kinds drain
// (apps/server/bench/driving.ts) on both, then the parts in DEFAULT_PARTS (below).
// Environment: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres): a PostgreSQL
// user that may create databases and roles. Exit code 1 when a PostgreSQL target fails.
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ensureDependencies, projectNode, root, serverNodeFlags, sourceNodeFlags } from './lib.mjs';

// The children run as production (NODE_ENV=production); on PostgreSQL a production server needs
// its encryption keys (README, encryption at rest): one key for this run, the same in every child.
const benchKeys = process.env.ENCRYPTION_KEYS ?? `bench:${randomBytes(32).toString('base64')}`;
const benchIndexKey = process.env.ENCRYPTION_INDEX_KEY ?? randomBytes(32).toString('base64');

ensureDependencies();
const { default: pg } = await import('pg');

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const DURATION = Math.min(
  Math.max(Number(args.duration ?? process.env.BENCH_DURATION ?? 5), 1),
  30,
);
const WARMUP = 2;
const CONNECTIONS = 50;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const only = args.only;

/** Targets (issues 2, 5 and 15): share of the ceiling's requests per second and p99 in ms. */
const TARGETS = {
  'check-session': { share: 0.25, p99: 25 },
  'audit list': { share: 0.12, p99: 50 },
  'case list': { share: 0.12, p99: 50 },
  'case list filtered': { share: 0.12, p99: 50 },
  'case search': { share: 0.12, p99: 50 },
  'case detail': { share: 0.12, p99: 50 },
  // issue 15: case data
  'case basic details': { share: 0.12, p99: 50 },
  'case addresses with gaps': { share: 0.12, p99: 50 },
};

const cleanups = [];
let child = null;

async function cleanupAll() {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => {
      const t = setTimeout(() => {
        child?.kill('SIGKILL');
        r();
      }, 10_000);
      child?.once('exit', () => {
        clearTimeout(t);
        r();
      });
    });
  }
  child = null;
  while (cleanups.length) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch (err) {
      console.error(`cleanup failed: ${err.message}`);
    }
  }
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    console.error(`\n${sig}: cleaning up…`);
    cleanupAll().finally(() => process.exit(130));
  });
}

const log = (text) => process.stdout.write(`  ${text}\n`);

// ------------------------------------------------------------------ databases

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function adminClient() {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  await c.connect();
  return c;
}

async function pgReachable() {
  try {
    const c = await adminClient();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** Creates kestrel_bench_<pid> (dropping those of dead runs) and registers its drop. */
async function preparePg() {
  const name = `kestrel_bench_${process.pid}`;
  const admin = await adminClient();
  try {
    const { rows } = await admin.query(
      `select datname from pg_database where datname like 'kestrel\\_bench\\_%'`,
    );
    for (const { datname } of rows) {
      const pid = Number(/^kestrel_bench_(\d+)$/.exec(datname)?.[1]);
      if (Number.isInteger(pid) && (pid === process.pid || !isAlive(pid))) {
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      }
    }
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const c = await adminClient();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return { BENCH_DB: 'pg', BENCH_DATABASE_URL: u.toString() };
}

function preparePglite() {
  const dir = mkdtempSync(join(tmpdir(), 'kestrel-bench-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return { BENCH_DB: 'pglite', BENCH_DATA_DIR: join(dir, 'data') };
}

// ------------------------------------------------------------------ server child

function runChild(env, execPath = process.execPath) {
  return new Promise((resolve, reject) => {
    const c = fork(join(root, 'apps/server/bench/server.ts'), [], {
      cwd: join(root, 'apps/server'),
      execPath,
      // BENCH_NODE_ARGS adds flags to the server's node, e.g. '--cpu-prof --cpu-prof-dir=/tmp/p'
      execArgv: [
        ...serverNodeFlags,
        ...sourceNodeFlags,
        ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ],
      env: {
        ...process.env,
        ...env,
        BENCH_DURATION: String(DURATION),
        TZ: 'UTC',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: benchKeys,
        ENCRYPTION_INDEX_KEY: benchIndexKey,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = c;
    c.on('message', (m) => {
      if (m?.type === 'log') log(m.text);
      if (m?.type === 'result') resolve(m);
      if (m?.type === 'error') reject(new Error(m.text));
    });
    c.once('exit', (code, signal) => {
      reject(new Error(`bench child exited (${signal ?? code}) before its figures`));
    });
  });
}

async function stopServer() {
  const c = child;
  if (!c || c.exitCode !== null) return;
  await new Promise((resolve) => {
    const t = setTimeout(() => {
      c.kill('SIGKILL');
      resolve();
    }, 15_000);
    c.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    c.send({ type: 'stop' });
  });
  child = null;
}

// ------------------------------------------------------------------ one database

async function benchOne(label, env, execPath) {
  console.log(`\n▶ ${label}`);
  const result = await runChild(env, execPath);
  await stopServer();
  return { label, figures: result.figures, gaps: result.gaps, info: result.info };
}

// ------------------------------------------------------------------ report

function report(runs) {
  const rows = [];
  let pgFailed = false;
  for (const run of runs) {
    const isPg = run.label === 'PostgreSQL';
    for (const f of run.figures) {
      const ceiling = f.ceiling.rps;
      const share = ceiling ? f.rps / ceiling : 0;
      const t = TARGETS[f.name];
      let target = '';
      let result = '';
      if (f.ceiling.failed) {
        result = 'FAIL (ceiling errors)';
        if (isPg) pgFailed = true;
      } else if (t) {
        target = `≥${t.share * 100}%, p99 ≤${t.p99} ms`;
        const ok = share >= t.share && f.p99 <= t.p99 && f.failed === 0;
        result = ok ? 'pass' : 'FAIL';
        if (!isPg) result = `${result.toLowerCase()} (info)`;
        else if (!ok) pgFailed = true;
      } else if (f.failed) {
        result = 'FAIL';
        if (isPg) pgFailed = true;
      }
      rows.push([
        run.label,
        f.name,
        String(Math.round(f.rps)),
        String(f.p99),
        String(Math.round(ceiling)),
        String(f.ceiling.p99),
        `${(share * 100).toFixed(1)}%`,
        String(f.cpuUs ?? ''),
        String(f.dbCpuUs ?? ''),
        target,
        f.failed ? `${result} (${f.failed} errors)` : result,
      ]);
    }
    for (const g of run.gaps)
      rows.push([run.label, 'NOT MEASURED', '', '', '', '', '', '', '', '', g]);
  }
  const head = [
    'database',
    'scenario',
    'req/s',
    'p99 ms',
    'ceiling req/s',
    'ceiling p99',
    '% ceiling',
    'cpu µs/req',
    'db cpu µs/req',
    'target',
    'result',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r.map((c, i) => (i >= 2 && i <= 8 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(
    `\nResults (${CONNECTIONS} connections, ${DURATION} s each after ${WARMUP} s warm-up, load generated` +
      ' in the server process; each scenario next to the ceiling, a bare route of the same app,' +
      ' measured just before it; targets apply on PostgreSQL)',
  );
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  for (const run of runs) {
    for (const f of run.info ?? []) {
      console.log(
        `(${run.label}, for information: ${f.name}, no plugins, same process: ${Math.round(f.rps)} req/s, p99 ${f.p99} ms)`,
      );
    }
  }
  return pgFailed;
}

// ------------------------------------------------------------------ provider callbacks (issue 17)

/**
 * Runs the scenario apps/server/bench/{name}.ts in a child process (the server's flags, `env` over
 * this process's): passes its log lines on and resolves with the figures it sends as a message of
 * type `name`, and its exit code; rejects when it exits without them.
 */
function forkScenario(name, env) {
  return new Promise((resolve, reject) => {
    const c = fork(join(root, `apps/server/bench/${name}.ts`), [], {
      cwd: join(root, 'apps/server'),
      execArgv: [...serverNodeFlags, ...sourceNodeFlags],
      env: {
        ...process.env,
        ...env,
        TZ: 'UTC',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: benchKeys,
        ENCRYPTION_INDEX_KEY: benchIndexKey,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = c;
    let figures = null;
    c.on('message', (m) => {
      if (m?.type === 'log') log(m.text);
      if (m?.type === name) figures = m.figures;
    });
    c.once('exit', (code) =>
      figures
        ? resolve({ figures, exit: code })
        : reject(new Error(`${name} bench exited ${code}`)),
    );
  });
}

/**
 * `--only=callbacks [--rate=1000] [--duration=30] [--cases=0]`: signed provider callbacks offered
 * at a fixed rate to the server on PostgreSQL, among the 200,000-case data set (--cases=0: without) (apps/server/bench/callbacks.ts): accepted rate, p99, and
 * none lost or applied twice. Exit code 1 when one is lost or applied twice.
 */
async function benchCallbacks() {
  console.log('\n▶ provider callbacks on PostgreSQL');
  const env = await preparePg();
  const run = await forkScenario('callbacks', {
    BENCH_DATABASE_URL: env.BENCH_DATABASE_URL,
    BENCH_RATE: String(Number(args.rate ?? 1000)),
    BENCH_CASES: args.cases === '0' ? '0' : '1',
    BENCH_DURATION: String(Math.min(Math.max(Number(args.duration ?? 30), 1), 60)),
  });
  const figures = { ...run.figures, exit: run.exit };
  child = null;
  console.log(
    `\nCallbacks: offered ${figures.offered} at ${figures.offered_rate}/s; accepted ${figures.accepted} (${figures.accepted_rate}/s), p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms (in the server: p50 ${figures.server_p50_ms} ms, p99 ${figures.server_p99_ms} ms; event loop delay p99 ${figures.event_loop_delay_p99_ms} ms); refused ${figures.refused}, failed ${figures.failed}, dropped ${figures.dropped}; load average ${figures.load_average_before} before, ${figures.load_average_after} after` +
      `\nCeiling (bare route, same client, ${figures.ceiling.offered} offered): ${figures.ceiling.accepted_rate}/s, p50 ${figures.ceiling.p50_ms} ms, p99 ${figures.ceiling.p99_ms} ms, dropped ${figures.ceiling.dropped}; load average ${figures.ceiling.load_average}` +
      `\nCounted afterwards (inbox drained in ${figures.drain_s} s): ${figures.inbox_rows} stored ${JSON.stringify(figures.inbox_outcomes)}; lost ${figures.lost_events}, not applied ${figures.not_applied}, applied twice ${figures.applied_twice}`,
  );
  return figures.lost_events > 0 || figures.applied_twice > 0 || figures.not_applied > 0;
}

// ------------------------------------------------------------------ hostile uploads (issue 26)

/**
 * `--only=uploads`: a 1 MB PDF inflating to 1 GB and a 16000×16000 PNG uploaded to the server on
 * PGlite (apps/server/bench/uploads.ts): request time, the server's resident memory before, at
 * its peak and after, the decoder process's peak, the preview each ends with and /healthz's
 * slowest answer meanwhile.
 */
async function benchUploads() {
  console.log('\n▶ hostile uploads (PGlite)');
  const { figures } = await forkScenario('uploads', {});
  child = null;
  for (const f of figures) {
    const d = f.decoder.map(
      (o) => `${o.status}${o.reason ? ` (${o.reason})` : ''}, peak ${o.peak_rss_mb} MB`,
    );
    console.log(
      `\n${f.file} (${f.size_kb} KB): ${f.status} in ${f.request_ms} ms; preview '${f.preview}' after ${f.preview_after_ms} ms; server RSS ${f.server_rss_mb.before} MB before, ${f.server_rss_mb.peak} MB peak, ${f.server_rss_mb.after} MB after; decoder ${d.join('; ') || 'not run'}; /healthz slowest ${f.healthz_max_ms} ms`,
    );
  }
  return figures.some((f) => f.status !== 201 || f.preview !== 'none');
}

// ------------------------------------------------------------------ driving-kinds drain (issue 27)

/** The drain's targets: 10 requests a second per provider; the case list's p99 at most 1.5×. */
const DRIVING_P99_FACTOR = 1.5;

/**
 * `--only=driving`: 1,000 driver-data and licence-check activities started at once, drained by
 * the server's job workers through the DVLA and licence-checking simulators (10 requests a
 * second each, 429 above), with the case list under load meanwhile (apps/server/bench/driving.ts).
 * Returns true when a target is missed.
 */
async function benchDriving(label, env) {
  console.log(`\n▶ driving-kinds drain (${label})`);
  const { figures: f } = await forkScenario('driving', {
    ...env,
    BENCH_DURATION: String(DURATION),
  });
  child = null;
  const rows = [];
  let failed = false;
  /** `ok` undefined: a figure without a target; `info`: its target does not fail the run. */
  const row = (name, value, target, ok, info = false) => {
    if (ok === false && !info) failed = true;
    const result = ok === undefined ? '' : ok ? 'pass' : 'FAIL';
    rows.push([name, String(value), target, info ? `${result.toLowerCase()} (info)` : result]);
  };
  row('activities still waiting for their result', f.still_waiting, '0', f.still_waiting === 0);
  row('activities in error (ca-error-initiating)', f.in_error, '0', f.in_error === 0);
  row(
    'activities with an error on their provider log',
    f.with_error_event,
    '0',
    f.with_error_event === 0,
  );
  row('activities with a 429 on their provider log', f.with_429, '0', f.with_429 === 0);
  row('engine jobs failed or retried', f.failed_jobs, '0', f.failed_jobs === 0);
  for (const s of f.services) {
    row(`${s.name}: requests`, s.requests, '');
    row(
      `${s.name}: requests it took within its limit, most in any 1 s`,
      s.peak_admitted_per_second,
      `≤${s.limit_per_second}`,
      s.peak_admitted_per_second <= s.limit_per_second,
    );
    row(`${s.name}: requests sent (429s included), most in any 1 s`, s.peak_sent_per_second, '');
    row(
      `${s.name}: mean requests/s`,
      s.mean_per_second,
      `≤${s.limit_per_second}`,
      s.mean_per_second <= s.limit_per_second,
    );
    row(
      `${s.name}: 429s answered (RATEL test data / over the rate), all waited out`,
      `${s.answered_429} (${s.answered_429 - s.answered_429_over_rate} / ${s.answered_429_over_rate})`,
      '',
      s.waited_out_429 === s.answered_429 ? undefined : false,
    );
    row(`${s.name}: all done after`, s.finished_s === null ? 'not done' : `${s.finished_s} s`, '');
  }
  const { without, during } = f.case_list;
  const limit = Math.round(without.p99 * DRIVING_P99_FACTOR * 10) / 10;
  row('case list p99 without the drain', `${without.p99} ms`, '');
  // like the load bench's targets, the latency target applies on PostgreSQL; on PGlite (one
  // connection: every statement waits for the open transaction) it is for information
  row(
    'case list p99 during the drain',
    `${during.p99} ms`,
    `≤${DRIVING_P99_FACTOR}× = ${limit} ms`,
    during.p99 <= limit,
    label !== 'PostgreSQL',
  );
  row('case list req/s without / during', `${without.rps} / ${during.rps}`, '');
  row(
    'case list errors without / during',
    `${without.failed} / ${during.failed}`,
    '0',
    without.failed + during.failed === 0,
  );
  const head = ['figure', 'value', 'limit', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r.map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(
    `\nDriving kinds on ${label}: ${f.activities} activities (${f.cases} cases of ${f.customers} customers, half driver data, half licence checks; ${f.rate_limited_cases} cases with the simulators' RATEL licence, answered 429 twice by each service) started in one transaction (${f.start_s} s), all with their result ${f.still_waiting === 0 ? `after ${f.drain_s} s` : `NOT after ${f.drain_s} s`}; licence checks polled every ${f.poll_seconds} s; final states ${JSON.stringify(f.states)}; the case list (${CONNECTIONS} connections over the drain's ${f.customers} customers) measured for ${without.seconds} s without the drain and for the whole drain (${during.seconds} s)`,
  );
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  return failed;
}

/** The drain on PostgreSQL (when it answers) and PGlite; true when a target is missed. */
async function benchDrivingBoth() {
  let failed = false;
  if (await pgReachable()) {
    failed = (await benchDriving('PostgreSQL', await preparePg())) || failed;
    await cleanupAll();
  } else {
    console.error(
      `\nPostgreSQL at ${PG_URL} does not answer: the drain's PostgreSQL figures are missing.`,
    );
    failed = true;
  }
  failed = (await benchDriving('PGlite', preparePglite())) || failed;
  await cleanupAll();
  return failed;
}

// ------------------------------------------------------------------ a million cases (issue 28)

/** A list's p99 on the largest data set may be at most this many times its 200,000-case figure. */
const MILLION_P99_FACTOR = 1.5;

/**
 * `--only=million`: the lists on 1,000,000 cases across 1,000 customers and on 200,000 for
 * comparison (apps/server/bench/million.ts; BENCH_MILLION_CASES sets the largest size), each in a
 * database of its own kept between runs (kestrel_million_<size>), for a large and a small
 * customer: p99 with its target (at most 1.5 × the 200,000-case figure) and the ceiling of the
 * same run. Returns true when a target is missed or a request failed.
 */
async function benchMillion() {
  console.log('\n▶ a million cases (PostgreSQL)');
  if (!(await pgReachable())) {
    console.error(`PostgreSQL at ${PG_URL} does not answer.`);
    return true;
  }
  const { figures } = await forkScenario('million', {
    BENCH_PG_URL: PG_URL,
    BENCH_DURATION: String(args.duration ?? 3),
  });
  child = null;
  const sizes = [...new Set(figures.map((f) => f.size))].sort((a, b) => a - b);
  const base = sizes.includes(200_000) ? 200_000 : sizes[0];
  const key = (f) => `${f.customer}|${f.name}`;
  const baseline = new Map(figures.filter((f) => f.size === base).map((f) => [key(f), f]));
  let failed = false;
  const rows = figures.map((f) => {
    const b = baseline.get(key(f));
    const limit = b && f.size !== base ? Math.round(b.p99 * MILLION_P99_FACTOR * 10) / 10 : null;
    const ok = limit === null ? null : f.p99 <= limit;
    if (ok === false || f.failed > 0) failed = true;
    return [
      f.size.toLocaleString('en'),
      `${f.customer} (${f.customerCases.toLocaleString('en')})`,
      f.name,
      `${Math.round(f.rps)}`,
      `${f.p99} ms`,
      limit === null ? '(baseline)' : `≤${limit} ms`,
      `${Math.round(f.ceiling.rps)} req/s, p99 ${f.ceiling.p99} ms`,
      String(f.load),
      f.failed > 0 ? `FAIL (${f.failed} failed)` : ok === null ? '' : ok ? 'pass' : 'FAIL',
    ];
  });
  const head = [
    'cases',
    'customer (cases)',
    'list',
    'req/s',
    'p99',
    'target',
    'ceiling',
    'load',
    'result',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(
    `\nLists by data set size (1,000 customers; 50 connections, one session of the customer; target: p99 at most ${MILLION_P99_FACTOR} × the ${base.toLocaleString('en')}-case figure; load = the machine's 1-minute load average)`,
  );
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  return failed;
}

// ------------------------------------------------------------------ runtimes (issue 28)

/** The machine's Node.js: the first `node` on PATH that is not the project's. */
function machineNode() {
  const project = existsSync(projectNode) ? realpathSync(projectNode) : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!dir || !existsSync(candidate)) continue;
    if (realpathSync(candidate) !== project) return candidate;
  }
  return null;
}

const versionOf = (node) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();

/**
 * `--only=runtimes [--rounds=2]`: the ceiling, check-session and the case list on the machine's
 * Node.js and on the project's, on PostgreSQL (PGlite when it does not answer); the database is
 * loaded once (the first run) and reused by the others (BENCH_REUSE). The runtimes alternate
 * (A B B A …, --rounds pairs) and each runtime's best run per figure is kept: the machine is
 * shared, the least disturbed run is the closest to what the runtime does. Prints req/s, p99 and
 * the server's CPU per request of both, and the difference. True when a request failed.
 */
async function benchRuntimes() {
  const machine = args.node ?? machineNode();
  if (!machine || !existsSync(projectNode)) {
    console.error(`\nruntimes: needs the machine's node (${machine}) and ${projectNode}`);
    return true;
  }
  const rounds = Math.min(Math.max(Number(args.rounds ?? 2), 1), 5);
  const onPg = await pgReachable();
  const env = {
    ...(onPg ? await preparePg() : preparePglite()),
    BENCH_SCENARIOS: 'check-session,case list',
  };
  const runtimes = [
    { node: machine, version: versionOf(machine), runs: [] },
    { node: projectNode, version: versionOf(projectNode), runs: [] },
  ];
  const order = [];
  for (let i = 0; i < rounds; i++) order.push(...(i % 2 === 0 ? [0, 1] : [1, 0]));
  let failed = false;
  for (const [n, i] of order.entries()) {
    const r = runtimes[i];
    const run = await benchOne(
      `${onPg ? 'PostgreSQL' : 'PGlite'}, Node.js ${r.version} (${r.node}), run ${n + 1} of ${order.length}`,
      n === 0 ? env : { ...env, BENCH_REUSE: '1' },
      r.node,
    );
    if (run.figures.some((f) => f.failed > 0 || f.ceiling.failed > 0)) failed = true;
    r.runs.push(run);
  }
  /** A runtime's figures of one scenario over its runs (the ceiling: measured before check-session). */
  const figuresOf = (r, name) =>
    r.runs.flatMap((run) => {
      const f = run.figures.find((x) => x.name === (name === 'ceiling' ? 'check-session' : name));
      if (!f) return [];
      return [name === 'ceiling' ? f.ceiling : f];
    });
  const best = (r, name) => {
    const fs = figuresOf(r, name);
    if (fs.length === 0) return null;
    const top = fs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const cpus = fs.map((f) => f.cpuUs).filter((c) => typeof c === 'number');
    return { rps: top.rps, p99: top.p99, cpuUs: cpus.length ? Math.min(...cpus) : null };
  };
  console.log(
    `\nRuntimes on ${onPg ? 'PostgreSQL' : 'PGlite'} (${CONNECTIONS} connections, ${DURATION} s each, ${rounds} run(s) each, alternating; the best run per figure; cpu: the server's per request, the lowest)`,
  );
  const head = ['scenario', 'node', 'req/s', 'p99 ms', 'cpu µs/req'];
  const rows = [];
  const names = {
    ceiling: 'bare route (ceiling)',
    'check-session': 'check-session',
    'case list': 'case list',
  };
  const diffs = [];
  for (const [name, label] of Object.entries(names)) {
    const [a, b] = runtimes.map((r) => best(r, name));
    for (const [r, f] of [
      [runtimes[0], a],
      [runtimes[1], b],
    ]) {
      if (f)
        rows.push([
          label,
          r.version,
          String(Math.round(f.rps)),
          String(f.p99),
          String(f.cpuUs ?? ''),
        ]);
    }
    if (a && b) {
      const pct = (x, y) => `${x >= y ? '+' : ''}${((x / y - 1) * 100).toFixed(1)}%`;
      const cpu = a.cpuUs && b.cpuUs ? `, CPU per request ${pct(b.cpuUs, a.cpuUs)}` : '';
      diffs.push(
        `${label}: ${runtimes[1].version} ${pct(b.rps, a.rps)} req/s (${Math.round(b.rps)} vs ${Math.round(a.rps)}), p99 ${b.p99} vs ${a.p99} ms${cpu}`,
      );
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  for (const d of diffs) console.log(d);
  return failed;
}

// ------------------------------------------------------------------ main

/**
 * `--only=<part>` for a part of its own: `apps/server/bench/parts/<part>.ts` runs as a child
 * process on the project's Node.js with the server's flags and these options (`--duration`,
 * BENCH_PG_URL); it prepares what it needs, prints its figures with the ceiling of its own run,
 * cleans up, and exits 1 when a target is missed. The default run leaves parts out unless they
 * are listed in `DEFAULT_PARTS`.
 */
const PARTS_DIR = join(root, 'apps/server/bench/parts');
// What the issues ask `npm run bench` to report (28: throughput with the load from a separate
// process and first loads; 29: an import, the ops queue; 31: subscriptions due; 33: the email
// drain). Each also runs alone with --only=<part>.
const DEFAULT_PARTS = [
  'separate',
  'first-load',
  'import',
  'ops-outstanding',
  'subscriptions',
  'email-drain',
];

function runPart(part) {
  const file = join(PARTS_DIR, `${part}.ts`);
  console.log(`\n▶ ${part} (apps/server/bench/parts/${part}.ts)`);
  return new Promise((resolve) => {
    const proc = fork(file, process.argv.slice(2), {
      cwd: join(root, 'apps/server'),
      execPath: projectNode,
      execArgv: [...serverNodeFlags, ...sourceNodeFlags],
      env: {
        ...process.env,
        BENCH_PG_URL: PG_URL,
        BENCH_DURATION: String(DURATION),
        ENCRYPTION_KEYS: benchKeys,
        ENCRYPTION_INDEX_KEY: benchIndexKey,
      },
      stdio: 'inherit',
    });
    child = proc;
    proc.on('exit', (code) => {
      child = null;
      resolve(code === 0 ? 0 : 1);
    });
  });
}

if (only !== undefined && existsSync(join(PARTS_DIR, `${only}.ts`))) {
  process.exit(await runPart(only));
}

if (only === 'runtimes') {
  let failed = true;
  try {
    failed = await benchRuntimes();
  } catch (err) {
    console.error(`\nbench failed: ${err.stack ?? err}`);
  } finally {
    await cleanupAll();
  }
  process.exit(failed ? 1 : 0);
}

if (only === 'uploads') {
  let failed = true;
  try {
    failed = await benchUploads();
  } catch (err) {
    console.error(`\nbench failed: ${err.stack ?? err}`);
  } finally {
    await cleanupAll();
  }
  process.exit(failed ? 1 : 0);
}

if (only === 'driving') {
  let failed = true;
  try {
    failed = await benchDrivingBoth();
  } catch (err) {
    console.error(`\nbench failed: ${err.stack ?? err}`);
  } finally {
    await cleanupAll();
  }
  process.exit(failed ? 1 : 0);
}

if (only === 'million') {
  let failed = true;
  try {
    failed = await benchMillion();
  } catch (err) {
    console.error(`\nbench failed: ${err.stack ?? err}`);
  } finally {
    await cleanupAll();
  }
  process.exit(failed ? 1 : 0);
}

if (only === 'callbacks') {
  let failed = true;
  try {
    failed = await benchCallbacks();
  } catch (err) {
    console.error(`\nbench failed: ${err.stack ?? err}`);
  } finally {
    await cleanupAll();
  }
  process.exit(failed ? 1 : 0);
}

const runs = [];
let exitCode = 0;
try {
  if (only !== 'pglite') {
    if (await pgReachable()) {
      runs.push(await benchOne('PostgreSQL', await preparePg()));
      await cleanupAll();
    } else {
      console.error(`\nPostgreSQL at ${PG_URL} does not answer: its figures are missing.`);
      runs.push({ label: 'PostgreSQL', figures: [], gaps: [`no server at ${PG_URL}`] });
      exitCode = 1;
    }
  }
  if (only !== 'pg') {
    runs.push(await benchOne('PGlite', preparePglite()));
    await cleanupAll();
  }
  if (report(runs)) exitCode = 1;
  // the default run (no --only) adds the driving-kinds drain (issue 27)
  if (only === undefined && (await benchDrivingBoth())) exitCode = 1;
  if (only === undefined) for (const part of DEFAULT_PARTS) if (await runPart(part)) exitCode = 1;
} catch (err) {
  console.error(`\nbench failed: ${err.stack ?? err}`);
  exitCode = 1;
} finally {
  await cleanupAll();
}
process.exit(exitCode);
