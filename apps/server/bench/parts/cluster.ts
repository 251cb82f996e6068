// `npm run bench -- --only=cluster` (issue 28): the product on PostgreSQL served by one process and
// then by two processes behind one port (bench/serve.ts, SO_REUSEPORT), with the load driven from
// THIS process (autocannon, bench/load.ts), separate from the servers. For each: bare Fastify (an
// instance with no plugins, the ceiling), the app's bare route, check-session and the case list
// (25 a page), each right after its own ceiling measurement. Prints req/s, p99 and the share of
// the ceiling; the one-process figures are the API-throughput targets with the load from a
// separate process (check-session ≥ 35% of bare Fastify and p99 ≤ 15 ms; the case list ≥ 12% and
// p99 ≤ 40 ms), and two processes must serve more requests per second than one.
//
// The data set (bench/seed.ts, seed-cases.ts: 200,000 cases over 200 customers, the load bench's)
// lives in `kestrel_bench_cluster` on BENCH_PG_URL, loaded by the first run and kept (drop it to
// load again). `--workers=1` measures one process only (`--only=separate` does that).
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cpuOfPids, type Figure, login, measure, verify } from '../load.js';
import { BENCH_PASSWORD } from '../seed.js';

const HOST = '127.0.0.1';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = 2;
const DB_NAME = 'kestrel_bench_cluster';
const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const WORKERS = (arg('workers') ?? '1,2').split(',').map(Number);
const PORT = 18_000 + (process.pid % 1000) * 2;
const PLAIN_PORT = PORT + 1;

