/**
 * The built web app served by the real server, for the benches that drive it in Chromium
 * (first-load.bench.ts, screen-times.bench.ts): a child process on a fresh data folder with the
 * demo portal and no demo locks, and the demo admin's sign-in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from '@playwright/test';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO_ADMIN = { email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' };

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Server {
  origin: string;
  child: ChildProcess;
  dataDir: string;
}

/** The server as `npm start` runs it, on a fresh data folder with the demo portal, no demo locks. */
export async function startServer(webDist: string): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-web-bench-'));
  const port = await freePort();
  // node itself is the child (not npx), so SIGTERM reaches the server.
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      DEMO_LOCKS: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: webDist,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/`)).ok) return { origin, child, dataDir };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  throw new Error('the server did not answer within 120 s');
}

export async function stopServer(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/** Signs the demo admin in through the form, in a page of `context` closed afterwards. */
export async function signInDemoAdmin(context: BrowserContext, origin: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(DEMO_ADMIN.email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_ADMIN.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/app/dashboard');
  await page.close();
}
