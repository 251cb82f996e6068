import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';

// Runs before every test file. The files of the 'shared' project (vitest.config.ts) run one after
// the other in one happy-dom window with one module graph, so everything here is safe to run
// again, and each file starts from what a file of its own would see (beforeAll below).

// How long findBy…/waitFor wait for the screen to change. Testing Library's 1 s is too short on
// the 2-core CI machine under load for a lazy chunk (the case page's cards, the portal's sections):
// the import goes through vitest's module runner and its main process.
configure({ asyncUtilTimeout: 5000 });

// Mantine needs these browser APIs that happy-dom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
// The autosizing Textarea listens to the font set, which happy-dom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: vi.fn(), removeEventListener: vi.fn() },
  });
}

// A console.error in a test fails it (CONVENTIONS.md). The console's own function is kept once,
// so that a window shared by several files does not wrap it again for each.
const ORIGINAL_ERROR = Symbol.for('kestrel.test.console-error');
type WithOriginal = typeof globalThis & { [ORIGINAL_ERROR]?: typeof console.error };
const store = globalThis as WithOriginal;
const originalError = store[ORIGINAL_ERROR] ?? console.error;
store[ORIGINAL_ERROR] = originalError;
console.error = (...args: unknown[]) => {
  originalError(...args);
  throw new Error(`console.error in test: ${args.map(String).join(' ')}`);
};

/** The address the window starts at (vitest's happy-dom default), kept from the first file. */
const START_URL = Symbol.for('kestrel.test.start-url');
type WithStartUrl = typeof globalThis & { [START_URL]?: string };
const startUrl = (globalThis as WithStartUrl)[START_URL] ?? window.location.href;
(globalThis as WithStartUrl)[START_URL] = startUrl;

beforeAll(async () => {
  // What a previous file in this window left: storage, the address, the document.
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', startUrl);
  document.title = '';
  document.body.replaceChildren();
  // The app's module-level state (imported here, after the file's own imports and mocks, so these
  // are the modules the file uses).
  const [{ resetSession }, { setCsrfToken }, { forgetAddressLookup }] = await Promise.all([
    import('../lib/session/session-store'),
    import('../api/client'),
    import('../api/case-addresses'),
  ]);
  resetSession();
  setCsrfToken('');
  forgetAddressLookup();
});

afterEach(async () => {
  cleanup();
  // Toasts live in Mantine's module-level store: one left by a test is not the next one's.
  const { notifications } = await import('@mantine/notifications');
  notifications.clean();
  notifications.cleanQueue();
});
