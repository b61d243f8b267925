import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The end-to-end run builds the web app and starts the real server on a fresh data folder,
// with the demo portal, then drives Debian's Chromium (no browser download).
const port = Number(process.env.E2E_PORT ?? 3310);
const dataDir = path.join(os.tmpdir(), 'latchkey-e2e');

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && npm run build && node --import tsx apps/server/src/main.ts`,
    url: `http://127.0.0.1:${port}/api3/auth/sealKey`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_LIMIT_PER_IP: '1000',
      SIGNUP_LIMIT_PER_IP: '1000',
    },
  },
});
