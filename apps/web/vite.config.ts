import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import {
  createServer,
  defaultClientConditions,
  defaultServerConditions,
  defineConfig,
  type Plugin,
} from 'vite';
import { BOOTSTRAP_READS, ROUTE_READS } from './src/app/bootstrap-preloads';
import { FRAME_STYLED_ROUTES } from './src/app/first-paint';

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
  name?: string;
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
  // The signed-in CSS beyond the subject frame's (src/app/styles-app.ts): its group chunk.
  const appStylesKey = Object.keys(manifest).find(
    (k) => manifest[k]?.name === 'app-styles' && /\.js$/.test(manifest[k]?.file ?? ''),
  );
  const routes: {
    name: string;
    pattern: string;
    audience: string;
    files: string[];
    css: string[];
  }[] = [];
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
    // A subject screen other than the dashboard loads with the rest of the signed-in CSS
    // (router.tsx): preloaded with it.
    const appStyles =
      audience === 'subject' && !frame && !FRAME_STYLED_ROUTES.includes(name)
        ? appStylesKey
        : undefined;
    const keys = closure(
      manifest,
      [layout, screen, appStyles].filter((k): k is string => Boolean(k)),
    );
    const files: string[] = [];
    const css = new Set<string>();
    for (const k of keys) {
      const chunk = manifest[k];
      if (!chunk || entry.has(k)) continue;
      files.push(chunk.file);
      for (const c of chunk.css ?? []) css.add(c);
    }
    routes.push({ name, pattern, audience, files, css: [...css] });
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
      const dir = resolve(root, outDir, '.vite');
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      const table = readFileSync(join(root, 'src/app/route-table.ts'), 'utf8');
      const paths = readFileSync(join(root, 'src/config/paths.ts'), 'utf8');
      const { routes } = routePreloads(table, paths, manifest);
      const reads: Readonly<Record<string, readonly string[]>> = ROUTE_READS;
      // A signed-in first visit passes through the bootstrap step (navigation.ts) before its
      // screen: its chunk comes with the protected routes' own.
      const bootstrap = routes.find((r) => r.name === 'bootstrap')?.files ?? [];
      const signedIn = new Set(['product', 'ops', 'subject']);
      const out = {
        routes: routes
          .map((r) =>
            signedIn.has(r.audience)
              ? { ...r, files: [...new Set([...r.files, ...bootstrap])] }
              : r,
          )
          .map((r) => (reads[r.name] ? { ...r, reads: reads[r.name] } : r)),
        fetch: BOOTSTRAP_READS,
      };
      if (out.routes.length < 20) throw new Error('route-preloads: the route table was not read');
      writeFileSync(join(dir, 'route-preloads.json'), JSON.stringify(out));
    },
  };
}

/**
 * Moves the app's stylesheet from the head to just before #root, after the loader the HTML
 * carries (styled inline, index.html): the loader is painted as soon as the HTML arrives instead
 * of after the stylesheet, and the scripts still wait for the stylesheet before they run (a
 * parser-inserted stylesheet blocks scripts), so the app never renders unstyled (issue 28: the
 * first paint in the HTML). Before #root, so the theme's variables MantineProvider writes there
 * override the stylesheet's defaults, as they did from the head.
 */
function paintBeforeStyles(): Plugin {
  return {
    name: 'kestrel-paint-before-styles',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        let out = html;
        for (const link of links) out = out.replace(link, '');
        const root = out.indexOf('<div id="root">');
        if (links.length === 0 || root === -1) return html;
        return `${out.slice(0, root)}${links.map((l) => `${l.trim()}\n    `).join('')}${out.slice(root)}`;
      },
    },
  };
}

/** The public pages rendered at build for their first paint: name → export of src/app/prerender.tsx. */
const PRERENDERED_PAGES = { login: 'prerenderSignIn' } as const;

/**
 * CSS-module class names (`_name_hash_line`) in pre-rendered markup that no built stylesheet
 * defines: the markup would paint unstyled. Empty when every one is in `css`.
 */
export function unstyledClasses(markup: string, css: string): string[] {
  const names = new Set(
    [...markup.matchAll(/class="([^"]*)"/g)].flatMap((m) =>
      (m[1] ?? '').split(/\s+/).filter((c) => /^_[A-Za-z][\w-]*_[a-z0-9]{5}_\d+$/.test(c)),
    ),
  );
  return [...names].filter((c) => !css.includes(`.${c}`));
}

