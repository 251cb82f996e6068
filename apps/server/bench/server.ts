// One database's part of `npm run bench` (scripts/bench.mjs forks it with an IPC channel): opens
// the database it is told (BENCH_DB=pg with BENCH_DATABASE_URL, or BENCH_DB=pglite with
// BENCH_DATA_DIR), migrates, bulk-loads the bench data, serves the app on a loopback port with a
// bare route added to it (the ceiling), then drives the load itself, in this same process, and
// sends the figures to the parent.
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import {
  type Database,
  openPglite,
  openPgPool,
  pgDatabase,
  pgliteDatabase,
  servingUrl,
} from '../src/db/connection.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { type Figure, login, measure, verify } from './load.js';
import {
  analyze,
  BENCH_PASSWORD,
  type BenchUser,
  benchAdmin,
  LOGIN_TENANTS,
  seedPlatform,
  seedUsers,
} from './seed.js';
import { seedCaseData } from './seed-case-data.js';
import type { CaseSeed } from './seed-cases.js';
import { caseScenarios, detailIdsOf, seedCases } from './seed-cases.js';

const HOST = '127.0.0.1';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = 2;

type Message =
  | { type: 'log'; text: string }
  | { type: 'result'; figures: (Figure & { ceiling: Figure })[]; gaps: string[]; info: Figure[] }
  | { type: 'error'; text: string };

function send(message: Message): void {
  if (process.send) process.send(message);
  else process.stdout.write(`${JSON.stringify(message)}\n`);
}
const log = (text: string) => send({ type: 'log', text });

