// Shared helpers for the two commands: install what is missing, build, run.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
