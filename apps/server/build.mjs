/**
 * npm run build -w @latchkey/server: the server as plain JavaScript for `npm start` (no TypeScript
 * loader at run time). esbuild bundles the server's own code and the workspace packages it imports
 * (@latchkey/shared, @latchkey/locksim, which ship TypeScript sources) into dist/main.js; every
 * other package stays in node_modules, loaded as Node loads it (native addons, packages that read
 * their own files, pino's worker transports). Type checking is `npm run typecheck`'s job.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(here, 'dist');

/** Bare imports (packages, node: builtins) stay imports, except our workspace packages. */
const nodeModulesExternal = {
  name: 'node-modules-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      // latchkey-zwave (packages/zwave-bridge, the DEMO_ZWAVE demo) ships TypeScript sources too.
      args.path.startsWith('@latchkey/') || args.path.startsWith('latchkey-zwave')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

const started = Date.now();
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: path.join(here, 'src/main.ts') },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // For stack traces in the TypeScript sources: NODE_OPTIONS=--enable-source-maps (it costs about
  // 25 MB of memory, so npm start leaves it off; the bundle is readable as it is).
  sourcemap: true,
  plugins: [nodeModulesExternal],
  logLevel: 'warning',
  metafile: true,
  // Code loaded with import() goes to chunks of its own beside main.js, with the packages it imports:
  // the DEMO_ZWAVE demo's zwave-js is then loaded only when that demo runs, not at every start.
  splitting: true,
});
const bytes = result.metafile.outputs[path.relative(process.cwd(), path.join(outdir, 'main.js'))]?.bytes;
console.log(
  `server built into ${path.relative(process.cwd(), outdir)}/main.js` +
    (bytes ? ` (${Math.round(bytes / 1024)} KB)` : '') +
    ` in ${Date.now() - started} ms`,
);
