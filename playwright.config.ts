import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium';

// The end-to-end run builds the web app and starts the real server on a fresh data folder,
// with the demo portal, then drives Debian's Chromium (no browser download). The server sends
// its mail over SMTP to a mail catcher that the tests read (e2e/mail-catcher.ts).
const port = Number(process.env.E2E_PORT ?? 3310);
const smtpPort = port + 15;
const mailboxPort = port + 16;
// The embedded MQTT broker on a known port: the device-link tests run their own simulated locks.
const mqttPort = port + 17;
// A folder per port, so runs on other ports (E2E_PORT) do not clear each other's data.
const dataDir = path.join(os.tmpdir(), `latchkey-e2e-${port}`);
// Test workers load this file too, so they learn where the mailbox is from here.
process.env.E2E_MAILBOX_URL = `http://127.0.0.1:${mailboxPort}`;
process.env.E2E_MQTT_URL = `mqtt://127.0.0.1:${mqttPort}`;

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two browsers at once, test by test: the tests share the one server and its demo data, and each
  // makes what it changes under names of its own (new accounts, locks, listings, addresses). Each
  // worker is a client address of its own (below), so the server's per-address limits count each
  // worker's journeys apart.
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The worker's own client address, passed on as a proxy in front of the server would
    // (TRUST_PROXY): the journeys' mailed links (the server takes 10 uses from one address in
    // 15 minutes) ran into 429s when every browser was 127.0.0.1, as soon as the run took less
    // than 15 minutes. A worker started again after a failure gets a new address, as its retry
    // is someone else trying again.
    extraHTTPHeaders: {
      'x-forwarded-for': `10.17.0.${(Number(process.env.TEST_WORKER_INDEX ?? 0) % 250) + 1}`,
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // The axe scans of the demo portal's screens come first, while no simulated lock is online:
    // the journeys connect locks to the demo portal, whose live notifications (a lock online, a
    // tamper alarm) would pop up in the screens being scanned. A failed scan skips the journeys.
    { name: 'screens', testMatch: ['accessibility.spec.ts', 'rental-center.spec.ts'] },
    {
      name: 'journeys',
      testIgnore: ['accessibility.spec.ts', 'rental-center.spec.ts'],
      dependencies: ['screens'],
    },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/mail-catcher.ts',
      url: `http://127.0.0.1:${mailboxPort}/messages`,
      reuseExistingServer: false,
      stdout: 'ignore',
      env: { SMTP_PORT: String(smtpPort), HTTP_PORT: String(mailboxPort) },
    },
    {
      // The production build, as npm start runs it (npm run build makes the web app and the server).
      // CI has just built it (LATCHKEY_PREBUILT=1 in .ci/run), so it is not built twice there.
      command: `rm -rf ${dataDir} && ${process.env.LATCHKEY_PREBUILT ? '' : 'npm run build && '}node apps/server/dist/main.js`,
      url: `http://127.0.0.1:${port}/api3/auth/sealKey`,
      timeout: 180_000,
      reuseExistingServer: false,
      // The server logs to stdout (pino) at LOG_LEVEL=warn: a failing journey's server-side warnings
      // and errors show in the run's output beside it.
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // Behind a proxy, as deployments are: X-Forwarded-For names the client (each worker's, above).
        TRUST_PROXY: 'true',
        LOGIN_LIMIT_PER_IP: '1000',
        SIGNUP_LIMIT_PER_IP: '1000',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_POLL_MS: '300',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        MQTT_PORT: String(mqttPort),
        // The tests bring their own locks; the demo's simulated ones would change what screens show.
        DEMO_LOCKS: 'false',
        // Journeys add more locks to a new portal than the Free plan allows (plans have their tests).
        PLAN_LOCK_LIMITS: 'false',
        // A guest whose stay ended is mailed the review link within a second (rental-center.spec.ts).
        REVIEW_MAIL_CHECK_MS: '1000',
        // Stays waiting for their locks are checked every second, not every 5 s: rental.spec.ts
        // watches three checks pass without an access mail, then the mail once the lock confirms.
        STAY_ACCESS_CHECK_MS: '1000',
        // Webhook endpoints on 127.0.0.1: e2e/webhooks.spec.ts runs its receiver in the test process.
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
    },
  ],
});