const dbUrl = (() => {
  const u = new URL(PG_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [DB_NAME]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await admin.end();
  }
}

const servers: ChildProcess[] = [];

/** Starts one server process; resolves with its ready message once it listens. */
function startServer(load: boolean): Promise<{ usernames: string[] }> {
  const child = fork(fileURLToPath(new URL('../serve.ts', import.meta.url)), [], {
    // BENCH_SERVER_ARGS: more Node.js flags for the server processes (e.g. --cpu-prof).
    execArgv: [
      ...process.execArgv,
      ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: dbUrl,
      BENCH_PORT: String(PORT),
      BENCH_PLAIN_PORT: String(PLAIN_PORT),
      BENCH_LOAD: load ? '1' : '0',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  servers.push(child);
  return new Promise((resolve, reject) => {
    child.on('message', (m) => {
      if (!m || typeof m !== 'object' || !('type' in m)) return;
      if (m.type === 'log' && 'text' in m) console.log(`  server ${child.pid}: ${String(m.text)}`);
      if (m.type === 'ready' && 'usernames' in m && Array.isArray(m.usernames)) {
        resolve({ usernames: m.usernames.map(String) });
      }
    });
    child.on('exit', (code) => reject(new Error(`server process exited (${code})`)));
  });
}

async function stopServers(): Promise<void> {
  await Promise.all(
    servers.splice(0).map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
}

interface Row {
  workers: number;
  plain: Figure;
  bare: Figure;
  session: Figure;
  sessionCeiling: Figure;
  list: Figure;
  listCeiling: Figure;
}

/** The PostgreSQL backends serving the bench database (their CPU time: `db cpu µs/req`). */
async function dbPids(): Promise<number[]> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [DB_NAME],
    );
    return rows.map((r) => Number(r.pid));
  } finally {
    await admin.end();
  }
}

/**
 * A figure with the CPU time per request of the server processes and of PostgreSQL's backends
 * (read from /proc: PostgreSQL on this machine): what a request costs, which moves far less with
 * the machine's other work than req/s (on the shared 2-core host, load averages of 15-40).
 */
interface Costed extends Figure {
  serverCpuUs: number;
}

async function measureCosted(
  name: string,
  url: string,
  cookies: string[],
  opts: { warmup: number; duration: number },
): Promise<Costed> {
  const pids = servers.map((c) => c.pid).filter((p): p is number => p !== undefined);
  let s0 = 0;
  const f = await measure(name, url, cookies, {
    ...opts,
    dbPids: async () => {
      s0 = cpuOfPids(pids);
      return dbPids();
    },
  });
  const serverCpu = cpuOfPids(pids) - s0;
  return { ...f, serverCpuUs: f.total ? Math.round(serverCpu / f.total) : 0 };
}

const pct = (f: Figure, ceiling: Figure) => (ceiling.rps ? (100 * f.rps) / ceiling.rps : 0);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** BENCH_PROFILE_LIST=1: only the case list, no ceilings (a CPU profile of the list alone). */
async function profileList(cookies: string[]): Promise<void> {
  const list = `http://${HOST}:${PORT}/api/cases/?page_size=25`;
  const f = await measure('case list', list, cookies, { warmup: WARMUP, duration: DURATION });
  console.log(`  case list (profiled) ${Math.round(f.rps)} req/s  p99 ${f.p99} ms`);
}

async function measureAll(workers: number, cookies: string[]): Promise<Row> {
  const opts = { warmup: WARMUP, duration: DURATION };
  const appUrl = `http://${HOST}:${PORT}`;
  const plainUrl = `http://${HOST}:${PLAIN_PORT}/bare`;
  const show = (f: Figure | Costed, ceiling?: Figure) =>
    console.log(
      `  ${workers} process${workers > 1 ? 'es' : ''}  ${f.name.padEnd(22)} ${Math.round(f.rps)
        .toString()
        .padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms` +
        (ceiling ? `  ${pct(f, ceiling).toFixed(1)}% of ${Math.round(ceiling.rps)}` : '') +
        ('serverCpuUs' in f
          ? `  server cpu ${f.serverCpuUs} µs/req, db cpu ${f.dbCpuUs ?? '?'} µs/req`
          : '') +
        (f.failed ? `  (${f.failed} failed of ${f.total})` : '') +
        `  (load ${load()})`,
    );
  const plain = await measure('bare Fastify', plainUrl, [], opts);
  show(plain);
  const bare = await measure("app's bare route", `${appUrl}/bench/bare/`, [], opts);
  show(bare, plain);
  const session = `${appUrl}/api/accounts/check-session/`;
  await verify('check-session', session, cookies[0], (b) =>
    b.authenticated === true ? null : 'not authenticated',
  );
  const sessionCeiling = await measure('bare Fastify', plainUrl, [], opts);
  const sessionFigure = await measureCosted('check-session', session, cookies, opts);
  show(sessionFigure, sessionCeiling);
  const list = `${appUrl}/api/cases/?page_size=25`;
  await verify('case list', list, cookies[0], (b) =>
    Array.isArray(b.results) && b.results.length === 25 ? null : `count ${b.count}`,
  );
  const listCeiling = await measure('bare Fastify', plainUrl, [], opts);
  const listFigure = await measureCosted('case list', list, cookies, opts);
  show(listFigure, listCeiling);
  return {
    workers,
    plain,
    bare,
    session: sessionFigure,
    sessionCeiling,
    list: listFigure,
    listCeiling,
  };
}

let failed = false;
const rows: Row[] = [];
try {
  await ensureDatabase();
  console.log(`  database ${DB_NAME}; port ${PORT}; load from process ${process.pid}`);
  const first = await startServer(true);
  let running = 1;
  const appUrl = `http://${HOST}:${PORT}`;
  const cookies: string[] = [];
  for (const u of first.usernames) cookies.push(await login(appUrl, u, BENCH_PASSWORD));
  if (process.env.BENCH_PROFILE_LIST === '1') await profileList(cookies);
  for (const workers of process.env.BENCH_PROFILE_LIST === '1' ? [] : WORKERS) {
    while (running < workers) {
      await startServer(false);
      running++;
    }
    rows.push(await measureAll(workers, cookies));
  }
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  failed = true;
} finally {
  await stopServers();
}

/** The targets with the load from a separate process (one server process). */
const TARGETS = { session: { share: 35, p99: 15 }, list: { share: 12, p99: 40 } };

if (rows.length > 0) {
  console.log(
    '\n  Load from a separate process, PostgreSQL, 200,000 cases; share of bare Fastify in the same run',
  );
  console.log('  processes | bare Fastify | check-session (share, p99)  | case list (share, p99)');
  for (const r of rows) {
    console.log(
      `  ${String(r.workers).padEnd(9)} | ${Math.round(r.plain.rps).toString().padStart(12)} | ` +
        `${Math.round(r.session.rps)} (${pct(r.session, r.sessionCeiling).toFixed(1)}%, ${r.session.p99} ms)`.padEnd(
          28,
        ) +
        ` | ${Math.round(r.list.rps)} (${pct(r.list, r.listCeiling).toFixed(1)}%, ${r.list.p99} ms)`,
    );
    if (r.session.failed || r.list.failed) failed = true;
  }
  const one = rows.find((r) => r.workers === 1);
  if (one) {
    const verdict = (f: Figure, c: Figure, t: { share: number; p99: number }) =>
      pct(f, c) >= t.share && f.p99 <= t.p99 ? 'pass' : 'FAIL';
    const s = verdict(one.session, one.sessionCeiling, TARGETS.session);
    const l = verdict(one.list, one.listCeiling, TARGETS.list);
    console.log(
      `  targets (1 process): check-session ≥ 35%, p99 ≤ 15 ms: ${s}; case list ≥ 12%, p99 ≤ 40 ms: ${l}`,
    );
    if (s === 'FAIL' || l === 'FAIL') failed = true;
  }
  const two = rows.find((r) => r.workers === 2);
  if (one && two) {
    const more = (a: Figure, b: Figure) =>
      `${Math.round(a.rps)} → ${Math.round(b.rps)} req/s (×${(b.rps / a.rps).toFixed(2)})`;
    console.log(
      `  two processes vs one: check-session ${more(one.session, two.session)}, case list ${more(one.list, two.list)}`,
    );
    if (two.list.rps <= one.list.rps) {
      console.log('  FAIL: two processes served no more case lists than one');
      failed = true;
    }
  }
}
process.exit(failed ? 1 : 0);
