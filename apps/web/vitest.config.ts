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
    },
  }),
);
