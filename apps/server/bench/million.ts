// `npm run bench -- --only=million` (issue 28): the lists on a million cases. For each size
// (BENCH_MILLION_SIZES, default "200000,1000000"; BENCH_MILLION_CASES sets the largest) this
// child opens a database of its own on PostgreSQL (kestrel_million_<size>, created from
// BENCH_PG_URL and kept: a later run reuses the loaded data), loads it once with set-based SQL
// (million-seed.ts), serves the app on a loopback port with a bare route (the ceiling), and
// measures each list for the large and the small customer (autocannon, 50 connections, in this
// process as the load bench does). Sends its figures to the parent as a `million` message.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { type Database, openPgPool, pgDatabase, servingUrl } from '../src/db/connection.js';
import { createProductUser } from '../src/db/factories.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { type Figure, login, measure } from './load.js';
import { loadedMillion, type MillionSeed, seedMillion } from './million-seed.js';
import { analyze, BENCH_PASSWORD } from './seed.js';

const HOST = '127.0.0.1';
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const WARMUP = 1;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LARGEST = Number(process.env.BENCH_MILLION_CASES ?? 1_000_000);
/** BENCH_MILLION_LISTS: the lists to measure (names, comma-separated; default every one). */
const LISTS = process.env.BENCH_MILLION_LISTS?.split(',').map((n) => n.trim());
const SIZES = (process.env.BENCH_MILLION_SIZES ?? `200000,${LARGEST}`)
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);

export interface MillionFigure extends Figure {
  size: number;
  customer: 'large' | 'small';
  customerCases: number;
  ceiling: Figure;
  load: number;
}

function send(message: unknown): void {
  if (process.send) process.send(message);
  else process.stdout.write(`${JSON.stringify(message)}\n`);
}
const log = (text: string) => send({ type: 'log', text });
const load1 = () => Math.round((loadavg()[0] ?? 0) * 10) / 10;

async function timed(label: string, fn: () => Promise<void>): Promise<void> {
  const t0 = performance.now();
  await fn();
  log(`${label} (${((performance.now() - t0) / 1000).toFixed(1)} s, load ${load1()})`);
}

/** kestrel_million_<size> on the bench's server, created when absent; its URL. */
async function databaseFor(size: number): Promise<string> {
  const name = `kestrel_million_${size}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rows.length === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

const adminOf = (customerId: number) => `million-admin-${customerId}@bench.test`;

/** The data set of `size` cases, loaded unless the database holds it already. */
async function prepare(db: Database, size: number): Promise<MillionSeed> {
  await timed('migrated', () => migrateDatabase(db));
  const found = await loadedMillion(db, size);
  if (found) {
    log(`reusing the ${size.toLocaleString('en')} cases already loaded`);
    await db.ownerExec('delete from rate_limits');
    return found;
  }
  const t0 = performance.now();
  const seed = await seedMillion(db, size, (label, fn) => timed(label, fn));
  await db.ownerTransaction(async (tx) => {
    for (const c of [seed.large, seed.small]) {
      await createProductUser(tx, {
        customerId: c.customerId,
        username: adminOf(c.customerId),
        password: BENCH_PASSWORD,
        roles: ['admin'],
      });
    }
  });
  await timed('vacuumed, analyzed, checkpointed', () => analyze(db));
  log(
    `loaded ${size.toLocaleString('en')} cases in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return seed;
}

const portOf = (f: { server: { address(): unknown } }) => {
  const a = f.server.address();
  return a && typeof a === 'object' && 'port' in a ? Number(a.port) : 0;
};

/** Connections of the export's load: each answer is thousands of rows of CSV. */
const EXPORT_CONNECTIONS = 2;

/**
 * The export measured with EXPORT_CONNECTIONS connections for twice the duration (at 50, a large
 * customer's exports queue behind each other for longer than a run: no figure at all).
 */
async function measureExport(name: string, url: string, cookie: string): Promise<Figure> {
  const opts = { url, connections: EXPORT_CONNECTIONS, timeout: 30, headers: { cookie } };
  await autocannon({ ...opts, duration: WARMUP });
  const cpu0 = process.cpuUsage();
  const r = await autocannon({ ...opts, duration: DURATION * 2 });
  const cpu = process.cpuUsage(cpu0);
  return {
    name,
    rps: r.requests.average,
    p99: r.latency.p99,
    p50: r.latency.p50,
    total: r.requests.total,
    failed: r.errors + r.timeouts + r.non2xx + (r.requests.total === 0 ? 1 : 0),
    cpuUs: r.requests.total ? Math.round((cpu.user + cpu.system) / r.requests.total) : 0,
    dbCpuUs: null,
  };
}

/**
 * One answer checked before the load, so a wrong answer is an error, not a fast figure; its size
 * (a list's `count`, an export's rows) for the log.
 */
