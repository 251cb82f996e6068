// `npm run build`: builds the domain package, the server and the web app, each only when its
// inputs changed since its last build. A workspace's inputs are its sources and configs (test
// files aside), the root tsconfig and the lockfile; their content hash is kept beside the build
// output (dist/.build-hash) and written only after a build succeeds, so a failed or interrupted
// build is redone next time. Deleting a dist folder forces its build.
//
//   node scripts/build.mjs [domain|server|web ...] [--force]
//
// Each build runs the workspace's own `build` script (npm run build -w <package>).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { must, root } from './lib.mjs';

const COMMON = ['package-lock.json', 'tsconfig.base.json'];
const domainInputs = ['src', 'data', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map(
  (p) => `packages/domain/${p}`,
);

/**
 * The build targets in build order. `clean`: the compiler leaves files of deleted sources behind
 * (a stale dist/modules/<name>/module.js would still be discovered), so dist is emptied first;
 * Vite empties its own.
 */
export const targets = [
  {
    name: 'domain',
    pkg: '@kestrel/domain',
    dist: 'packages/domain/dist',
    output: 'index.js',
    inputs: domainInputs,
    clean: true,
  },
  {
    name: 'server',
    pkg: '@kestrel/server',
    dist: 'apps/server/dist',
    output: 'main.js',
    // Compiled without type checking (`npm run typecheck` checks); the domain package is imported
    // from its own build at run time, so its sources are not an input here.
    inputs: ['src', 'drizzle', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map(
      (p) => `apps/server/${p}`,
    ),
    clean: true,
  },
  {
    name: 'web',
    pkg: '@kestrel/web',
    dist: 'apps/web/dist',
    output: 'index.html',
    // Vite bundles the domain package from its sources (the kestrel-source condition).
    inputs: [
      ...['src', 'public', 'index.html', 'package.json', 'tsconfig.json', 'vite.config.ts'].map(
        (p) => `apps/web/${p}`,
      ),
      ...domainInputs,
    ],
    clean: false,
  },
];

const TEST_FILE = /\.test\.tsx?$/;

function addPath(hash, abs) {
  if (!existsSync(abs)) return;
  if (statSync(abs).isDirectory()) {
    for (const entry of readdirSync(abs).sort()) {
      if (entry === 'node_modules' || entry === 'dist' || TEST_FILE.test(entry)) continue;
      addPath(hash, join(abs, entry));
    }
    return;
  }
  hash.update(`${relative(root, abs).split(sep).join('/')}\0`);
  hash.update(readFileSync(abs));
  hash.update('\0');
}

/** The content hash of a target's inputs. */
export function inputHash(target) {
  const hash = createHash('sha256');
  for (const p of [...COMMON, ...target.inputs]) addPath(hash, join(root, p));
  return hash.digest('hex');
}

const stampOf = (target) => join(root, target.dist, '.build-hash');

/** True when the target's output exists and was built from these exact inputs. */
export function isUpToDate(target, hash = inputHash(target)) {
  if (!existsSync(join(root, target.dist, target.output))) return false;
  try {
    return readFileSync(stampOf(target), 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

/** Builds the named targets (all when none) that changed; returns the names built. */
export function build(names = [], { force = false } = {}) {
  const built = [];
  for (const target of targets) {
    if (names.length > 0 && !names.includes(target.name)) continue;
    const hash = inputHash(target);
    if (!force && isUpToDate(target, hash)) {
      console.log(`› ${target.name}: up to date`);
      continue;
    }
    console.log(`› Building ${target.name}…`);
    const dist = join(root, target.dist);
    if (target.clean) rmSync(dist, { recursive: true, force: true });
    else rmSync(stampOf(target), { force: true });
    must('npm', ['run', 'build', '-w', target.pkg]);
    writeFileSync(stampOf(target), `${hash}\n`);
    built.push(target.name);
  }
  return built;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !targets.some((t) => t.name === n));
  if (unknown.length > 0) {
    console.error(`unknown build target ${unknown.join(', ')} (domain, server, web)`);
    process.exit(2);
  }
  build(names, { force: args.includes('--force') });
}