async function openBenchDatabase(): Promise<Database> {
  const kind = process.env.BENCH_DB;
  if (kind === 'pg') {
    const url = process.env.BENCH_DATABASE_URL;
    if (!url) throw new Error('BENCH_DATABASE_URL is required with BENCH_DB=pg');
    // The application's pool (20) unless BENCH_PG_POOL says otherwise (for experiments).
    const size = Number(process.env.BENCH_PG_POOL);
    // Served through the least-privileged login, as the server does (migrations as the owner).
    const serving = servingUrl(url);
    return pgDatabase(
      Number.isInteger(size) && size > 0 ? openPgPool(serving, size) : openPgPool(serving),
      openPgPool(url, 2),
    );
  }
  if (kind === 'pglite') {
    const dir = process.env.BENCH_DATA_DIR;
    if (!dir) throw new Error('BENCH_DATA_DIR is required with BENCH_DB=pglite');
    return pgliteDatabase(await openPglite(dir));
  }
  throw new Error('BENCH_DB must be pg or pglite');
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  log(`${label} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return out;
}

const portOf = (f: { server: { address(): unknown } }) => {
  const a = f.server.address();
  return a && typeof a === 'object' && 'port' in a ? Number(a.port) : 0;
};

const fmt = (f: Figure) =>
  `${f.name.padEnd(30)} ${Math.round(f.rps).toString().padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  cpu ${f.cpuUs} µs/req` +
  (f.failed ? `  (${f.failed} failed of ${f.total})` : '');

interface Scenario {
  name: string;
  url: string;
  check: (body: Record<string, unknown>) => string | null;
  paths?: string[][];
}

const rowsOf = (b: Record<string, unknown>) => (Array.isArray(b.results) ? b.results.length : 0);

/** The customers, users and case data of a database loaded by an earlier run, or null. */
async function reuseLoaded(
  db: Database,
): Promise<{ customerIds: number[]; users: BenchUser[]; cases: CaseSeed } | null> {
  const all = { scope: 'all', customerId: null } as const;
  const found = await db
    .readInline(all, 'select id from customers order by id')
    .catch(() => [] as Record<string, unknown>[]);
  if (found.length === 0) return null;
  const customerIds = found.map((r) => Number(r.id));
  const users = customerIds.slice(0, LOGIN_TENANTS).map(benchAdmin);
  // Each run logs in again: the earlier runs' login attempts must not throttle it.
  await db.ownerExec('delete from rate_limits');
  const cases = caseScenarios(await detailIdsOf(db, customerIds));
  log('reusing the loaded database (BENCH_REUSE=1)');
  return { customerIds, users, cases };
}

const db = await openBenchDatabase();
// BENCH_REUSE=1 (profiling by hand, with BENCH_DATABASE_URL naming a database an earlier run of
// this file loaded and left): skips the load and reads back what it made.
const reused = process.env.BENCH_REUSE === '1' ? await reuseLoaded(db) : null;
if (!reused) await timed('migrated', () => migrateDatabase(db));
const { customerIds } =
  reused ?? (await timed('customers and audit actions loaded', () => seedPlatform(db)));
const users =
  reused?.users ?? (await timed('bench users created', () => seedUsers(db, customerIds)));
const cases = reused?.cases ?? (await timed('cases loaded', () => seedCases(db, customerIds)));
// Reused databases were loaded with the case data when their schema had it.
const caseData =
  reused !== null || (cases.available && (await timed('case data loaded', () => seedCaseData(db))));
if (!reused) await timed('vacuumed, analyzed, checkpointed', () => analyze(db));

const app = await buildApp({
  db,
  logger: false,
  config: { logLevel: 'silent', housekeepingMs: 0, webDist: null, publicUrl: `http://${HOST}` },
});
// The ceiling: a bare route in the same process setup as the app (the same Fastify instance with
// its plugins and global hooks: cookies, helmet headers, request id, access check), doing nothing.
app.get('/bench/bare/', { config: { access: { audience: 'public' } } }, async () => ({ ok: true }));
await app.listen({ host: HOST, port: 0 });
// For information only: a bare route of a Fastify instance with no plugins at all.
const plain = Fastify({ logger: false });
plain.get('/bare', async () => ({ ok: true }));
await plain.listen({ host: HOST, port: 0 });

const appUrl = `http://${HOST}:${portOf(app)}`;

async function run(): Promise<void> {
  const cookies: string[] = [];
  for (const u of users) cookies.push(await login(appUrl, u.username, BENCH_PASSWORD));
  log(`${cookies.length} sessions in ${new Set(users.map((u) => u.customerId)).size} tenants`);

  const bare: Scenario = {
    name: 'bare route (ceiling)',
    url: `${appUrl}/bench/bare/`,
    check: (b) => (b.ok === true ? null : 'not ok'),
  };
  const scenarios: Scenario[] = [
    {
      name: 'check-session',
      url: `${appUrl}/api/accounts/check-session/`,
      check: (b) => (b.authenticated === true ? null : 'not authenticated'),
    },
    {
      name: 'audit list',
      url: `${appUrl}/api/audit-actions/?page_size=25`,
      check: (b) =>
        rowsOf(b) === 25 && Number(b.count) >= 1000 ? null : `count ${b.count}, ${rowsOf(b)} rows`,
    },
  ];
  const gaps: string[] = [];
  if (cases.available) {
    const page = (b: Record<string, unknown>) =>
      rowsOf(b) > 0 ? null : `no rows (count ${b.count})`;
    const list = `${appUrl}/api/cases/?page_size=25`;
    scenarios.push(
      { name: 'case list', url: list, check: page },
      {
        name: 'case list filtered',
        url: `${list}&state=${encodeURIComponent(cases.state)}`,
        check: page,
      },
      {
        name: 'case search',
        url: `${list}&search=${encodeURIComponent(cases.search)}`,
        check: page,
      },
    );
    const paths = users.map((u) =>
      (cases.detailIds[String(u.customerId)] ?? []).map((id) => `/api/cases/${id}/`),
    );
    const first = paths[0]?.[0];
    if (first && paths.every((p) => p.length > 0)) {
      scenarios.push({
        name: 'case detail',
        url: `${appUrl}${first}`,
        paths,
        check: (b) =>
          b.id && Array.isArray(b.case_activities) ? null : 'no id or case_activities',
      });
    } else gaps.push('case detail: no open cases in the logged-in tenants');
    // Case data (issue 15): each tenant's own open cases, as for the detail.
    const perCase = (url: (id: number) => string) =>
      users.map((u) => (cases.detailIds[String(u.customerId)] ?? []).map(url));
    const details = perCase((id) => `/api/case-basic-details/${id}/`);
    const addresses = perCase((id) => `/api/case-addresses/?case=${id}`);
    if (!caseData) gaps.push('case data: the case-data tables do not exist');
    else if (details[0]?.[0] && addresses[0]?.[0] && details.every((p) => p.length > 0)) {
      scenarios.push(
        {
          name: 'case basic details',
          url: `${appUrl}${details[0][0]}`,
          paths: details,
          check: (b) => (b.case && typeof b.forename === 'string' ? null : 'no case or forename'),
        },
        {
          name: 'case addresses with gaps',
          url: `${appUrl}${addresses[0][0]}`,
          paths: addresses,
          check: (b) =>
            rowsOf(b) === 3 && Array.isArray(b.gaps) && b.gaps.length === 1
              ? null
              : `${rowsOf(b)} addresses, gaps ${JSON.stringify(b.gaps)}`,
        },
      );
    }
  } else {
    gaps.push(`cases: ${cases.reason}`);
  }

  const opts = { warmup: WARMUP, duration: DURATION };
  const info: Figure[] = [];
  info.push(await measure('plain Fastify route', `http://${HOST}:${portOf(plain)}/bare`, [], opts));
  log(fmt(info[0] as Figure));
  await verify(bare.name, bare.url, undefined, bare.check);
  // Each scenario runs right after its own ceiling: the machine is shared, so a ceiling measured
  // minutes earlier would compare different conditions.
  const figures: (Figure & { ceiling: Figure })[] = [];
  // BENCH_SCENARIOS=name,name runs only those (for profiling one endpoint).
  const wanted = process.env.BENCH_SCENARIOS?.split(',').map((n) => n.trim());
  for (const s of scenarios) {
    if (wanted && !wanted.includes(s.name)) continue;
    await verify(s.name, s.url, cookies[0], s.check);
    const ceiling = await measure('  ceiling', bare.url, [], opts);
    log(fmt(ceiling));
    const figure = await measure(s.name, s.url, cookies, { ...opts, paths: s.paths });
    log(fmt(figure));
    figures.push({ ...figure, ceiling });
  }
  send({ type: 'result', figures, gaps, info });
}

let closing = false;
async function shutdown(code: number) {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(code || 1), 10_000);
  force.unref();
  try {
    await plain.close();
    await app.close();
    await db.close();
  } finally {
    process.exit(code);
  }
}
process.on('message', (m) => {
  if (m && typeof m === 'object' && 'type' in m && m.type === 'stop') void shutdown(0);
});
process.on('disconnect', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));

try {
  await run();
} catch (err) {
  send({ type: 'error', text: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
if (!process.send) await shutdown(0);
