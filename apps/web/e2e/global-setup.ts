import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The port of each worker's server (index: VITEST_POOL_ID - 1). */
    serverPorts: number[];
  }
}

const repoRoot = resolve(import.meta.dirname, '../../..');

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export async function waitForHealth(
  port: number,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  // A first start migrates and seeds; on a busy 2-core machine that took over two minutes.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /healthz within 300 s:\n${log()}`);
}

interface Running {
  port: number;
  /** Stops the server: its exit code, null when it had to be killed. */
  stop: (graceMs?: number) => Promise<number | null>;
}

/** The PostgreSQL server of KESTREL_E2E_PG_URL: its client programs' arguments and URLs. */
function postgresServer(base: string) {
  const server = new URL(base);
  const args = [
    '-h',
    server.hostname,
    '-p',
    server.port || '5432',
    '-U',
    server.username || 'postgres',
  ];
  const run = (cmd: string, extra: string[]) => {
    const done = spawnSync(cmd, [...args, ...extra], { encoding: 'utf8' });
    if (done.status !== 0)
      throw new Error(`${cmd} ${extra.join(' ')}: ${done.stderr || done.error}`);
  };
  const url = (name: string) => {
    const u = new URL(base);
    u.pathname = `/${name}`;
    return u.toString();
  };
  return { run, url };
}

interface Store {
  dataDir: string;
  /** The PostgreSQL database (KESTREL_E2E_PG_URL), else null: PGlite in dataDir. */
  databaseUrl: string | null;
  drop: () => void;
}

/**
 * A fresh data directory and, with KESTREL_E2E_PG_URL (what .ci/run sets when a PostgreSQL server
 * answers), a new database `kestrel_e2e_<n>` on that server instead of the embedded PGlite. The
 * journeys are the same; the embedded database's WebAssembly engine cost the suite more CPU than
 * anything but the browsers (3 servers: about a third of a run's CPU), and CI's 2 cores are the
 * limit. With `from`, both are copies of that (stopped) server's: its migrated and seeded
 * database (`createdb -T`) and its data directory (the seed's documents; PGlite's database).
 */
async function newStore(index: number, from?: Store): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kestrel-e2e-'));
  if (from) cpSync(from.dataDir, dataDir, { recursive: true });
  const base = process.env.KESTREL_E2E_PG_URL;
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (!base) return { dataDir, databaseUrl: null, drop: removeDir };
  const pg = postgresServer(base);
  const name = `kestrel_e2e_${index + 1}`;
  pg.run('dropdb', ['--if-exists', '--force', name]);
  const template = from?.databaseUrl ? ['-T', databaseName(from.databaseUrl)] : [];
  // the stopped server's last connections may take a moment to end ('source database is being
  // accessed by other users')
  for (let attempt = 1; ; attempt++) {
    try {
      pg.run('createdb', [...template, name]);
      break;
    } catch (err) {
      if (attempt >= 20 || !String(err).includes('being accessed by other users')) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    dataDir,
    databaseUrl: pg.url(name),
    drop: () => {
      removeDir();
      try {
        pg.run('dropdb', ['--if-exists', '--force', name]);
      } catch {
        // dropped by the next run's set-up (same names)
      }
    },
  };
}

const databaseName = (url: string) => new URL(url).pathname.slice(1);

/**
 * How often the e2e servers' idle job workers look for due jobs (JOB_POLLING_SECONDS; the
 * product's default is 2 s). A job the app commits wakes its worker at once (NOTIFY), and the
 * simulated providers' clock (POST /api/ops/checks/simulator/advance/) polls an application at
 * once: only delayed jobs, retries and scheduled ones wait for a look. At 2 s, 36 queues' looks
 * were about 22 of an idle server's 25.5 s of PostgreSQL CPU in every-screen-dark, about 15% of
 * CI's 2 cores across the 3 servers. KESTREL_E2E_JOB_POLLING_SECONDS overrides it.
 */
const E2E_JOB_POLLING_SECONDS = process.env.KESTREL_E2E_JOB_POLLING_SECONDS || '10';

