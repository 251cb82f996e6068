// `npm test`: every test of every workspace. Installs what is missing (npm packages, Debian's
// Chromium), builds, typechecks, then runs each suite and prints one closing line
// 'Tests: N passed, N failed, N skipped' (CI reads it) and the time each step took.
//
//   node scripts/test.mjs [domain|server|web|e2e|server-pg ...] [--changed [ref]] [--pg-url URL]
//
// - Named suites: only those (no typecheck). `server-pg` is the server suite on PostgreSQL.
// - `--pg-url URL` (what .ci/run passes when PostgreSQL answers): the PostgreSQL set of the server
//   suite runs a second time on that server (`server-pg`), alone, before the browser suite, and the
//   browser suite's servers each run on a new database of that server instead of PGlite
//   (beside it, the load reached 12 on 2 cores and journeys timed out). The set is the files
//   marked `// @postgres: <why>`, what differs from PGlite (docs/decisions/022,
//   apps/server/test/postgres-set.ts); `KESTREL_PG_ALL=1` runs every server file on PostgreSQL.
// - `--changed [ref]` (`npm run test:changed`): only the test files a change touches: the files
//   changed in the working tree (staged, unstaged, untracked) and, with a ref, the commits since
//   it (`npm run test:changed -- main`). Per suite, vitest lists the test files that are changed
//   or import a changed file, across workspaces (a change in packages/domain runs the server and
//   web tests importing it); a change to a suite's config or set-up runs all its files. Browser
//   tests import no app code: they run when they or their helpers change. No typecheck.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from './build.mjs';
import { ensureChromium, ensureRuntime, root } from './lib.mjs';

const suites = [
  { name: 'domain', cwd: 'packages/domain', config: 'vitest.config.ts' },
  { name: 'server', cwd: 'apps/server', config: 'vitest.config.ts' },
  { name: 'web', cwd: 'apps/web', config: 'vitest.config.ts' },
  {
    name: 'e2e',
    cwd: 'apps/web',
    config: 'vitest.e2e.config.ts',
    needsBrowser: true,
    needsBuild: true,
  },
  { name: 'server-pg', cwd: 'apps/server', config: 'vitest.config.ts', pg: true },
];

/** `server-pg` runs the PostgreSQL set (KESTREL_PG_SET, read by the server's vitest config). */
const pgAll = process.env.KESTREL_PG_ALL === '1';
const pgSetEnv = { KESTREL_PG_SET: pgAll ? '' : '1' };

/** Parses the arguments: suite names, `--changed [ref]`, `--pg-url URL`. */
function parseArgs(argv) {
  const names = [];
  let changed = null;
  let pgUrl = process.env.TEST_PG_URL ?? null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--changed') {
      const next = argv[i + 1];
      changed = next && !next.startsWith('--') && !isSuite(next) ? next : true;
      if (changed !== true) i++;
    } else if (a.startsWith('--changed=')) changed = a.slice('--changed='.length) || true;
    else if (a === '--pg-url') pgUrl = argv[++i] ?? null;
    else if (a.startsWith('--pg-url=')) pgUrl = a.slice('--pg-url='.length);
    else if (isSuite(a)) names.push(a);
    else {
      console.error(`unknown argument ${a} (suites: ${suites.map((s) => s.name).join(', ')})`);
      process.exit(2);
    }
  }
  return { names, changed, pgUrl };
}

function isSuite(name) {
  return suites.some((s) => s.name === name);
}

const { names, changed, pgUrl } = parseArgs(process.argv.slice(2));
if (names.includes('server-pg') && !pgUrl && !process.env.DATABASE_URL) {
  console.error('server-pg needs --pg-url URL (or DATABASE_URL)');
  process.exit(2);
}
process.env.TZ = 'UTC';

const started = Date.now();
const timings = [];
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** Runs `fn`, noting how long it took under `label`. */
async function timed(label, fn) {
  const t = Date.now();
  try {
    return await fn();
  } finally {
    timings.push([label, Date.now() - t]);
  }
}

/**
 * Runs a command; resolves with its exit code. With `log`, its output goes to that file (printed
 * by the caller when it ends), otherwise to this process's.
 */