interface PrerenderBrand {
  id: string;
  /** The brand's name, for the page's title ('Sign in · {name}', as guard.tsx sets it). */
  name: string;
  hosts: string[];
  fallback: boolean;
}

function isPrerenderBrand(b: unknown): b is PrerenderBrand {
  return (
    typeof b === 'object' &&
    b !== null &&
    'id' in b &&
    typeof b.id === 'string' &&
    'name' in b &&
    typeof b.name === 'string' &&
    'hosts' in b &&
    Array.isArray(b.hosts) &&
    'fallback' in b &&
    typeof b.fallback === 'boolean'
  );
}

/**
 * Renders the public pages' first paint at build (issue 28: on a phone the sign-in page was
 * painted only after 128 KB of scripts were fetched and ran; now the HTML carries it). The app's
 * own modules are loaded through a Vite server in SSR mode (same CSS-module names as the build,
 * checked against the stylesheets the HTML links), once per brand: each brand's pages go to
 * dist/.vite/prerender.json with the brand's hosts, and with them the linked stylesheets' text,
 * which the server inlines in such a page instead of the link (its first paint then needs only
 * the HTML: a page painted after a linked stylesheet waited for the scripts, which arrived with
 * it and ran first).
 */
function prerenderPages(): Plugin {
  let outDir = 'dist';
  let root = '.';
  return {
    name: 'kestrel-prerender',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      root = config.root;
    },
    async closeBundle() {
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        appType: 'custom',
        plugins: [react()],
        resolve: { conditions: ['kestrel-source', ...defaultClientConditions] },
        ssr: {
          resolve: {
            conditions: ['kestrel-source', ...defaultServerConditions],
            externalConditions: ['kestrel-source'],
          },
        },
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      const entry = '/src/app/prerender.tsx';
      const brands: (PrerenderBrand & { pages: Record<string, string> })[] = [];
      const g: { window?: unknown } = globalThis;
      try {
        const list: unknown = (await server.ssrLoadModule(entry)).prerenderBrands?.();
        if (!Array.isArray(list) || !list.every(isPrerenderBrand)) {
          throw new Error('prerender.tsx: no prerenderBrands');
        }
        for (const brand of list) {
          // The app's modules evaluated afresh with the brand's host as the page's: brands.tsx
          // reads `window.location.hostname` once, at import (the rendering itself sees no window).
          server.moduleGraph.invalidateAll();
          g.window = { location: { hostname: brand.hosts[0] } };
          let mod: Record<string, unknown>;
          try {
            mod = await server.ssrLoadModule(entry);
          } finally {
            delete g.window;
          }
          const pages: Record<string, string> = {};
          for (const [name, exported] of Object.entries(PRERENDERED_PAGES)) {
            const render = mod[exported];
            if (typeof render !== 'function') throw new Error(`prerender.tsx: no ${exported}`);
            const html: unknown = render();
            if (typeof html !== 'string')
              throw new Error(`prerender.tsx: ${exported} gave no markup`);
            pages[name] = html;
          }
          brands.push({ ...brand, pages });
        }
      } finally {
        await server.close();
      }
      const dist = resolve(root, outDir);
      // The stylesheets the HTML links: the only ones there at the first paint.
      const index = readFileSync(join(dist, 'index.html'), 'utf8');
      const css = [...index.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+)"/g)]
        .map((m) => readFileSync(join(dist, m[1] ?? ''), 'utf8'))
        .join('\n');
      for (const brand of brands) {
        for (const [name, html] of Object.entries(brand.pages)) {
          const missing = unstyledClasses(html, css);
          if (missing.length)
            throw new Error(`prerender ${name}: no styles for ${missing.join(', ')}`);
        }
      }
      // The entry's CSS goes inline in a pre-rendered page, in place of its link (web-static.ts).
      writeFileSync(join(dist, '.vite', 'prerender.json'), JSON.stringify({ brands, css }));
    },
  };
}

/** styles-frame.ts and the Mantine stylesheets it imports (read from the file: one list). */
const FRAME_STYLES = (() => {
  const source = readFileSync(resolve(import.meta.dirname, 'src/app/styles-frame.ts'), 'utf8');
  const names = [...source.matchAll(/^import '@mantine\/core\/styles\/(\w+)\.css';$/gm)].map(
    (m) => m[1],
  );
  if (names.length === 0) throw new Error('styles-frame.ts: no stylesheets read');
  return new RegExp(
    `([\\\\/]src[\\\\/]app[\\\\/]styles-frame\\.ts|[\\\\/]@mantine[\\\\/]core[\\\\/]styles[\\\\/](${names.join('|')})\\.css)$`,
  );
})();