/**
 * One server, compiled as `npm start` runs it, on `store` and a free port. `env` adds to its
 * environment (the template server runs no job workers).
 */
async function startServer(store: Store, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--max-semi-space-size=64', 'apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: store.dataDir,
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      TZ: 'UTC',
      JOB_POLLING_SECONDS: E2E_JOB_POLLING_SECONDS,
      // Every browser test signs in from 127.0.0.1: the per-address limit (50 attempts in 15
      // minutes) is for people, not for a suite. The per-account limits stay as they are.
      LOGIN_LIMIT_PER_ADDRESS: '100000',
      // The simulated providers' clock, moved by checks-dbs.test.ts (simulators only).
      CHECKS_SIMULATOR_CONTROL: '1',
      // Each test file's own world (e2e/fixtures.ts): the test-only POST /api/test-fixtures/worlds/.
      KESTREL_E2E_FIXTURES: '1',
      // Webhook receivers started by the tests listen on 127.0.0.1 (api-access.test.ts).
      WEBHOOKS_ALLOW_PRIVATE: '1',
      // The server stops when this run is gone (killed without its teardown), never left working
      // the queues of the next run's databases of the same names.
      KESTREL_EXIT_WITH_PARENT: String(process.pid),
      // No start-up catch-up run of the update service cycles a minute after the start, over the
      // clock the journeys move (its own test is in the server's suite).
      STARTUP_CATCH_UP: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  /** SIGTERM, SIGKILL after `graceMs`; the exit code (null when killed by a signal). */
  const stop = async (graceMs = 10_000): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    return child.exitCode;
  };
  try {
    await waitForHealth(port, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, stop };
}

/**
 * Starts one real server per vitest worker (each on its own fresh database with the demo data,
 * see vitest.e2e.config.ts) and stops them after the run: the files of a worker run one after the
 * other against its server, so a file that changes what every screen shows (the maintenance
 * journey) is only ever seen by the file it runs in. The server is built first when its sources
 * changed since its last build (scripts/build.mjs compares content hashes).
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  }
  const build = spawnSync(process.execPath, ['scripts/build.mjs', 'domain', 'server'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error(`building the server failed (${build.status})`);
  // One server per worker, and no more workers than files: a run of one file starts one server
  // (each first start migrates and seeds, the heaviest minute of a short run).
  const files = project.vitest.state.getPaths().length;
  const workers = Math.max(1, Math.min(project.config.maxWorkers || 1, files || Infinity));
  // The first server migrates and seeds (the heaviest minute of a short run; on PostgreSQL it
  // also creates the cluster's roles, which two starts at once collide on). With more workers it
  // stops once it answers, and every worker's server starts on a copy of its database and data
  // directory: a restart of a few seconds instead of migrating and seeding once more each (on a
  // loaded 2-core machine, a minute or two of the set-up, alone before any journey starts).
  const stores: Store[] = [];
  const servers: Running[] = [];
  const stopAll = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const store of stores) store.drop();
  };
  try {
    const first = await newStore(0);
    stores.push(first);
    if (workers > 1) {
      // No job workers on the template: no job is left half run ('active') in the copies, and
      // the seed's jobs run on each copy's server as they did when each seeded itself. Its
      // stop must be clean (main.ts closes the database, PGlite's files flushed, exit 0) before
      // its files are copied: a killed server's copy could be torn.
      const template = await startServer(first, { JOB_WORKERS: '0' });
      const code = await template.stop(60_000);
      if (code !== 0) throw new Error(`the template server did not stop cleanly (exit ${code})`);
      for (let i = 1; i < workers; i++) stores.push(await newStore(i, first));
    }
    const started = await Promise.allSettled(stores.map((store) => startServer(store)));
    for (const r of started) if (r.status === 'fulfilled') servers.push(r.value);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (err) {
    await stopAll();
    throw err;
  }
  project.provide(
    'serverPorts',
    servers.map((s) => s.port),
  );
  return stopAll;
}
