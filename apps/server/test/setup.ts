import { afterEach, beforeEach, vi } from 'vitest';

// A console.error during a test fails it: errors must be asserted, not printed.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) throw new Error(`console.error called: ${JSON.stringify(errors[0])}`);
});
