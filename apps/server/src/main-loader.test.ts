import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveBare, resolveRelative } from './main-loader.js';

const root = mkdtempSync(join(tmpdir(), 'kestrel-loader-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder with the given package.json (null: none) and files. */
function pkg(name: string, packageJson: object | null, files: string[]): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'lib'), { recursive: true });
  if (packageJson) writeFileSync(join(dir, 'package.json'), JSON.stringify(packageJson));
  for (const f of files) writeFileSync(join(dir, f), '');
  return dir;
}

const parentIn = (dir: string) => pathToFileURL(join(dir, 'lib', 'parent.js')).href;
const fromNode = { url: 'node:resolved', format: 'from-node' };

function resolve(specifier: string, parentURL: string) {
  const asked: string[] = [];
  const result = resolveRelative(specifier, { parentURL }, (s) => {
    asked.push(s);
    return fromNode;
  });
  return { result, asked };
}

describe('the start-up resolve hook', () => {
  const esm = pkg('esm', { type: 'module', exports: { '.': './lib/a.js' } }, [
    'lib/a.js',
    'lib/b.cjs',
    'lib/c.json',
  ]);
  const cjs = pkg('cjs', { type: 'commonjs' }, ['lib/a.js', 'lib/m.mjs']);
  const typeless = pkg('typeless', { name: 'typeless' }, ['lib/a.js', 'lib/m.mjs']);

  it('resolves a relative file of a package with "type" itself, its format from the type or extension', () => {
    expect(resolve('./a.js', parentIn(esm)).result).toEqual({
      url: pathToFileURL(join(esm, 'lib', 'a.js')).href,
      format: 'module',
      shortCircuit: true,
    });
    expect(resolve('../lib/b.cjs', parentIn(esm)).result.format).toBe('commonjs');
    expect(resolve('./c.json', parentIn(esm)).result.format).toBe('json');
    expect(resolve('./a.js', parentIn(cjs)).result.format).toBe('commonjs');
    expect(resolve('./m.mjs', parentIn(cjs)).result.format).toBe('module');
    // .mjs needs no type
    expect(resolve('./m.mjs', parentIn(typeless)).result.format).toBe('module');
  });

  it("leaves to Node's resolver what it does not know for sure", () => {
    for (const [specifier, parent] of [
      ['./a.js', parentIn(typeless)], // no "type": Node detects the syntax
      ['./missing.js', parentIn(esm)], // Node's error
      ['./a', parentIn(esm)], // no extension
      ['esm', parentIn(esm)], // bare specifier
      ['./a.js', 'data:text/javascript,'], // not a file
    ] as const) {
      const { result, asked } = resolve(specifier, parent);
      expect(result).toBe(fromNode);
      expect(asked).toEqual([specifier]);
    }
  });
});

describe('bare specifiers', () => {
  it("asks Node's resolver once per importing directory and conditions", () => {
    const asked: string[] = [];
    const next = (specifier: string, context: { parentURL?: string | undefined }) => {
      asked.push(`${specifier} from ${context.parentURL}`);
      return { url: `file:///nm/${specifier}/index.js`, format: 'module' };
    };
    const a = 'file:///app/lib/a.js';
    const b = 'file:///app/lib/b.js';
    const other = 'file:///app/other/c.js';
    const imp = ['node', 'import'];
    const first = resolveBare('zod', { parentURL: a, conditions: imp }, next);
    expect(first).toEqual({ url: 'file:///nm/zod/index.js', format: 'module' });
    // the same directory: remembered
    expect(resolveBare('zod', { parentURL: b, conditions: imp }, next)).toEqual({
      ...first,
      shortCircuit: true,
    });
    // another directory, other conditions, another specifier: Node's again
    resolveBare('zod', { parentURL: other, conditions: imp }, next);
    resolveBare('zod', { parentURL: a, conditions: ['node', 'require'] }, next);
    resolveBare('zod/mini', { parentURL: a, conditions: imp }, next);
    expect(asked).toEqual([
      `zod from ${a}`,
      `zod from ${other}`,
      `zod from ${a}`,
      `zod/mini from ${a}`,
    ]);
    // never remembered: builtins, package imports, relative paths, non-file parents
    for (const [specifier, parentURL] of [
      ['node:fs', a],
      ['#internal', a],
      ['./x.js', a],
      ['zod', 'data:text/javascript,'],
    ] as const) {
      resolveBare(specifier, { parentURL, conditions: imp }, next);
      resolveBare(specifier, { parentURL, conditions: imp }, next);
      expect(asked.slice(-2)).toEqual([
        `${specifier} from ${parentURL}`,
        `${specifier} from ${parentURL}`,
      ]);
    }
  });
});
