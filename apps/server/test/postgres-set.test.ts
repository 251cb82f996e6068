import { describe, expect, it } from 'vitest';
import {
  POSTGRES_ONLY,
  postgresReason,
  postgresSet,
  serverTestFiles,
  type TestFile,
} from './postgres-set.js';

// The PostgreSQL pass runs only the files marked `// @postgres: <why>` (decision 022). A file
// whose PostgreSQL-only part would otherwise never run there, or a marker mistyped so that it
// silently does not count, fails here on PGlite, where every file runs.

const root = new URL('..', import.meta.url).pathname;
const SELF = 'test/postgres-set.test.ts';
const files = serverTestFiles(root).filter((f) => f.file !== SELF);

describe('the PostgreSQL set', () => {
  it('holds every file with a part that only means something on PostgreSQL', () => {
    const unmarked = files
      .filter((f) => POSTGRES_ONLY.test(f.text) && postgresReason(f.text) === null)
      .map((f) => f.file);
    expect(unmarked).toEqual([]);
  });

  it('counts every marker written: a comment line of its own, with a reason', () => {
    const mistyped = files.flatMap(({ file, text }) =>
      text
        .split('\n')
        .filter((line) => line.includes('@postgres'))
        .filter((line) => postgresReason(line) === null)
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(mistyped).toEqual([]);
  });

  it('is a part of the suite, not all of it, and names the files the decision names', () => {
    const set = postgresSet(files).map((f) => f.file);
    expect(set.length).toBeGreaterThan(0);
    expect(set.length).toBeLessThan(files.length);
    for (const file of ['src/db/tenancy.test.ts', 'src/platform/jobs.test.ts']) {
      expect(set).toContain(file);
    }
  });

  it('reads the reason from a marker line anywhere, and nothing from other comments', () => {
    const f = (text: string): TestFile => ({ file: 'x.test.ts', text });
    const marked = "import 'a';\n// @postgres: pooled connections\nit('x')";
    expect(postgresSet([f(marked)])).toEqual([{ file: 'x.test.ts', reason: 'pooled connections' }]);
    for (const text of [
      '// @postgres:\n',
      '// @postgres:   \n',
      '  // @postgres: indented\n',
      '/* @postgres: block */\n',
      "const s = '// @postgres: in a string';\n",
      '// postgres: no at sign\n',
    ]) {
      expect([text, postgresReason(text)]).toEqual([text, null]);
    }
  });
});
