import { promisify } from 'node:util';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { AREA_FRAMES } from './src/app/area-frames';
import { SCHEMA_FACTORIES } from './src/app/schema-factories';

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

/**
 * Writes frames/<area>.html for each signed-in area (src/app/area-frames.ts): index.html with a
 * modulepreload link for every chunk the area's frame loads beyond the entry's own (the frame's
 * chunk and its static imports: the shared UI and screen code). The server sends it for the area's
 * addresses. Runs after Vite has written index.html into the bundle, and before `precompress`.
 */
function areaFramePages(): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'latchkey-area-frame-pages',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return this.error('index.html is not in the bundle');
      const chunks = Object.values(bundle).filter(
        (file): file is Rollup.OutputChunk => file.type === 'chunk',
      );
      /** The chunk and every chunk it imports statically, by file name. */
      const withImports = (chunk: Rollup.OutputChunk, into = new Set<string>()): Set<string> => {
        if (into.has(chunk.fileName)) return into;
        into.add(chunk.fileName);
        for (const name of chunk.imports) {
          const imported = bundle[name];
          if (imported?.type === 'chunk') withImports(imported, into);
        }
        return into;
      };
      const entryFiles = new Set(
        chunks.filter((chunk) => chunk.isEntry).flatMap((chunk) => [...withImports(chunk)]),
      );
      for (const [area, module] of Object.entries(AREA_FRAMES)) {
        const frame = chunks.find((chunk) => chunk.facadeModuleId === path.join(root, module));
        if (!frame) return this.error(`No chunk of its own for ${module} (src/app/area-frames.ts)`);
        const links = [...withImports(frame)]
          .filter((file) => !entryFiles.has(file))
          .map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`)
          .join('\n    ');
        const html = String(index.source);
        if (!html.includes('</head>')) return this.error('index.html has no </head>');
        this.emitFile({
          type: 'asset',
          fileName: `frames/${area}.html`,
          source: html.replace('</head>', `  ${links}\n  </head>`),
        });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), areaFramePages(), precompress()],
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
      // A schema no page reads is not built at boot (src/app/schema-factories.ts).
      treeshake: { manualPureFunctions: [...SCHEMA_FACTORIES] },
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
            // NaCl (sealed calls, phone keys, the developer tools): a chunk of its own, fetched with
            // the first call or screen that uses it. In `ui` it was part of every signed-in first
            // load (8 KB compressed). Since a lazy chunk now needs the bundler's CommonJS helpers
            // too, they are a file of their own (under 1 KB), preloaded beside the entry.
            { name: 'nacl', test: /node_modules[\\/]tweetnacl(-util)?[\\/]/, priority: 2 },
            { name: 'ui', test: /node_modules/, minShareCount: 2, priority: 1 },
            // The features' calls that two chunks share (a screen and its route's reads): their own
            // chunk, which needs only the entry, so a route's reads (startReads in router.tsx) can
            // run without the screens' UI code; in `screens` they waited for all of it to run.
            {
              name: 'reads',
              test: /apps[\\/]web[\\/]src[\\/]features[\\/][^\\/]+[\\/]api[\\/]/,
              minShareCount: 2,
              priority: 1,
            },
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