const REACT =
  /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;

/**
 * Chunks (issue 28, first loads on a phone, where every request costs a round trip): React in
 * one long-cached chunk; everything else the entry reaches through static imports (Mantine's
 * core parts, the session, the sign-in page) in one 'base' chunk instead of the ~25 small shared
 * chunks automatic splitting made of it (rolldown's `$initial` tag follows the imports each
 * module really uses, not the barrels'); the Mantine component CSS that screens import in one
 * chunk. The rest is split per route, and the small common chunks that splitting makes are
 * inlined into the chunks that use them (below), so a subject's dashboard loads about 10 files
 * after the entry's 4, not 43.
 */
const vendorGroups = [
  { name: 'react', test: REACT, priority: 5 },
  {
    name: 'base',
    tags: ['$initial' as const],
    test: (id: string) => !REACT.test(id) && !/[\\/]src[\\/]main\.tsx$/.test(id),
    priority: 4,
  },
  {
    // TanStack Query with the layouts' provider: every signed-in screen's data (one file, not
    // the three automatic splitting made of it).
    name: 'query',
    test: /([\\/]@tanstack[\\/](query-core|react-query)[\\/]|[\\/]src[\\/]app[\\/](query-client\.ts|layouts[\\/]with-queries\.tsx)$)/,
    priority: 2,
  },
  {
    // The component CSS a subject's frame and dashboard paint with (src/app/styles-frame.ts), apart
    // from the rest of the signed-in CSS that comes after the first paint.
    name: 'frame-styles',
    test: (id: string) => FRAME_STYLES.test(id),
    priority: 3,
  },
  {
    name: 'app-styles',
    test: /([\\/]@mantine[\\/][a-z]+[\\/]styles[\\/].*\.css|[\\/]src[\\/]app[\\/]styles-app\.ts)$/,
    priority: 2,
  },
];

/**
 * Common chunks smaller than this (source bytes, before minifying) are copied into the chunks
 * that use them (rolldown's inline common chunks: one module state through its runtime registry;
 * a chunk whose static import already carries a copy uses that one). 32 KB keeps every route
 * chunk far under its 60 KB budget (e2e/budget.test.ts) while most of a screen's helpers and
 * Mantine parts come with it.
 */
const INLINE_COMMON_CHUNKS_BELOW = 32_000;

/**
 * Web modules that do nothing when imported but define things (components/ and every feature's
 * index.ts, scripts only: the CSS they import is kept with them when they are used). Unused,
 * they are dropped with what they import, like the domain's. A module here must not register,
 * patch or start anything at import time.
 */
const PURE_WEB_MODULES =
  /apps[\\/]web[\\/]src[\\/](components[\\/].*|features[\\/][^\\/]+[\\/]index)\.tsx?$/;

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
  plugins: [
    react(),
    paintBeforeStyles(),
    collectEntryStatic(),
    writeRoutePreloads(),
    prerenderPages(),
    precompress(),
  ],
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
      // The HTML preloads the entry's own imports (React and the sign-in frame), fetched with the
      // entry instead of after it was parsed.
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'html' ? deps : deps.filter((dep) => !entryStatic.has(dep)),
    },
    // dist/.vite/manifest.json: the budget test maps routes to the chunks they download.
    manifest: true,
    // The spec: scripts under js/, styles under css/, served from the site root.
    assetsDir: '',
    rolldownOptions: {
      // The domain package is pure (no import-time effects) but does not say so in its
      // package.json; without this every screen would carry all of its rule tables. So are the
      // shared components and the features' index files (PURE_WEB_MODULES): a screen importing
      // one field from the form kit's index gets that field, not the whole kit with the date
      // selector, the address editors and the phone number rules (issue 28).
      treeshake: {
        moduleSideEffects: (id: string) =>
          /packages[\\/]domain[\\/]/.test(id) || PURE_WEB_MODULES.test(id) ? false : undefined,
      },
      output: {
        entryFileNames: 'js/[name]-[hash:7].js',
        chunkFileNames: 'js/[name]-[hash:7].js',
        assetFileNames: (info) =>
          info.names.some((n) => n.endsWith('.css'))
            ? 'css/[name]-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
        codeSplitting: {
          groups: vendorGroups,
          experimentalInlineCommonChunks: {
            maxSize: INLINE_COMMON_CHUNKS_BELOW,
            // Vite's CSS plugin emits a style module's CSS from every chunk that lists it.
            exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
        },
      },
    },
  },
});
