// `npm run bench -- --only=import` (issue 29): an import of subjects from a CSV on PostgreSQL, as
// operations run one (upload, validate, run as the subject-import job, poll until completed),
// against the product served by its own process (bench/serve.ts, job workers on). Measured for
// 2,000 and then 10,000 rows, each on a fresh server process: rows per second of the run (the
// job), the whole import's time, and the server process's resident memory (sampled every 10 ms
// from /proc: before, and its peak from the upload to the end) — which must stay flat as the file
// grows (the file streams through the parser and the rows go in batches). The ceiling (bare
// Fastify, served by the same process) is measured in the same run and printed with them.
//
// The database `kestrel_bench_import` on BENCH_PG_URL is made afresh each run and dropped after.
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPgPool, pgDatabase } from '../../src/db/connection.js';
import { createCustomer, createProductUser } from '../../src/db/factories.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { login, measure } from '../load.js';
import { BENCH_PASSWORD } from '../seed.js';

const HOST = '127.0.0.1';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const DB_NAME = 'kestrel_bench_import';
const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** `--rows=2000,10000` (default): the file sizes, smallest first. */
const SIZES = (arg('rows') ?? '2000,10000').split(',').map(Number);
const PORT = 19_000 + (process.pid % 500) * 2;
const PLAIN_PORT = PORT + 1;
const OPS_USER = 'bench-ops@bench.test';
const MB = 1024 * 1024;
/** Flat: the peak's rise over the baseline may grow by at most this much from 2,000 to 10,000. */
const FLAT_MB = 40;

