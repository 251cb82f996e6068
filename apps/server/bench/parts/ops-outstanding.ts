// `npm run bench -- --only=ops-outstanding` (issue 29): operations' work queue across 200
// customers on PostgreSQL. The bench data set (bench/seed.ts, seed-cases.ts: 200,000 cases over
// 200 customers, a third of their activities waiting for operations) in `kestrel_bench_cluster`
// on BENCH_PG_URL, loaded by bench/serve.ts on the first run and kept, as --only=cluster keeps it;
// an operations user is added when missing. One server process (bench/serve.ts, its bare Fastify
// ceiling in the same process) and the load from this one (bench/load.ts): the outstanding list
// (25 a page, oldest first), its work-queue filters and the ops dashboard, each right after its
// own ceiling. Target: the unfiltered list's p99 ≤ 50 ms (its share of the ceiling printed).
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { openPgPool, pgDatabase } from '../../src/db/connection.js';
import { createProductUser } from '../../src/db/factories.js';
import { cpuOfPids, type Figure, login, measure, verify } from '../load.js';
import { BENCH_PASSWORD } from '../seed.js';
import { startServeChild, stopServeChild } from '../serve-child.js';

const HOST = '127.0.0.1';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = 2;
const DB_NAME = 'kestrel_bench_cluster';
const OPS_USER = 'bench-ops@bench.test';
const PORT = 19_000 + (process.pid % 1000) * 2;
const PLAIN_PORT = PORT + 1;
const P99_TARGET_MS = 50;
/** Issue 29: the list across 200 customers. */
const CUSTOMERS = 200;

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

const startServer = () => startServeChild({ dbUrl, port: PORT, plainPort: PLAIN_PORT, load: true });

/** The bench's operations user (a product user of no customer, role ops), once. */
async function ensureOpsUser(): Promise<void> {
  const db = pgDatabase(openPgPool(dbUrl, 1), openPgPool(dbUrl, 1));
  try {
    const { rows } = await db.ownerQuery('select 1 from product_users where username = $1', [
      OPS_USER,
    ]);
    if (rows.length > 0) return;
    await db.ownerTransaction((tx) =>
      createProductUser(tx, {
        customerId: null,
        username: OPS_USER,
        password: BENCH_PASSWORD,
        firstName: 'Bench',
        lastName: 'Ops',
        roles: ['ops'],
      }),
    );
  } finally {
    await db.close();
  }
}

const pct = (f: Figure, ceiling: Figure) => (ceiling.rps ? (100 * f.rps) / ceiling.rps : 0);

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
 * A figure with the CPU time per request of the server process and of PostgreSQL's backends (from
 * /proc): what a request costs, which moves far less than req/s with the shared machine's load.
 */
async function measureCosted(
  name: string,
  url: string,
  cookies: string[],
  opts: { warmup: number; duration: number },
): Promise<Figure & { serverCpuUs: number }> {
  const pid = server?.pid;
  let s0 = 0;
  const f = await measure(name, url, cookies, {
    ...opts,
    dbPids: async () => {
      s0 = pid === undefined ? 0 : cpuOfPids([pid]);
      return dbPids();
    },
  });
  const serverCpu = pid === undefined ? 0 : cpuOfPids([pid]) - s0;
  return { ...f, serverCpuUs: f.total ? Math.round(serverCpu / f.total) : 0 };
}

