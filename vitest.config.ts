import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace: shared and server run in Node, web in jsdom.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'packages/locksim', 'apps/server', 'apps/web'],
  },
});
