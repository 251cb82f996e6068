// Loading the compiled server faster (issue 28, restart ≤ 3 s), imported by main.ts before any
// other module of the server:
// - Node's compile cache (module.enableCompileCache, Node ≥ 22.1): the code of the ~1,500 modules
//   a start loads is compiled once and read back from the cache on later starts.
// - A resolve hook for relative imports of files of a package with an explicit "type" (most of
//   what a start loads: the server's and the domain package's own files, drizzle-orm's, zod's…):
//   Node 24's default resolver re-parses the package's whole "exports" map of its package.json for
//   every such import (package_json_reader's getPackageScopeConfig spreads the lazily parsed
//   fields), ~0.4 s of CPU on a start; the hook resolves the URL and takes the format from the
//   package's "type", read once per directory. Anything else (files without an extension,
//   packages without "type", where Node detects the syntax) goes to Node's resolver.
// - Bare specifiers ('drizzle-orm', 'zod/mini') are resolved by Node once per importing directory
//   and conditions (the same node_modules chain: the same answer), not once per importing file.
// Under tsx (the sources, `npm run start -w @kestrel/server`) neither is installed.
import { existsSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ResolveContext {
  parentURL?: string | undefined;
  conditions?: readonly string[] | undefined;
}
interface ResolveResult {
  url: string;
  format?: string | null | undefined;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: ResolveContext) => ResolveResult;
interface LoaderApi {
  registerHooks(hooks: {
    resolve: (specifier: string, context: ResolveContext, next: NextResolve) => ResolveResult;
  }): unknown;
  enableCompileCache(): unknown;
}

function hasLoaderApi(m: object): m is LoaderApi {
  return (
    'registerHooks' in m &&
    typeof m.registerHooks === 'function' &&
    'enableCompileCache' in m &&
    typeof m.enableCompileCache === 'function'
  );
}

/** The explicit "type" of the package a directory belongs to (its nearest package.json). */
const typeByDir = new Map<string, 'module' | 'commonjs' | null>();
function packageType(dir: string): 'module' | 'commonjs' | null {
  const known = typeByDir.get(dir);
  if (known !== undefined) return known;
  let type: 'module' | 'commonjs' | null = null;
  const file = join(dir, 'package.json');
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const t = typeof parsed === 'object' && parsed !== null && 'type' in parsed && parsed.type;
      type = t === 'module' || t === 'commonjs' ? t : null;
    } catch {
      type = null;
    }
  } else if (dirname(dir) !== dir) {
    type = packageType(dirname(dir));
  }
  typeByDir.set(dir, type);
  return type;
}

const RELATIVE_FILE = /^\.\.?\/.*\.(?:m?js|cjs|json)$/;

/** The format of a file Node would give it, or null to leave the file to Node's resolver. */
function formatOf(path: string): string | null {
  if (path.endsWith('.mjs')) return 'module';
  if (path.endsWith('.cjs')) return 'commonjs';
  if (path.endsWith('.json')) return 'json';
  return packageType(dirname(path));
}

export function resolveRelative(
  specifier: string,
  context: ResolveContext,
  next: NextResolve,
): ResolveResult {
  const parent = context.parentURL;
  if (parent?.startsWith('file:') && RELATIVE_FILE.test(specifier)) {
    const url = new URL(specifier, parent);
    const path = fileURLToPath(url);
    const format = existsSync(path) ? formatOf(path) : null;
    if (format) return { url: url.href, format, shortCircuit: true };
  }
  return next(specifier, context);
}

const BARE = /^[^./#][^:]*$/;
const bareResolved = new Map<string, ResolveResult>();

/** A bare specifier's resolution, Node's, remembered per importing directory and conditions. */
export function resolveBare(
  specifier: string,
  context: ResolveContext,
  next: NextResolve,
): ResolveResult {
  const parent = context.parentURL;
  if (!parent?.startsWith('file:') || !BARE.test(specifier)) return next(specifier, context);
  const key = `${specifier}\0${parent.slice(0, parent.lastIndexOf('/'))}\0${context.conditions?.join(',') ?? ''}`;
  const known = bareResolved.get(key);
  if (known) return known;
  const resolved = next(specifier, context);
  bareResolved.set(key, { ...resolved, shortCircuit: true });
  return resolved;
}

/** Both: relative files first, then bare specifiers, then Node's resolver. */
export function resolveFast(
  specifier: string,
  context: ResolveContext,
  next: NextResolve,
): ResolveResult {
  return resolveRelative(specifier, context, (s, c) => resolveBare(s, c, next));
}

if (import.meta.url.endsWith('.js') && hasLoaderApi(nodeModule)) {
  nodeModule.enableCompileCache();
  nodeModule.registerHooks({ resolve: resolveFast });
}
