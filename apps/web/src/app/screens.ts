import type { ComponentType } from 'react';

/**
 * Screens found by convention: `features/<feature>/screens/<route name>.tsx`, the route name
 * with ':' written as '-' (e.g. `features/ops-customers/screens/ops-customers.tsx` for
 * 'ops:customers'). A lazy chunk of its own: the loaders (each with the list of chunks it
 * preloads) stay out of the entry, which the sign-in page's budget counts (issue 28).
 */
const SCREENS = import.meta.glob<{ default: ComponentType }>([
  '../features/*/screens/*.tsx',
  '!**/*.test.tsx',
]);

/** Screen files by their file name (a name found twice is reported by the route-table test). */
export const SCREEN_FILES: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const path of Object.keys(SCREENS)) {
    const file = path.slice(path.lastIndexOf('/') + 1);
    out.set(file, [...(out.get(file) ?? []), path]);
  }
  return out;
})();

/** The screen in `file` (e.g. 'ops-customers.tsx'), or undefined when there is none yet. */
export function loadScreen(file: string): Promise<{ default: ComponentType }> | undefined {
  const path = SCREEN_FILES.get(file)?.[0];
  return path === undefined ? undefined : SCREENS[path]?.();
}
