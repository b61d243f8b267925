import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace: shared and server run in Node, web in jsdom.
export default defineConfig({
  test: {
    // A worker per core. Vitest's default keeps one core for its main process, which on CI's 2-core
    // machines left one worker for every test file while the main process mostly waited.
    maxWorkers: '100%',
    projects: [
      'packages/shared',
      'packages/locksim',
      'packages/zwave-bridge',
      'apps/server',
      'apps/server/vitest.scale-out.config.ts',
      'apps/web',
    ],
  },
});
