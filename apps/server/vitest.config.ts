import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { postgresSet, serverTestFiles } from './test/postgres-set.js';

const conditions = ['kestrel-source', ...defaultServerConditions];
const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * A file that replaces modules, globals, timers or environment variables (vi.mock, vi.stubEnv,
 * process.env.X = …) needs a module graph of its own: a module another file loaded first in the
 * same worker would keep its real implementation, and a change could leak into the next file.
 */
const NEEDS_OWN_MODULES =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers)\(|\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]|\bdelete process\.env\b/;
const testFiles = serverTestFiles(import.meta.dirname);
const ownModules = testFiles.filter((f) => NEEDS_OWN_MODULES.test(f.text)).map((f) => f.file);

/**
 * KESTREL_PG_SET=1 (what `server-pg` sets): only the PostgreSQL set, the files marked
 * `// @postgres: <why>` (test/postgres-set.ts, decision 022). Unset: every file, on whichever
 * database DATABASE_URL names (a file run by hand on PostgreSQL needs no marker).
 */
const pgSet = process.env.KESTREL_PG_SET === '1' ? postgresSet(testFiles).map((f) => f.file) : null;
const own = pgSet ? ownModules.filter((f) => pgSet.includes(f)) : ownModules;

// Integration tests build the app in-process on a fresh database per file: PGlite cloned from a
// migrated template by default, or a database copied from a template when DATABASE_URL is set.
// The files of a worker share one module graph (isolate: false): importing the app again for
// each file was a third of the suite's CPU (decision 003); the files listed above get their own.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    environment: 'node',
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: two files at a time keeps memory (one PGlite per file) and CPU sane.
    maxWorkers: 2,
    // KESTREL_TEST_FAST_HASH: passwords hashed at a small cost (src/platform/passwords.ts)
    env: { TZ: 'UTC', KESTREL_TEST_FAST_HASH: '1' },
    // `npm run test:changed`: what goes into every file's database (the template) or set-up runs
    // every file (the inputs of test/global-setup.ts's schema hash).
    forceRerunTriggers: [
      ...configDefaults.forceRerunTriggers,
      '**/apps/server/test/global-setup.ts',
      '**/apps/server/test/setup.ts',
      '**/apps/server/drizzle/**',
      '**/apps/server/src/db/{security,reference-data,migrate,queue-schema}.ts',
      '**/apps/server/src/jobs/*.ts',
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: pgSet ?? include,
          isolate: false,
          exclude: [...configDefaults.exclude, ...ownModules],
        },
      },
      { extends: true, test: { name: 'own', isolate: true, include: own } },
    ],
  },
});
