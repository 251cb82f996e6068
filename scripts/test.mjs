// `npm test`: every test of every workspace. Installs what is missing (npm packages, Debian's
// Chromium), builds, then runs each suite and prints one closing line 'N passed, N failed'.
// `node scripts/test.mjs server` runs only the named suites (used by .ci/run for PostgreSQL).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';
import { ensureChromium, ensureDependencies, must, root, run } from './lib.mjs';

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
];

const only = process.argv.slice(2);
const selected = suites.filter((s) => only.length === 0 || only.includes(s.name));
process.env.TZ = 'UTC';

ensureDependencies();
if (selected.some((s) => s.needsBrowser)) ensureChromium();
build(['domain']);
if (only.length === 0) must('npm', ['run', 'typecheck']);
// The browser tests run the compiled server (what `npm start` runs) and the built web app.
if (selected.some((s) => s.needsBuild)) build(['server', 'web']);

const reportDir = join(root, 'test-results');
mkdirSync(reportDir, { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
for (const suite of selected) {
  if (!existsSync(join(root, suite.cwd, suite.config))) continue;
  const out = join(reportDir, `${suite.name}.json`);
  rmSync(out, { force: true });
  console.log(`\n› ${suite.name} tests`);
  const code = run(
    'npx',
    [
      'vitest',
      'run',
      '--config',
      suite.config,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    { cwd: join(root, suite.cwd) },
  );
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    if (r.numFailedTests > 0 || code !== 0) failures.push(suite.name);
    if (code !== 0 && r.numFailedTests === 0) failed += 1; // a suite error (coverage, import) counts
  } else if (code !== 0) {
    failures.push(suite.name);
    failed += 1;
  }
}
console.log(`\n${failures.length ? `Failing suites: ${failures.join(', ')}\n` : ''}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