let failed = false;
let server: ChildProcess | null = null;
const rows: { figure: Figure; ceiling: Figure; target: boolean }[] = [];
let dataSet = '';
try {
  await ensureDatabase();
  console.log(`  database ${DB_NAME}; port ${PORT}; load from process ${process.pid}`);
  server = await startServer();
  await ensureOpsUser();
  const appUrl = `http://${HOST}:${PORT}`;
  const plainUrl = `http://${HOST}:${PLAIN_PORT}/bare`;
  const cookie = await login(appUrl, OPS_USER, BENCH_PASSWORD);
  // what the list runs over, counted (the data set is kept between runs: not taken on trust)
  const { customers, cases, waiting, oneCustomer } = await (async () => {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    try {
      const counted = await c.query<{ customers: number; cases: number }>(
        'select (select count(*)::int from customers) as customers, (select count(*)::int from cases) as cases',
      );
      const turn = await c.query<{ n: number }>(
        "select count(*)::int as n from case_activities where state in ('ca-awaiting-ops', 'ca-error-initiating')",
      );
      const hundredth = await c.query<{ id: number }>(
        'select id from customers order by id offset 99 limit 1',
      );
      return {
        customers: Number(counted.rows[0]?.customers ?? 0),
        cases: Number(counted.rows[0]?.cases ?? 0),
        waiting: Number(turn.rows[0]?.n ?? 0),
        oneCustomer: Number(hundredth.rows[0]?.id ?? 1),
      };
    } finally {
      await c.end();
    }
  })();
  dataSet = `${customers.toLocaleString('en-GB')} customers, ${cases.toLocaleString('en-GB')} cases, ${waiting.toLocaleString('en-GB')} activities awaiting operations`;
  console.log(`  data set: ${dataSet}`);
  if (customers < CUSTOMERS)
    throw new Error(`the data set has ${customers} customers, not ${CUSTOMERS}`);
  const opts = { warmup: WARMUP, duration: DURATION };
  const base = `${appUrl}/api/ops/outstanding-activities/?page_size=25`;
  const scenarios: [string, string, boolean][] = [
    ['ops outstanding list', base, true],
    ['… unassigned', `${base}&assignee=unassigned`, false],
    ['… past target', `${base}&past_target=true`, false],
    ['… one kind, over 7 days', `${base}&activity_type=dbs-basic&older_than_days=7`, false],
    ['… one customer', `${base}&customer=${oneCustomer}`, false],
    ['ops dashboard', `${appUrl}/api/ops/dashboard/`, false],
  ];
  // BENCH_OPS_SCENARIOS='ops outstanding list': only the scenarios named (separated by ';'), e.g.
  // for a CPU profile of one (BENCH_SERVER_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof')
  const only = process.env.BENCH_OPS_SCENARIOS
    ? process.env.BENCH_OPS_SCENARIOS.split(';').map((n) => n.trim())
    : null;
  for (const [name, url, target] of scenarios.filter(([n]) => !only || only.includes(n))) {
    await verify(name, url, cookie, (b) =>
      name === 'ops dashboard'
        ? typeof b.waiting === 'object'
          ? null
          : 'no figures'
        : Array.isArray(b.results)
          ? null
          : 'no results',
    );
    const ceiling = await measure('bare Fastify', plainUrl, [], opts);
    const figure = await measureCosted(name, url, [cookie], opts);
    rows.push({ figure, ceiling, target });
    console.log(
      `  ${name.padEnd(26)} ${Math.round(figure.rps).toString().padStart(6)} req/s  p50 ${figure.p50} ms  p99 ${figure.p99} ms  ${pct(figure, ceiling).toFixed(1)}% of ${Math.round(ceiling.rps)}` +
        `  server cpu ${figure.serverCpuUs} µs/req, db cpu ${figure.dbCpuUs ?? '?'} µs/req` +
        (figure.failed ? `  (${figure.failed} failed of ${figure.total})` : '') +
        `  (load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')})`,
    );
    if (figure.failed || figure.total === 0) failed = true;
  }
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  failed = true;
} finally {
  await stopServeChild(server);
}

const main = rows.find((r) => r.target);
if (main) {
  // no request answered in the run is no figure: a failure, not a p99 of 0
  const ok = main.figure.total > 0 && main.figure.rps > 0 && main.figure.p99 <= P99_TARGET_MS;
  console.log(
    `\n  PostgreSQL, ${dataSet}: ops outstanding list ${Math.round(main.figure.rps)} req/s, ` +
      `${pct(main.figure, main.ceiling).toFixed(1)}% of bare Fastify, p99 ${main.figure.p99} ms ` +
      `(target p99 ≤ ${P99_TARGET_MS} ms): ${ok ? 'pass' : 'FAIL'}`,
  );
  if (!ok) failed = true;
}
process.exit(failed ? 1 : 0);