function exec(cmd, args, { cwd = root, env = {}, log = null } = {}) {
  return new Promise((done) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (log) {
      const out = createWriteStream(log);
      child.stdout?.pipe(out, { end: false });
      child.stderr?.pipe(out, { end: false });
      child.on('close', (code) => out.end(() => done(code ?? 1)));
    } else child.on('close', (code) => done(code ?? 1));
    child.on('error', () => done(1));
  });
}

/** The test files of a suite touched by the change (vitest's own analysis, `vitest list`). */
async function changedFiles(suite) {
  const out = join(reportDir, `${suite.name}.changed.json`);
  const ref = changed === true ? [] : [String(changed)];
  const code = await exec(
    'npx',
    [
      'vitest',
      'list',
      '--config',
      suite.config,
      '--changed',
      ...ref,
      '--filesOnly',
      `--json=${out}`,
    ],
    { cwd: join(root, suite.cwd), env: suite.pg ? pgSetEnv : {}, log: `${out}.log` },
  );
  if (code !== 0 && !existsSync(out)) {
    console.error(readFileSync(`${out}.log`, 'utf8'));
    throw new Error(`vitest list failed for ${suite.name}`);
  }
  const files = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : [];
  rmSync(out, { force: true });
  rmSync(`${out}.log`, { force: true });
  return files.map((f) => f.file);
}

const reportDir = join(root, 'test-results');
mkdirSync(reportDir, { recursive: true });

let selected = suites.filter((s) =>
  names.length > 0 ? names.includes(s.name) : s.name !== 'server-pg' || Boolean(pgUrl),
);

// on the project's Node.js (node_modules/.bin/node), installed first when missing
await ensureRuntime();
console.log(`› Node.js ${process.version} (${process.execPath})`);
await timed('build domain', () => build(['domain']));

/** Test files per suite (null: all of them). */
const only = new Map();
if (changed) {
  await timed('find changed tests', async () => {
    for (const suite of selected) {
      // on PostgreSQL: the changed files of the PostgreSQL set (vitest lists with its include)
      const files =
        suite.pg && pgAll && only.has('server')
          ? (only.get('server') ?? [])
          : await changedFiles(suite);
      only.set(suite.name, files);
      console.log(`› ${suite.name}: ${files.length} test file(s) touched by the change`);
    }
  });
  selected = selected.filter((s) => (only.get(s.name) ?? []).length > 0);
}