async function check(url: string, cookie: string): Promise<string> {
  const res = await fetch(url, { headers: { cookie } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  if (url.includes('/export/')) return `${text.split('\r\n').length - 2} rows`;
  const count = /^\{"count":(\d+)/.exec(text)?.[1];
  return count === undefined ? '' : `count ${count}${text.includes('"count_capped"') ? '+' : ''}`;
}

/** One data set served: its database, app and each customer's session and case ids. */
interface Served {
  size: number;
  seed: MillionSeed;
  base: string;
  sessions: Record<'large' | 'small', { cookie: string; detail: string[]; since: string }>;
  close: () => Promise<void>;
}

async function serve(size: number): Promise<Served> {
  log(`▶ ${size.toLocaleString('en')} cases across 1,000 customers`);
  const url = await databaseFor(size);
  const db = pgDatabase(openPgPool(servingUrl(url)), openPgPool(url, 2));
  const seed = await prepare(db, size);
  const app = await buildApp({
    db,
    logger: false,
    config: { logLevel: 'silent', housekeepingMs: 0, webDist: null, publicUrl: `http://${HOST}` },
  });
  app.get('/bench/bare/', { config: { access: { audience: 'public' } } }, async () => ({
    ok: true,
  }));
  await app.listen({ host: HOST, port: 0 });
  const base = `http://${HOST}:${portOf(app)}`;
  const session = async (customerId: number) => {
    const cookie = await login(base, adminOf(customerId), BENCH_PASSWORD);
    const ids = await db.readInline(
      { scope: 'tenant', customerId },
      'select id from cases where archived_at is null order by created_at desc limit 40',
    );
    // the export's window: EXPORT_DAYS before the customer's newest case (same rows on every size)
    const [newest] = await db.readInline(
      { scope: 'tenant', customerId },
      'select max(created_at) as at from cases',
    );
    const at = new Date(String(newest?.at ?? new Date().toISOString())).getTime();
    const since = new Date(at - EXPORT_DAYS * 86_400_000).toISOString().slice(0, 10);
    return { cookie, detail: ids.map((r) => `/api/cases/${Number(r.id)}/`), since };
  };
  return {
    size,
    seed,
    base,
    sessions: {
      large: await session(seed.large.customerId),
      small: await session(seed.small.customerId),
    },
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/**
 * The export's window in days: the cases created in it (the newest cases are as dense on every
 * size, 1,000 customers sharing one case every 30 s) are the same number on 200,000 and 1,000,000
 * cases (the large customer ~1,700 awaiting-subject rows, the small one ~30), so its p99 compares
 * the same export on both. Exporting all of a customer's awaiting-subject cases (20%) compared an
 * answer five times larger (up to the 10,000-row cap) with the smaller one.
 */
const EXPORT_DAYS = 60;

const LIST = '/api/cases/?page_size=25';
type Session = { detail: string[]; since: string };
const SCENARIOS: { name: string; path: (session: Session) => string; paths?: boolean }[] = [
  { name: 'case list', path: () => LIST },
  { name: 'case search', path: () => `${LIST}&search=hartley` },
  { name: 'case list filtered', path: () => `${LIST}&state=in-progress` },
  { name: 'case detail', path: (s) => s.detail[0] ?? '/api/cases/0/', paths: true },
  { name: 'dashboard counts', path: () => '/api/dashboard/' },
  { name: 'outstanding activities', path: () => '/api/outstanding-activities/?page_size=25' },
  { name: 'audit log', path: () => '/api/audit-actions/?page_size=25' },
  {
    name: 'export',
    path: (s) => `/api/cases/export/?state=awaiting-subject&created_after=${s.since}`,
  },
];

/**
 * Every list for the large and then the small customer, on each data set in turn, back to back
 * (the machine's load moves by minutes: the sizes of one list are compared under the same load),
 * each customer's lists after a ceiling measured on the first app.
 */
async function measureAll(served: Served[]): Promise<MillionFigure[]> {
  const figures: MillionFigure[] = [];
  const opts = { warmup: WARMUP, duration: DURATION };
  // Each app's first requests compile its code paths and prepare its statements: 3 s of the case
  // list on each first, or the first size measured pays for that (5x the p99 in a trial run).
  for (const d of served) {
    await measure('warm-up', `${d.base}${LIST}`, [d.sessions.large.cookie], {
      warmup: 1,
      duration: 3,
    });
  }
  for (const customer of ['large', 'small'] as const) {
    const first = served[0];
    if (!first) return figures;
    const ceiling = await measure('ceiling', `${first.base}/bench/bare/`, [], opts);
    log(`${customer} customer: ceiling ${Math.round(ceiling.rps)} req/s, p99 ${ceiling.p99} ms`);
    for (const [i, s] of SCENARIOS.filter((x) => !LISTS || LISTS.includes(x.name)).entries()) {
      // the sizes take turns going first, so neither always meets the machine's next swing first
      for (const d of i % 2 === 0 ? served : [...served].reverse()) {
        const { cookie, detail } = d.sessions[customer];
        const url = `${d.base}${s.path(d.sessions[customer])}`;
        const size = await check(url, cookie);
        const f =
          s.name === 'export'
            ? await measureExport(s.name, url, cookie)
            : await measure(s.name, url, [cookie], {
                ...opts,
                ...(s.paths ? { paths: [detail] } : {}),
              });
        const figure: MillionFigure = {
          ...f,
          size: d.size,
          customer,
          customerCases: d.seed[customer].cases,
          ceiling,
          load: load1(),
        };
        log(
          `  ${s.name.padEnd(24)} ${String(d.size).padStart(8)} cases ${Math.round(f.rps).toString().padStart(6)} req/s  p99 ${f.p99} ms${f.failed ? `  (${f.failed} failed)` : ''}  load ${figure.load}${size ? `  (${size})` : ''}`,
        );
        figures.push(figure);
      }
    }
  }
  return figures;
}

const served: Served[] = [];
try {
  for (const size of SIZES) served.push(await serve(size));
  const figures = await measureAll(served);
  for (const d of served) await d.close();
  // the parent must have the figures before this process ends
  const message = { type: 'million', figures };
  await new Promise<void>((resolve) => {
    if (process.send) process.send(message, () => resolve());
    else {
      send(message);
      resolve();
    }
  });
  process.exit(0);
} catch (err) {
  log(`million bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
}
