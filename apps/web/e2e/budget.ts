import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const LOGIN_BUDGET_BYTES = 150 * 1024;
export const ROUTE_CHUNK_BUDGET_BYTES = 60 * 1024;

export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

export const gzipSize = (dist: string, file: string) =>
  gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** Every JS file a manifest key pulls in through static imports (itself included). */
export function staticClosure(
  manifest: Manifest,
  key: string,
  seen = new Set<string>(),
): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

/**
 * JS a first visit to /login downloads: the entry and what it imports, plus the public layout
 * and the login screen with their imports when they are lazy chunks.
 */
export function loginFirstVisit(dist: string): { files: string[]; gzipBytes: number } {
  const manifest = readManifest(dist);
  const keys = new Set<string>();
  for (const key of [
    'index.html',
    'src/app/layouts/public-layout.tsx',
    'src/features/auth/login-page.tsx',
  ]) {
    // The layout and the screen may be in the entry's static graph instead of lazy chunks.
    if (manifest[key]) staticClosure(manifest, key, keys);
    else if (key === 'index.html') throw new Error('index.html is not in the build manifest');
  }
  const files = [...keys].map((k) => manifest[k]?.file).filter((f): f is string => Boolean(f));
  return { files, gzipBytes: files.reduce((sum, f) => sum + gzipSize(dist, f), 0) };
}

/**
 * JS the invitation link (the claim page) may download on a first visit: what /login needs
 * plus the claim page's chunk and its imports.
 */
export function claimFirstVisit(dist: string): { files: string[]; gzipBytes: number } {
  const manifest = readManifest(dist);
  const keys = new Set<string>();
  for (const key of [
    'index.html',
    'src/app/layouts/public-layout.tsx',
    'src/features/auth/login-page.tsx',
    'src/features/auth/claim-account-page.tsx',
  ]) {
    if (manifest[key]) staticClosure(manifest, key, keys);
  }
  const files = [...keys].map((k) => manifest[k]?.file).filter((f): f is string => Boolean(f));
  return { files, gzipBytes: files.reduce((sum, f) => sum + gzipSize(dist, f), 0) };
}

/** The emitted JS file of each protected layout (product, ops, subject), from the manifest. */
export function protectedLayoutFiles(dist: string): string[] {
  const manifest = readManifest(dist);
  return ['product-layout', 'ops-layout', 'subject-layout'].map((name) => {
    const file = manifest[`src/app/layouts/${name}.tsx`]?.file;
    if (!file) throw new Error(`${name} is not a chunk of its own in the build manifest`);
    return file;
  });
}

/** The gzip size of a file as the server sends it (its precompressed .gz copy). */
export const servedGzipSize = (dist: string, file: string) =>
  readFileSync(join(dist, `${file}.gz`)).length;

/** Each lazily loaded chunk (route screens and layouts) with its own gzip size. */
export function lazyChunks(dist: string): { src: string; file: string; gzipBytes: number }[] {
  const manifest = readManifest(dist);
  return Object.entries(manifest)
    .filter(([, c]) => c.isDynamicEntry)
    .map(([key, c]) => ({ src: c.src ?? key, file: c.file, gzipBytes: gzipSize(dist, c.file) }));
}

interface RoutePreloads {
  routes: { name: string; files: string[]; css: string[] }[];
}

/**
 * The JS and CSS a signed-in first visit of a route loads before its screen can paint, from the
 * build alone: the entry's files (index.html with its static imports and their stylesheets) and the
 * route's preloaded chunks and stylesheets (dist/.vite/route-preloads.json: its layout, its screen
 * with their static imports, the bootstrap step). Sizes as the server sends them (.gz copies).
 * Unlike a browser's visit it leaves out what loads later (the next portal section once the
 * browser is idle), so it moves only when the route's own code does.
 */
export function routeFirstPaint(
  dist: string,
  route: string,
): { files: string[]; gzipBytes: number } {
  const manifest = readManifest(dist);
  const preloads = JSON.parse(
    readFileSync(join(dist, '.vite', 'route-preloads.json'), 'utf8'),
  ) as RoutePreloads;
  const entry = manifest['index.html'];
  const found = preloads.routes.find((r) => r.name === route);
  if (!entry || !found) throw new Error(`${entry ? route : 'index.html'} is not in the build`);
  const keys = staticClosure(manifest, 'index.html');
  const files = new Set<string>(entry.css ?? []);
  for (const k of keys) {
    const file = manifest[k]?.file;
    if (file) files.add(file);
    // The stylesheet of the entry's chunks (index.html links it before #root).
    for (const css of manifest[k]?.css ?? []) files.add(css);
  }
  for (const f of [...found.files, ...found.css]) files.add(f);
  const list = [...files];
  return { files: list, gzipBytes: list.reduce((sum, f) => sum + servedGzipSize(dist, f), 0) };
}

/**
 * Budgets of the first visits issue 28 measures with Lighthouse (bench part first-load): the JS
 * and CSS a phone downloads, compressed as the server sends them, and the requests it makes,
 * each with about 10% headroom over the figure when the budget was set.
 */
export const FIRST_VISIT_BUDGETS = {
  // 2026-11-28: 244.2 KB, 83 requests; 2026-11-29 (one base chunk, small common chunks inlined,
  // bootstrap reads preloaded): 239.8 KB, 26 requests.
  subjectDashboard: { bytes: 265 * 1024, requests: 29 },
  // 2026-11-28, a new case's portal (its welcome section): 378.0 KB, 123 requests; 2026-11-29:
  // 407.7 KB (the portal page's and its section's chunks each carry their copies of the small
  // helpers they share), 36 requests.
  // 2026-11-29, after the form kit left the portal frame and Welcome joined its chunk: 399.6 KB,
  // 34 requests (most of its bytes now are the next section's chunks, loaded once the browser
  // is idle: 290.4 KB before the section paints, FIRST_PAINT_BUDGETS).
  portalSection: { bytes: 430 * 1024, requests: 37 },
  // 2026-11-28: 200.3 KB, 43 requests; 2026-11-29: 195.9 KB, 13 requests.
  paymentPortal: { bytes: 215 * 1024, requests: 15 },
} as const;

/**
 * What a route loads before its screen paints (routeFirstPaint), with about 3% headroom.
 * 2026-11-29: the dashboard 228.8 KB in 17 files; a case portal section 358.4 KB in 25
 * files before the shared components were marked free of import-time effects (the portal frame
 * had loaded the whole form kit, the date selector and react-hook-form for its error summary),
 * 290.4 KB in 19 files after, Welcome and Done in the page's own chunk; 218.2 KB in 15 files
 * after the portal frame left the activity-kind registry.
 * 2026-11-29, session 28, the entry's stylesheet now counted (10.9 KB, one file): the dashboard
 * 239.7 KB in 18 files, a portal section 229.1 KB in 16, /login 154.5 KB in 5; after the
 * header's menus (Mantine's Menu, floating-ui) and the signed-in CSS beyond the subject frame's
 * left the first paint and TanStack Query became one chunk: the dashboard 194.7 KB in 14 files,
 * a portal section 197.5 KB in 14 (the rest of the signed-in CSS comes with it), /login
 * unchanged.
 */
export const FIRST_PAINT_BUDGETS = {
  's:dashboard': { bytes: 201 * 1024, files: 14 },
  's:case-portal': { bytes: 204 * 1024, files: 14 },
  login: { bytes: 160 * 1024, files: 5 },
} as const;
