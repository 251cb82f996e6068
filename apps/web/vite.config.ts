import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/** Writes .gz and .br copies beside every text asset so the server can send them precompressed. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kestrel-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir)) {
          const file = join(dir, entry);
          if (statSync(file).isDirectory()) walk(file);
          else if (COMPRESSIBLE.test(file)) {
            const body = readFileSync(file);
            writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
            writeFileSync(
              `${file}.br`,
              brotliCompressSync(body, {
                params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
              }),
            );
          }
        }
      };
      walk(outDir);
    },
  };
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

const LAYOUTS: Record<string, string> = {
  public: 'src/app/layouts/public-portal-layout.tsx',
  product: 'src/app/layouts/product-layout.tsx',
  ops: 'src/app/layouts/ops-layout.tsx',
  subject: 'src/app/layouts/subject-layout.tsx',
};

/**
 * Each route's lazy chunks for the server to preload (dist/.vite/route-preloads.json): the
 * route's layout and screen with their static imports, less what index.html already loads, so
 * a first visit fetches them at once instead of after the entry ran and the guard decided
 * (issue 28, first loads). Read from the route table's source (`r('name', 'audience', …, loader)`)
 * and config/paths.ts; a screen found by convention is `features/<feature>/screens/<name>.tsx`.
 */
export function routePreloads(
  routeTable: string,
  pathsSource: string,
  manifest: Record<string, ManifestChunk>,
) {
  const paths = new Map<string, string>();
  for (const m of pathsSource.matchAll(/^\s*'?([\w:-]+)'?:\s*'(\/[^']*)'/gm)) {
    if (m[1] && m[2]) paths.set(m[1], m[2]);
  }
  // Loaders by name: `const portal: Loader = () => import('…')` and `key: () => import('…')`
  // inside `const group = { … }`.
  const loaders = new Map<string, string>();
  for (const m of routeTable.matchAll(/const (\w+): Loader = \(\) => import\('([^']+)'\)/g)) {
    if (m[1] && m[2]) loaders.set(m[1], m[2]);
  }
  for (const group of routeTable.matchAll(/const (\w+) = \{([\s\S]*?)\n\}/g)) {
    for (const m of (group[2] ?? '').matchAll(/(\w+): \(\) => import\('([^']+)'\)/g)) {
      if (group[1] && m[1] && m[2]) loaders.set(`${group[1]}.${m[1]}`, m[2]);
    }
  }
  const keyOf = (spec: string) => {
    const rel = spec.replace(/^\.\.\//, 'src/');
    return ['.tsx', '.ts'].map((ext) => rel + ext).find((k) => manifest[k]);
  };
  const screens = Object.keys(manifest).filter((k) => /^src\/features\/[^/]+\/screens\//.test(k));
  const entry = closure(manifest, ['index.html']);
  const routes: { pattern: string; audience: string; files: string[]; css: string[] }[] = [];
  const start = routeTable.indexOf('export const ROUTES');
  const calls = routeTable
    .slice(start)
    .split(/\n\s*r\(/)
    .slice(1);
  for (const call of calls) {
    const head = call.match(
      /^\s*'([^']+)',\s*'(\w+)',\s*(?:'(?:[^'\\]|\\.)*'|"[^"]*")\s*,?\s*([^,)\n]*)/,
    );
    const name = head?.[1];
    const audience = head?.[2];
    const pattern = name ? paths.get(name) : undefined;
    if (!head || !name || !audience || !pattern) continue;
    const frame = call.match(/frame: '(\w+)'/)?.[1];
    const loader = (head[3] ?? '').trim();
    const inline = call.match(/^[^)]*?\(\) => import\('([^']+)'\)/)?.[1];
    let screen: string | undefined;
    if (inline) screen = keyOf(inline);
    else if (loader && loader !== 'coming' && loaders.has(loader))
      screen = keyOf(loaders.get(loader) ?? '');
    if (!screen && (!loader || loader === 'coming')) {
      const file = `/${name.replaceAll(':', '-')}.tsx`;
      screen = screens.find((k) => k.endsWith(file)) ?? keyOf('../components/coming-soon');
    }
    const layout = frame === 'auth' || frame === 'bare' ? undefined : LAYOUTS[audience];
    const keys = closure(
      manifest,
      [layout, screen].filter((k): k is string => Boolean(k)),
    );
    const files: string[] = [];
    const css = new Set<string>();
    for (const k of keys) {
      const chunk = manifest[k];
      if (!chunk || entry.has(k)) continue;
      files.push(chunk.file);
      for (const c of chunk.css ?? []) css.add(c);
    }
    routes.push({ pattern, audience, files, css: [...css] });
  }
  return { routes };
}

function closure(
  manifest: Record<string, ManifestChunk>,
  keys: string[],
  seen = new Set<string>(),
) {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest, manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

function writeRoutePreloads(): Plugin {
  let outDir = 'dist';
  let root = '.';
  return {
    name: 'kestrel-route-preloads',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      root = config.root;
    },
    closeBundle() {
      const dir = join(root, outDir, '.vite');
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      const table = readFileSync(join(root, 'src/app/route-table.ts'), 'utf8');
      const paths = readFileSync(join(root, 'src/config/paths.ts'), 'utf8');
      const out = routePreloads(table, paths, manifest);
      if (out.routes.length < 20) throw new Error('route-preloads: the route table was not read');
      writeFileSync(join(dir, 'route-preloads.json'), JSON.stringify(out));
    },
  };
}

// Vendor code every page needs goes in one long-cached chunk; everything else is split per route.
const vendorGroups = [
  {
    name: 'react',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
  },
];

/**
 * The chunks the entry imports statically (loaded before any route): a lazy route's preload
 * list leaves them out, which keeps their names out of the entry's table of chunk names (the
 * sign-in page's 150 KB budget, issue 28). Filled before Vite writes the preload lists.
 */
const entryStatic = new Set<string>();
function collectEntryStatic(): Plugin {
  return {
    name: 'kestrel-entry-static',
    apply: 'build',
    enforce: 'pre',
    generateBundle(_options, bundle) {
      entryStatic.clear();
      const visit = (file: string) => {
        const chunk = bundle[file];
        if (entryStatic.has(file) || !chunk || chunk.type !== 'chunk') return;
        entryStatic.add(file);
        for (const dep of chunk.imports) visit(dep);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.isEntry) visit(chunk.fileName);
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), collectEntryStatic(), writeRoutePreloads(), precompress()],
  resolve: { conditions: ['kestrel-source', ...defaultClientConditions] },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the product supports preloads modules itself (modulepreload): no polyfill in
    // the entry chunk (the invitation link's 150 KB budget, e2e/budget.test.ts).
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps) => deps.filter((dep) => !entryStatic.has(dep)),
    },
    // dist/.vite/manifest.json: the budget test maps routes to the chunks they download.
    manifest: true,
    // The spec: scripts under js/, styles under css/, served from the site root.
    assetsDir: '',
    rolldownOptions: {
      // The domain package is pure (no import-time effects) but does not say so in its
      // package.json; without this every screen would carry all of its rule tables.
      treeshake: {
        moduleSideEffects: (id: string) =>
          /packages[\\/]domain[\\/]/.test(id) ? false : undefined,
      },
      output: {
        entryFileNames: 'js/[name]-[hash:7].js',
        chunkFileNames: 'js/[name]-[hash:7].js',
        assetFileNames: (info) =>
          info.names.some((n) => n.endsWith('.css'))
            ? 'css/[name]-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
});
