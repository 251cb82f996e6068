// Shared helpers for the two commands: install what is missing, build, run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    ...opts,
    env: { ...process.env, ...opts.env },
  });
  return r.status ?? 1;
}

export function must(cmd, args, opts) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} exited with ${code}`);
    process.exit(code);
  }
}

/** Installs npm dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    console.log('› Installing dependencies (npm install, from the committed lockfile)…');
    // Not `npm ci`: the registry here serves only this platform's optional binaries (Biome's), so
    // the lockfile lacks the others and `npm ci`'s strict check refuses it.
    must('npm', ['install', '--no-audit', '--no-fund']);
  }
}

/**
 * KESTREL_START_TRACE=1 (`npm run bench:start -- --trace`): when a step of `npm start` ended, as
 * epoch milliseconds on stderr (the server prints its own steps the same way).
 */
export function traceStart(step, at = Date.now()) {
  if (process.env.KESTREL_START_TRACE === '1')
    process.stderr.write(`start-trace ${step} @${Math.round(at)}\n`);
}

/**
 * The project's own Node.js: the `node` package (devDependencies, pinned) installs the platform's
 * official binary from the npm registry, and npm scripts run `node_modules/.bin` first, so
 * `npm start` and `npm test` run it (whatever node the machine has) once it is installed.
 */
export const projectNode = join(root, 'node_modules', '.bin', 'node');

function samePath(a, b) {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Installs what is missing, then makes sure this script runs on the project's Node.js: on a fresh
 * clone `npm start`/`npm test` begin on the machine's node (node_modules/.bin is not there yet),
 * so the script runs itself again on the project's node, with node_modules/.bin first on PATH
 * (the npm, npx, vitest and builds it starts run on it too), forwards the signals it gets and
 * exits with its code. Returns when already on it (or when the binary could not be installed:
 * then on the machine's node, with a warning).
 */
export async function ensureRuntime() {
  ensureDependencies();
  if (samePath(process.execPath, projectNode)) return;
  if (!existsSync(projectNode) || process.env.KESTREL_RUNTIME_REEXEC === '1') {
    console.warn(
      `⚠ running on the machine's Node.js ${process.version}: the project's (node_modules/.bin/node, the \`node\` package) is missing; \`npm install\` installs it`,
    );
    return;
  }
  const bin = join(root, 'node_modules', '.bin');
  const child = spawn(projectNode, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      KESTREL_RUNTIME_REEXEC: '1',
      PATH: [bin, process.env.PATH ?? ''].join(delimiter),
    },
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => child.kill(sig));
  }
  const code = await new Promise((done) => {
    child.on('exit', (c, signal) => done(c ?? (signal ? 128 : 1)));
    child.on('error', () => done(1));
  });
  process.exit(code);
}

/**
 * Node flags of the server process (npm start, the bench, the browser tests). A 64 MB young
 * generation: a busy server's per-request objects die young; with the default (16 MB) V8
 * scavenged every ~100 ms under load, 6-8 ms each, and promoted in-flight requests to the old
 * generation. Measured with `npm run bench` in alternation: about 10% less CPU per request on the
 * lists.
 */
export const serverNodeFlags = [
  '--max-semi-space-size=64',
  ...(process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : []),
];

/** Node flags that run the TypeScript sources (tsx), the domain package from its sources too. */
export const sourceNodeFlags = ['--conditions=kestrel-source', '--import', 'tsx'];

/** The compiled server (`node scripts/build.mjs server`), which imports the built domain package. */
export const serverEntry = 'apps/server/dist/main.js';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Installs Debian's Chromium for the browser tests when it is not there. */
export function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  console.log('› Installing Chromium (apt-get)…');
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const pre = sudo.length ? sudo : [];
  must(pre[0] ?? 'apt-get', pre.length ? ['apt-get', 'update', '-qq'] : ['update', '-qq'], { env });
  must(
    pre[0] ?? 'apt-get',
    [...(pre.length ? ['apt-get'] : []), 'install', '-y', '-qq', 'chromium'],
    { env },
  );
}
