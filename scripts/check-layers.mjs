// The layering rules `npm run lint` checks (docs/decisions/014-service-context.md):
// - the server's platform and database code import nothing from its modules (only the
//   aggregators that gather every module's tables may sit above them);
// - the web's config, lib and api folders import nothing from its features or app shell;
// - a web feature (features/<a>/) imports nothing from another feature's internals: only its
//   index (features/<b>/index.ts), the feature's public face. What several features share
//   lives in components/ or lib/.
// A rule names a folder (lower layer) and the folders it must not reach; imports are resolved
// from their relative specifiers (static `import`/`export ... from` and `import()`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const server = 'apps/server/src';
const web = 'apps/web/src';

const rules = [
  {
    from: [`${server}/platform`, `${server}/db`],
    forbidden: [`${server}/modules`],
    // Above the modules: the schema index, seeds, factories, the CLI and the reference data
    // (rows of the modules' reference tables) gather every module's tables.
    allowed: ['schema.ts', 'seed.ts', 'factories.ts', 'cli.ts', 'reference-data.ts'].map(
      (f) => `${server}/db/${f}`,
    ),
  },
  {
    from: [`${web}/config`, `${web}/lib`, `${web}/api`],
    forbidden: [`${web}/features`, `${web}/app`],
    allowed: [],
  },
];

/** Source files under `dir` (tests excluded: they exercise the whole app). */
function sources(dir) {
  const out = [];
  let entries;
  try {
    entries = readdirSync(join(root, dir));
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name)) out.push(path);
  }
  return out;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
const inside = (path, dir) => path === dir || path.startsWith(`${dir}/`);

const problems = [];
for (const rule of rules) {
  for (const dir of rule.from) {
    for (const file of sources(dir)) {
      if (rule.allowed.includes(file)) continue;
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1];
        if (!spec.startsWith('.')) continue;
        const target = relative(root, resolve(root, dirname(file), spec))
          .split(sep)
          .join('/');
        const bad = rule.forbidden.find((f) => inside(target, f));
        if (bad) problems.push(`${file}: imports '${spec}' (${bad} is above this layer)`);
      }
    }
  }
}

// Feature to feature: only through the other feature's index.
const features = `${web}/features`;
const featureOf = (path) =>
  inside(path, features) ? path.slice(features.length + 1).split('/')[0] : null;
for (const file of sources(features)) {
  const own = featureOf(file);
  const text = readFileSync(join(root, file), 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1];
    if (!spec.startsWith('.')) continue;
    const target = relative(root, resolve(root, dirname(file), spec))
      .split(sep)
      .join('/')
      .replace(/\.(ts|tsx|js)$/, '');
    const other = featureOf(target);
    if (!other || other === own) continue;
    const face = `${features}/${other}`;
    if (target === face || target === `${face}/index`) continue;
    problems.push(
      `${file}: imports '${spec}' (inside features/${other}: import from features/${other}/index.ts)`,
    );
  }
}

if (problems.length > 0) {
  console.error(`Layer check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('Layer check: no lower layer imports from a higher one.');
