import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The app imports Mantine's component CSS one file per component (styles.ts, styles-frame.ts,
// styles-app.ts), not the whole styles.css, to keep the first paint small. A component drawn
// with a stylesheet missing looks almost right and is easy to miss: SegmentedControl's pill sat
// 4 px off its label because FloatingIndicator.css (the pill, a component SegmentedControl uses
// inside) was never imported. This walks Mantine's own modules from every component the app
// imports to every component those use, and asks that each one's stylesheet is imported.

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, '..');
const mantine = [
  join(src, '../node_modules/@mantine/core'),
  join(src, '../../../node_modules/@mantine/core'),
].find((dir) => existsSync(join(dir, 'package.json')));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The names the app's own code imports from '@mantine/core'. */
function usedNames(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(src)) {
    for (const match of readFileSync(file, 'utf8').matchAll(
      /import\s+(?:type\s+)?\{([^}]+)\}\s+from\s+'@mantine\/core'/g,
    )) {
      for (const part of (match[1] ?? '').split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** Every components/<Dir> reached from `entry` through Mantine's relative imports. */
function componentsReached(esm: string, entries: string[]): Set<string> {
  const seen = new Set<string>();
  const dirs = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const dir = /^components\/([^/]+)\//.exec(relative(esm, file));
    if (dir?.[1]) dirs.add(dir[1]);
    for (const m of readFileSync(file, 'utf8').matchAll(/from\s+"(\.[^"]+\.mjs)"/g)) {
      if (m[1]) queue.push(join(dirname(file), m[1]));
    }
  }
  return dirs;
}

describe("Mantine's component stylesheets", () => {
  it('are imported for every component the app draws, and every component those draw', () => {
    expect(mantine, '@mantine/core installed').toBeDefined();
    const root = mantine ?? '';
    const esm = join(root, 'esm');
    // index.mjs: import { Name } from "./components/Dir/File.mjs"
    const moduleOf = new Map<string, string>();
    for (const m of readFileSync(join(esm, 'index.mjs'), 'utf8').matchAll(
      /import\s+\{([^}]+)\}\s+from\s+"(\.[^"]+)"/g,
    )) {
      for (const name of (m[1] ?? '').split(',')) {
        const local = name.trim().split(/\s+as\s+/);
        const exported = local[1] ?? local[0];
        if (exported && m[2]) moduleOf.set(exported, join(esm, m[2]));
      }
    }
    const entries = [...usedNames()].flatMap((name) => {
      const file = moduleOf.get(name);
      return file ? [file] : [];
    });
    expect(entries.length).toBeGreaterThan(20);
    const imported = new Set(
      ['styles.ts', 'styles-frame.ts', 'styles-app.ts'].flatMap((file) =>
        [
          ...readFileSync(join(here, file), 'utf8').matchAll(
            /'@mantine\/core\/styles\/([^']+)\.css'/g,
          ),
        ].map((m) => m[1]),
      ),
    );
    const missing = [...componentsReached(esm, entries)]
      .filter((dir) => existsSync(join(root, 'styles', `${dir}.css`)) && !imported.has(dir))
      .sort();
    expect(missing).toEqual([]);
  });
});
