import { describe, expect, it } from 'vitest';
import { ROUTES, screenFileName } from './route-table';
import { SCREEN_FILES } from './screens';

describe('screens found by convention (features/*/screens/<route name>.tsx)', () => {
  it('names a route with its colon written as a dash', () => {
    expect(screenFileName('ops:customers')).toBe('ops-customers.tsx');
    expect(screenFileName('cases')).toBe('cases.tsx');
  });

  it('gives every route a file name of its own', () => {
    const names = ROUTES.map((route) => screenFileName(route.name));
    expect(new Set(names).size).toBe(names.length);
  });

  it('has no screen file that names no route, and none found twice', () => {
    const known = new Set(ROUTES.map((route) => screenFileName(route.name)));
    for (const [file, paths] of SCREEN_FILES) {
      expect(known.has(file), `${paths.join(', ')} names no route`).toBe(true);
      expect(paths, `${file} is found twice`).toHaveLength(1);
    }
  });
});
