import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'locksim',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The fleet test logs 200 locks in over real MQTT: 2.7 s on CI's two cores, past Vitest's 5 s
    // default when the machine is busy with other work. No test here asserts on time.
    testTimeout: 30_000,
  },
});
