import { promisify } from 'node:util';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const API_TARGET = process.env.LATCHKEY_API_TARGET ?? 'http://127.0.0.1:3000';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every built text file. The
 * server sends them as they are (`@fastify/static` `preCompressed`): the strongest settings cost
 * once at build time instead of at every response, and brotli 11 is about 14 % smaller than the
 * on-the-fly quality 4 (docs/benchmarks.md, first load).
 */
function precompress(): Plugin {
  return {
    name: 'latchkey-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((file) => /\.(js|css|html|svg|json)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const target = path.join(outDir, file);
          const content = await fs.readFile(target);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([fs.writeFile(`${target}.br`, br), fs.writeFile(`${target}.gz`, gz)]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: {
      '/api3': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One stylesheet for every screen: the screens' own CSS is a few KB, not worth a request each.
    cssCodeSplit: false,
    // Every browser the app supports knows <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Few files, none loaded for nothing (docs/decisions.md, "First load"). Everything the
        // first load needs (the entry's static imports, sign-in included) is one chunk; library
        // and app code that several lazy screens share goes into one chunk each, fetched with the
        // first screen after sign-in and cached for the others; what one screen alone uses stays
        // in that screen's chunk. (One vendor chunk for all of node_modules put all of Mantine
        // into every first load: 125 KB of the 297 KB sign-in loaded.)
        codeSplitting: {
          groups: [
            { name: 'boot', tags: ['$initial'], priority: 2 },
            { name: 'ui', test: /node_modules/, minShareCount: 2, priority: 1 },
            // The features' shared modules too (query keys, schemas, calls two screens make): alone,
            // each was a file of about 1 KB, 29 of them before the dashboard's first data.
            {
              name: 'screens',
              test: /apps[\\/]web[\\/]src[\\/](components|lib|features)[\\/]/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});
