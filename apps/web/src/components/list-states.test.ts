import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [path] : [];
  });
}

describe('page buttons', () => {
  // CI found /ops/jobs' bare Mantine Pagination: its previous and next buttons are icons without
  // names (axe 'button-name'). ListPagination names every page and control; screens use it.
  it('are drawn by ListPagination alone, so every page and arrow has a name', () => {
    const bare = sources(SRC)
      .filter((path) => !path.endsWith(join('components', 'list-states.tsx')))
      .filter((path) => /<Pagination[\s>]/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(bare).toEqual([]);
  });
});
