import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { KestrelModule } from '../platform/module.js';

const here = fileURLToPath(new URL('.', import.meta.url));

function isModule(value: unknown): value is KestrelModule {
  return (
    typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string'
  );
}

let cached: Promise<KestrelModule[]> | null = null;

/** Every `src/modules/<name>/module.ts` (or .js), sorted by folder name. */
export function discoverModules(): Promise<KestrelModule[]> {
  cached ??= (async () => {
    const out: KestrelModule[] = [];
    const dirs = readdirSync(here, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    for (const dir of dirs) {
      const file = ['module.ts', 'module.js']
        .map((f) => `${here}${dir}/${f}`)
        .find((f) => existsSync(f));
      if (!file) continue;
      const mod: unknown = await import(pathToFileURL(file).href);
      const def = typeof mod === 'object' && mod !== null && 'default' in mod ? mod.default : null;
      if (!isModule(def)) throw new Error(`${file} must default-export a KestrelModule`);
      out.push(def);
    }
    return out;
  })();
  return cached;
}
