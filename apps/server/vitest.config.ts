import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Runs alone, as a project of its own (vitest.scale-out.config.ts).
    exclude: [...configDefaults.exclude, 'test/scale-out.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Migrates one database for the whole run, which every TestApp copies (test-app.ts).
    globalSetup: ['./test/global-setup.ts'],
    // Passwords hash at 1 MiB and one pass instead of 19 MiB and two (src/features/auth/password.ts):
    // a test checks the production parameters, and the end-to-end run serves the build as it is.
    env: { LATCHKEY_TEST_CHEAP_PASSWORD_HASH: '1' },
    // The server's modules are loaded once per worker, not once per test file (3.6 s each): every
    // file builds its own apps on its own database, and what the modules keep for the process
    // (domain-event listeners, the decoy hash) serves every app alike.
    isolate: false,
    // On CI a failed test runs once more, as the end-to-end run's do (playwright.config.ts): under a
    // full PostgreSQL run's load, two tests that wait on background work (a stay's access monitor, a
    // lockout's recompute) have each failed once in five runs and passed alone. A test that fails
    // twice still fails the run; the README's CI section names the two.
    retry: process.env.CI ? 1 : 0,
  },
});
