import { configDefaults, defineConfig } from 'vitest/config';

// The suite runs a second time on PostgreSQL (TEST_DATABASE_URL, `npm run test:pg`) to prove the SQL
// layer: queries, triggers, row locks and the scale-out path. These files prove nothing a database
// changes (the import graph, the route and text registries, the OpenAPI document and the typed
// client, configuration, pure logic, the Z-Wave bridge against its simulator, whose server side the
// device-link tests cover on PostgreSQL), so they run on SQLite only.
const SAME_ON_EVERY_DATABASE = [
  'test/one-way-imports.test.ts',
  'test/route-registry.test.ts',
  'test/safe-text-registry.test.ts',
  'test/account-mechanism.test.ts',
  'test/mail-mechanism.test.ts',
  'test/specs/openapi.spec.test.ts',
  'test/typed-client.test.ts',
  'test/config.test.ts',
  'test/one-clock-mail.test.ts',
  'test/retained-by-topic.test.ts',
  'src/features/device-link/event-ingest.test.ts',
  'test/zwave-bridge.test.ts',
  'test/zwave-demo.test.ts',
];

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Runs alone, as a project of its own (vitest.scale-out.config.ts).
    exclude: [
      ...configDefaults.exclude,
      'test/scale-out.test.ts',
      ...(process.env.TEST_DATABASE_URL ? SAME_ON_EVERY_DATABASE : []),
    ],
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
