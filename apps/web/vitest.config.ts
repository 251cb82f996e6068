import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Component tests in happy-dom. End-to-end tests have their own config (vitest.e2e.config.ts).
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['kestrel-source', ...defaultClientConditions] },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    globals: false,
    css: false,
    testTimeout: 15_000,
    // vitest's default for a run is one worker less than the cores: one, on 2 cores.
    maxWorkers: 2,
  },
});
