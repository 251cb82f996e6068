import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order the browser suite's files start in: longest first. A worker takes the next file
// when it is free, so a long file started last leaves one worker running alone at the end while
// the others idle (on CI: minutes). The lengths are a full run's on CI's kind of machine,
// `e2e/durations.json` (file → seconds; refresh it from a run's test-results/e2e.json with
// `node e2e/durations.mjs`); a file not listed yet (a new journey) is guessed from its size.

const durationsFile = join(import.meta.dirname, 'durations.json');

/** Seconds a file took in the last measured full run, by path relative to apps/web. */
function measured(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(durationsFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** A file not measured yet: about a second of run per 100 bytes of journey (the scale of the measured runs). */
const guess = (file: string) => statSync(file).size / 100;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = measured();
    const root = join(import.meta.dirname, '..');
    const length = new Map(
      files.map((f) => [f, seconds[relative(root, f.moduleId)] ?? guess(f.moduleId)] as const),
    );
    return [...files].sort((a, b) => (length.get(b) ?? 0) - (length.get(a) ?? 0));
  }
}
