import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'zwave-bridge', environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
