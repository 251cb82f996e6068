import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// End-to-end tests: real Chromium (Debian's /usr/bin/chromium through playwright-core) against
// the real server on a fresh embedded database. Needs `npm run build -w @kestrel/web` first.
export default defineConfig({
  resolve: { conditions: ['kestrel-source', ...defaultServerConditions] },
  test: {
    environment: 'node',
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    // One server and one browser at a time: the machine has 2 cores, and the maintenance
    // journey changes state every other journey would see.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
