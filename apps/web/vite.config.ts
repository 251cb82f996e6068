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

// Vendor code every page needs goes in one long-cached chunk; everything else is split per route.
const vendorGroups = [
  {
    name: 'react',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
  },
];

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: { conditions: ['kestrel-source', ...defaultClientConditions] },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the product supports preloads modules itself (modulepreload): no polyfill in
    // the entry chunk (the invitation link's 150 KB budget, e2e/budget.test.ts).
    modulePreload: { polyfill: false },
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
        entryFileNames: 'js/[name]-[hash].js',
        chunkFileNames: 'js/[name]-[hash].js',
        assetFileNames: (info) =>
          info.names.some((n) => n.endsWith('.css'))
            ? 'css/[name]-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
});
