import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const conditions = ['kestrel-source', ...defaultServerConditions];

// Integration tests build the app in-process on a fresh database per file: PGlite cloned from a
// migrated template by default, or a database copied from a template when DATABASE_URL is set.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: two files at a time keeps memory (one PGlite per file) and CPU sane.
    maxWorkers: 2,
    env: { TZ: 'UTC' },
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
  },
});
