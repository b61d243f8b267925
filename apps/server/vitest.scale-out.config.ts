import { defineConfig } from 'vitest/config';

// The scale-out set's fleet test (test/scale-out.test.ts) runs on its own, after the server suite:
// it measures whether a fleet's events are acknowledged within the 5 s after which locks resend,
// which other test files running beside it on two cores would turn into a measure of them.
export default defineConfig({
  test: {
    name: 'scale-out',
    environment: 'node',
    include: ['test/scale-out.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