const dbUrl = (() => {
  const u = new URL(PG_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh database, migrated, with one customer and an operations user. */
async function prepare(): Promise<number> {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const db = pgDatabase(openPgPool(dbUrl, 2), openPgPool(dbUrl, 2));
  try {
    await migrateDatabase(db);
    return await db.ownerTransaction(async (tx) => {
      const id = (await createCustomer(tx, { name: 'Bench imports' })).id;
      await createProductUser(tx, {
        customerId: null,
        username: OPS_USER,
        password: BENCH_PASSWORD,
        roles: ['ops'],
      });
      return id;
    });
  } finally {
    await db.close();
  }
}

/** Letters only (the subject schema refuses digits in names). */
const nameOf = (i: number) =>
  String.fromCharCode(65 + (i % 26)) +
  String.fromCharCode(97 + (Math.floor(i / 26) % 26)) +
  String.fromCharCode(97 + (Math.floor(i / 676) % 26));

function csvOf(rows: number, tag: string): string {
  const lines = ['First name,Last name,Email,Date of birth,Phone'];
  for (let i = 0; i < rows; i += 1) {
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(
      `${nameOf(i)},${nameOf(i + 7)}son,${tag}.${i}@bench.test,1985-03-${day},07911 123456`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function rssOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

let server: ChildProcess | null = null;

function startServer(): Promise<number> {
  const child = fork(fileURLToPath(new URL('../serve.ts', import.meta.url)), [], {
    // BENCH_SERVER_ARGS: more Node.js flags for the server process (e.g. --max-semi-space-size=16)
    execArgv: [
      ...process.execArgv,
      ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: dbUrl,
      BENCH_PORT: String(PORT),
      BENCH_PLAIN_PORT: String(PLAIN_PORT),
      BENCH_LOAD: '0',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  server = child;
  return new Promise((resolve, reject) => {
    child.on('message', (m) => {
      if (m && typeof m === 'object' && 'type' in m && m.type === 'ready') resolve(child.pid ?? 0);
    });
    child.on('exit', (code) => reject(new Error(`server process exited (${code})`)));
  });
}

async function stopServer(): Promise<void> {
  const c = server;
  server = null;
  if (!c || c.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
  });
}

interface Run {
  rows: number;
  uploadS: number;
  validateS: number;
  runS: number;
  rowsPerS: number;
  baseMb: number;
  peakMb: number;
  ceilingRps: number;
}

async function importOnce(rows: number, customerId: number): Promise<Run> {
  const pid = await startServer();
  try {
    const appUrl = `http://${HOST}:${PORT}`;
    const ceiling = await measure('bare Fastify', `http://${HOST}:${PLAIN_PORT}/bare`, [], {
      warmup: 1,
      duration: DURATION,
    });
    const cookie = await login(appUrl, OPS_USER, BENCH_PASSWORD);
    const session = (await (
      await fetch(`${appUrl}/api/accounts/check-session/`, { headers: { cookie } })
    ).json()) as { csrf_token: string };
    const headers = { cookie, 'x-csrftoken': session.csrf_token };
    const csv = csvOf(rows, `r${rows}`);
    // settle, then the baseline
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssOf(pid, 'VmRSS');
    let peak = baseline;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssOf(pid, 'VmRSS'));
      } catch {
        // the process ended
      }
    }, 10);
    const call = async (method: string, path: string, body?: FormData) => {
      const res = await fetch(`${appUrl}${path}`, { method, headers, ...(body ? { body } : {}) });
      const text = await res.text();
      if (res.status >= 300)
        throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as {
        id: number;
        state: string;
        imported_rows: number;
        error: string | null;
      };
    };
    try {
      const t0 = performance.now();
      const form = new FormData();
      form.set('customer', String(customerId));
      form.set('mode', 'all_or_nothing');
      form.set('file', new Blob([csv], { type: 'text/csv' }), `bench-${rows}.csv`);
      const created = await call('POST', '/api/ops/imports/', form);
      const t1 = performance.now();
      await call('POST', `/api/ops/imports/${created.id}/validate/`);
      const t2 = performance.now();
      await call('POST', `/api/ops/imports/${created.id}/run/`);
      for (;;) {
        const now = await call('GET', `/api/ops/imports/${created.id}/`);
        if (now.state === 'completed') {
          if (now.imported_rows !== rows)
            throw new Error(`imported ${now.imported_rows} of ${rows}`);
          break;
        }
        if (now.state === 'failed') throw new Error(`import failed: ${now.error}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const t3 = performance.now();
      peak = Math.max(peak, rssOf(pid, 'VmRSS'));
      return {
        rows,
        uploadS: (t1 - t0) / 1000,
        validateS: (t2 - t1) / 1000,
        runS: (t3 - t2) / 1000,
        rowsPerS: rows / ((t3 - t2) / 1000),
        baseMb: baseline / MB,
        peakMb: peak / MB,
        ceilingRps: ceiling.rps,
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await stopServer();
  }
}

let failed = false;
const runs: Run[] = [];
try {
  const customerId = await prepare();
  console.log(`  database ${DB_NAME}; port ${PORT}`);
  for (const rows of SIZES) {
    const r = await importOnce(rows, customerId);
    runs.push(r);
    console.log(
      `  ${rows.toLocaleString('en-GB').padStart(6)} rows: upload ${r.uploadS.toFixed(1)} s, validate ${r.validateS.toFixed(1)} s, ` +
        `run ${r.runS.toFixed(1)} s (${Math.round(r.rowsPerS)} rows/s); server RSS ${r.baseMb.toFixed(0)} MB → peak ${r.peakMb.toFixed(0)} MB` +
        `  (ceiling: bare Fastify ${Math.round(r.ceilingRps)} req/s)`,
    );
  }
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  failed = true;
} finally {
  await stopServer();
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
}

const small = runs[0];
const large = runs[runs.length - 1];
if (small && large && runs.length > 1) {
  const rise = (r: Run) => r.peakMb - r.baseMb;
  const growth = rise(large) - rise(small);
  console.log(
    '\n  Import of subjects (CSV, all or nothing) on PostgreSQL, a fresh server process each',
  );
  console.log('  rows   | run rows/s | whole import | server peak RSS (rise over baseline)');
  for (const r of runs) {
    console.log(
      `  ${String(r.rows).padEnd(6)} | ${String(Math.round(r.rowsPerS)).padStart(10)} | ` +
        `${(r.uploadS + r.validateS + r.runS).toFixed(1).padStart(10)} s | ${r.peakMb.toFixed(0)} MB (+${rise(r).toFixed(0)} MB)`,
    );
  }
  console.log(
    `  peak memory grows ${growth.toFixed(0)} MB from ${small.rows} to ${large.rows} rows (target: flat, ≤ ${FLAT_MB} MB)`,
  );
  if (growth > FLAT_MB) failed = true;
}
process.exit(failed ? 1 : 0);
