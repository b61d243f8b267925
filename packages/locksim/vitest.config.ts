import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'locksim', environment: 'node', include: ['src/**/*.test.ts'] },
});
