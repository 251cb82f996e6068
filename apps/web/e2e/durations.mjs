// Writes e2e/durations.json (test file → seconds, longest first) from a full run's vitest JSON
// report, for e2e/sequencer.ts:  node e2e/durations.mjs [../../test-results/e2e.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const report = process.argv[2] ?? join(root, '../../test-results/e2e.json');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const seconds = testResults
  .map((r) => [relative(root, r.name), Math.round((r.endTime - r.startTime) / 1000)])
  .sort((a, b) => b[1] - a[1]);
writeFileSync(
  join(import.meta.dirname, 'durations.json'),
  `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`,
);
console.log(`e2e/durations.json: ${seconds.length} files`);
