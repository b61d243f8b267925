import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/testing/setup.ts'],
      restoreMocks: true,
      // Screens render Mantine in jsdom and type with user-event: seconds each on a busy 2-core
      // machine. A generous limit keeps a slow run from failing; no test asserts on time.
      testTimeout: 20_000,
      // One jsdom and one module graph per worker, not per test file: setting up jsdom and
      // importing Mantine and the screens again for each of 120 files was half of the web run.
      // Each test leaves the shared state as it found it (src/testing/setup.ts: cleanup, storage,
      // the query cache, the API cache, the navigator and fake sockets are reset after each).
      isolate: false,
    },
  }),
);
