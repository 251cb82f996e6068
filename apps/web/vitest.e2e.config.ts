import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './e2e/sequencer';

// End-to-end tests: real Chromium (Debian's /usr/bin/chromium through playwright-core) against
// the real server. Needs `npm run build -w @kestrel/web` first.
export default defineConfig({
  resolve: { conditions: ['kestrel-source', ...defaultServerConditions] },
  test: {
    environment: 'node',
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    // Three files at a time, each worker against its own server on its own fresh database
    // (e2e/global-setup.ts): a journey waits on pages, the server and timers most of the time
    // (alone, two workers kept 0.6 of the 2 cores busy: 10 min of wall time for 6.4 min of CPU),
    // so three share the 2 cores well. A worker's files run one after the other against its
    // server, so a file that changes what every screen shows (maintenance) is seen by no other.
    fileParallelism: true,
    maxWorkers: 3,
    // The longest files first (e2e/sequencer.ts, by e2e/durations.json): a long file taken last
    // would leave its worker running alone at the end.
    sequence: { sequencer: LongestFirst },
    // A journey that looks at each screen light and dark (lookLightAndDark: two reloads and two axe
    // runs a screen) takes about 55 s alone and up to 90 s beside two others here; CI's machine ran
    // the suite about three times slower than a quiet one (its run of 5adf8fd: ten journeys past
    // 150 s). Every journey gets 5 minutes; a test that sets its own asks for no less.
    testTimeout: 300_000,
    // On CI (.ci/run sets KESTREL_E2E_RETRY=1) a journey that fails is run once more, and the default reporter marks one
    // that passed the second time '(retry x1)'. Two landings in a row were refused for one
    // journey each that timed out on a loaded 2-core machine and passed alone (stops 40, 41);
    // a journey that fails twice still fails the run. Locally a failure is never retried.
    retry: process.env.KESTREL_E2E_RETRY === '1' ? 1 : 0,
    // expect.poll waits up to 15 s (vitest's default is 1 s): a page's next requests take seconds
    // on a loaded 2-core machine (CI runs the PostgreSQL set beside this suite).
    expect: { poll: { timeout: 15_000, interval: 100 } },
    hookTimeout: 120_000,
    // `npm run test:changed`: a change to the set-up runs every journey.
    forceRerunTriggers: [
      ...configDefaults.forceRerunTriggers,
      '**/e2e/global-setup.ts',
      '**/vitest.e2e.config.ts',
    ],
  },
});
