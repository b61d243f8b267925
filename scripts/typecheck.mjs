// Type-checks every TypeScript project of the repository (`npm run typecheck`), or the projects
// named as arguments (folders from the repository's root).
//
// The check runs on TypeScript 7, the native compiler (the `typescript-native` alias of
// typescript@7). On this 2-core machine the seven projects took 162 s (231 s of CPU) with
// TypeScript 5.9 and take 48 s (50 s of CPU) with it. One thread each (`--singleThreaded`): CI
// checks beside lint and the install scripts, where more checker threads spent more CPU (95 s) for
// no time saved. TypeScript 5.9 stays the `typescript` package: typescript-eslint, the editor and
// the OpenAPI client generator use its JavaScript API, which TypeScript 7 does not have. Both read
// the same tsconfig files and accept this code alike (docs/decisions.md, "CI time").
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ALL_PROJECTS = [
  'packages/shared',
  'packages/locksim',
  'packages/zwave-bridge',
  'apps/server',
  'apps/web',
  'e2e',
  'bench',
];

const require = createRequire(import.meta.url);
const tsc = path.join(path.dirname(require.resolve('typescript-native/package.json')), 'bin', 'tsc');
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const projects = process.argv.length > 2 ? process.argv.slice(2) : ALL_PROJECTS;
const failed = [];
for (const project of projects) {
  const started = Date.now();
  const { status } = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit', '--singleThreaded'], {
    cwd: root,
    stdio: 'inherit',
  });
  console.log(
    `typecheck ${project}: ${status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  if (status !== 0) failed.push(project);
}
if (failed.length > 0) {
  console.error(`typecheck failed in ${failed.join(', ')}`);
  process.exit(1);
}
