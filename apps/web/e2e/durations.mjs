// Writes e2e/durations.json (test file → seconds, longest first) from a full run's vitest JSON
// report, for e2e/sequencer.ts:  node e2e/durations.mjs [../../test-results/e2e.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const report = process.argv[2] ?? join(root, '../../test-results/e2e.json');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const seconds = testResults
  // keyed from `e2e/` on, so a report from another checkout (a fresh clone's CI run) fits this one
  .map((r) => [
    r.name.slice(r.name.lastIndexOf('/e2e/') + 1),
    Math.round((r.endTime - r.startTime) / 1000),
  ])
  .sort((a, b) => b[1] - a[1]);
writeFileSync(
  join(import.meta.dirname, 'durations.json'),
  `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`,
);
console.log(`e2e/durations.json: ${seconds.length} files`);
