import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const include = ['src/**/*.test.{ts,tsx}'];

/** The component test files, relative to this folder (what `include` matches). */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [relative(import.meta.dirname, path)] : [];
  });
}

/**
 * A file that replaces modules, globals, timers or environment variables by itself (vi.mock,
 * vi.stubGlobal, vi.useFakeTimers, …) gets a module graph and a window of its own: a module another
 * file loaded first in the same worker would keep its real implementation, and a change could leak
 * into the next file. So does a file that says `// @own-modules: <why>` (one that tests a module's
 * state from its first use). `mockFetch` (src/test/fetch-mock.ts) stubs `fetch` too, but every stub
 * is undone after each test (`unstubGlobals` below), so a file using only that shares.
 */
const NEEDS_OWN_MODULES =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers)\(|\bimport\.meta\.env(\.\w+|\[[^\]]+\])\s*=[^=]|\/\/ @own-modules:/;
const ownModules = testFiles(join(import.meta.dirname, 'src')).filter((file) =>
  NEEDS_OWN_MODULES.test(readFileSync(join(import.meta.dirname, file), 'utf8')),
);

// Component tests in happy-dom. End-to-end tests have their own config (vitest.e2e.config.ts).
// The files of a worker share one module graph and one happy-dom window (isolate: false):
// importing React, Mantine and the app again for each file, and a new window, were about half of
// the suite's time (docs/decisions/003). src/test/setup.ts puts the window, storage and the app's
// module-level state back before each file; the files listed above get their own.
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['kestrel-source', ...defaultClientConditions] },
  test: {
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    globals: false,
    css: false,
    testTimeout: 15_000,
    // vitest's default for a run is one worker less than the cores: one, on 2 cores.
    maxWorkers: 2,
    // Stubbed globals and spies never outlive their test (the next file may share the window).
    unstubGlobals: true,
    restoreMocks: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include,
          isolate: false,
          exclude: [...configDefaults.exclude, ...ownModules],
        },
      },
      ...(ownModules.length > 0
        ? [{ extends: true as const, test: { name: 'own', isolate: true, include: ownModules } }]
        : []),
    ],
  },
});