// Longest first (CPU seconds on this machine: server 28, web 19.5, domain 5): two lanes of about
// 33 s (server, domain) and 35 s (the build, web) instead of 28 s, then the build's 15 s alone.
const workspaces = ['apps/server', 'apps/web', 'packages/domain'];
const needsBuild = selected.some((s) => s.needsBuild);
let built = false;
if (names.length === 0 && !changed) {
  // One tsc per workspace, two at a time (two cores); each prints its own errors. The browser
  // suite's build (server, web) is one more job of the two lanes: it needs no typecheck, and
  // beside the long server typecheck it used a core the lane of the two short ones left idle
  // (typecheck 30 s, then the build 14 s, one after the other on CI).
  await timed('typecheck (and build server, web)', async () => {
    const codes = [];
    const queue = [
      ...workspaces.slice(0, 1),
      ...(needsBuild ? ['build'] : []),
      ...workspaces.slice(1),
    ];
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const log = join(
          reportDir,
          `${job === 'build' ? 'build' : `typecheck-${job.replace('/', '-')}`}.log`,
        );
        const code =
          job === 'build'
            ? await exec(process.execPath, ['scripts/build.mjs', 'server', 'web'], { log })
            : await exec('npm', ['run', 'typecheck', '--silent'], { cwd: join(root, job), log });
        const text = readFileSync(log, 'utf8').trim();
        const what = job === 'build' ? 'build server, web' : `typecheck ${job}`;
        console.log(`› ${what}: ${code === 0 ? 'ok' : 'FAILED'}${text ? `\n${text}` : ''}`);
        if (job === 'build') built = code === 0;
        codes.push(code);
      }
    };
    await Promise.all([worker(), worker()]);
    if (codes.some((c) => c !== 0)) {
      console.error('\n✖ typecheck or build failed');
      process.exit(1);
    }
  });
}
if (selected.some((s) => s.needsBrowser)) ensureChromium();
// The browser tests run the compiled server (what `npm start` runs) and the built web app.
if (needsBuild && !built) {
  await timed('build server, web', () => build(['server', 'web']));
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
/** The failing tests' names and first lines, printed again at the very end: CI shows only the tail. */
const failedTests = [];

const pgSetNote = pgAll
  ? ' (every file: KESTREL_PG_ALL=1)'
  : " (the PostgreSQL set, files marked '// @postgres:'; KESTREL_PG_ALL=1 runs every file)";

/** Runs one suite (its output to `log` when given) and adds its counts. */
async function runSuite(suite, log = null) {
  const out = join(reportDir, `${suite.name}.json`);
  rmSync(out, { force: true });
  if (!log) console.log(`\n› ${suite.name} tests${suite.pg ? pgSetNote : ''}`);
  const code = await timed(`${suite.name} tests`, () =>
    exec(
      'npx',
      [
        'vitest',
        'run',
        '--config',
        suite.config,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${out}`,
        // a subset (changed files, the PostgreSQL set) cannot meet a whole-suite coverage
        // threshold; coverage is the PGlite pass's anyway
        ...(only.has(suite.name) || suite.pg ? ['--coverage.enabled=false'] : []),
        ...(only.get(suite.name) ?? []),
      ],
      {
        cwd: join(root, suite.cwd),
        env: suite.pg
          ? { DATABASE_URL: pgUrl ?? process.env.DATABASE_URL ?? '', ...pgSetEnv }
          : // with --pg-url, each browser-suite worker's server has a database of its own on that
            // PostgreSQL server (e2e/global-setup.ts) instead of PGlite: a third less CPU
            suite.needsBrowser && pgUrl
            ? { KESTREL_E2E_PG_URL: pgUrl }
            : {},
        log,
      },
    ),
  );
  if (log) {
    console.log(`\n› ${suite.name} tests${suite.pg ? pgSetNote : ''} (ran alongside; its output)`);
    process.stdout.write(readFileSync(log, 'utf8'));
  }
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    if (r.numFailedTests > 0 || code !== 0) failures.push(suite.name);
    if (code !== 0 && r.numFailedTests === 0) failed += 1; // a suite error (coverage, import) counts
    for (const file of r.testResults ?? []) {
      const where = relative(root, file.name ?? '');
      const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of tests) {
        const why = String(t.failureMessages?.[0] ?? '')
          .split('\n')
          .slice(0, 6)
          .join('\n      ');
        failedTests.push(`${suite.name}: ${where} > ${t.fullName}\n      ${why}`);
      }
      if (!tests.length && file.status === 'failed') {
        const why = String(file.message ?? '')
          .split('\n')
          .slice(0, 6)
          .join('\n      ');
        failedTests.push(
          `${suite.name}: ${where} (the file failed outside its tests)\n      ${why}`,
        );
      }
    }
  } else if (code !== 0) {
    failures.push(suite.name);
    failed += 1;
  }
}

// Every suite alone, one after the other: the unit and integration suites, the PostgreSQL set,
// then the browser suite (its three workers keep the 2 cores busy enough; beside the PostgreSQL
// set the load reached 12 and journeys timed out).
const pgSuites = selected.filter((s) => s.pg);
const first = selected.filter((s) => !s.pg);
const last = first.find((s) => s.needsBrowser);
for (const suite of first) {
  if (suite === last) for (const pgSuite of pgSuites) await runSuite(pgSuite);
  await runSuite(suite);
}
if (!last) for (const suite of pgSuites) await runSuite(suite);

console.log('\nTime per step:');
for (const [label, ms] of timings) console.log(`  ${label.padEnd(24)} ${secs(ms)}`);
console.log(`  ${'total'.padEnd(24)} ${secs(Date.now() - started)}`);
if (failedTests.length) {
  console.log('\nFailed tests:');
  for (const line of failedTests.slice(0, 20)) console.log(`  ${line}`);
}
console.log(`\n${failures.length ? `Failing suites: ${failures.join(', ')}\n` : ''}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
