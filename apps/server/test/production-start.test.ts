import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeBase64, newBoxKeyPair, sealPayload } from '@latchkey/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, logFormatOf } from '../src/config';

/**
 * `npm start` as it ships: the server built to JavaScript (build.mjs) and run by plain Node, with no
 * TypeScript loader, on a fresh data folder with the demo portal; then asked what a browser asks.
 * With TEST_DATABASE_URL it runs on a fresh PostgreSQL database.
 */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverPackage = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
const run = promisify(execFile);

interface Started {
  child: ChildProcess;
  baseUrl: string;
  lines: string[];
  exited: Promise<number | null>;
}

/** Starts dist/main.js and resolves once it logs that it is running. */
function startBuilt(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [path.join(serverDir, 'dist/main.js')], {
    env: { PATH: process.env.PATH, PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const port = line.match(/Latchkey is running at http:\/\/[^:]+:(\d+)/)?.[1];
      if (port) resolve({ child, baseUrl: `http://127.0.0.1:${port}`, lines, exited });
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before it ran: ${stderr}`)));
  });
}

/** Waits until a line containing `text` has been written. */
async function waitForLine(lines: string[], text: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!lines.some((line) => line.includes(text))) {
    if (Date.now() > deadline) throw new Error(`no line with "${text}" in:\n${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function freshDatabase(): Promise<{ url?: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { drop: async () => {} };
  const name = `latchkey_start_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

describe('npm start (the compiled server)', () => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let server: Started;

  beforeAll(async () => {
    // CI built it once already (LATCHKEY_PREBUILT, .ci/run); elsewhere the test builds what it runs.
    if (!process.env.LATCHKEY_PREBUILT) {
      await run(process.execPath, [path.join(serverDir, 'build.mjs')], { cwd: serverDir });
    }
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-start-'));
    database = await freshDatabase();
    server = await startBuilt({
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      DEMO_LOCKS: 'false',
      ...(database.url && { DATABASE_URL: database.url }),
    });
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs plain JavaScript: no TypeScript loader, sources bundled, packages from node_modules', () => {
    const bundle = fs.readFileSync(path.join(serverDir, 'dist/main.js'), 'utf8');
    expect(bundle).not.toMatch(/from ["']tsx/);
    expect(bundle).not.toMatch(/from ["']@latchkey\//);
    expect(bundle).toMatch(/from ["']fastify["']/);
    expect(serverPackage.scripts.start).toBe('node dist/main.js');
  });

  it('logs JSON when stdout is not a terminal, and says how long it took to start', () => {
    const records = server.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const running = records.find((r) => String(r.msg).startsWith('Latchkey is running'));
    expect(running).toMatchObject({
      level: 30,
      modulesLoadedMs: expect.any(Number),
      startedMs: expect.any(Number),
      startCpuMs: expect.any(Number),
    });
  });

  it('serves the API with the demo portal: sign-in, the about screen, locks, the API docs', async () => {
    const get = (url: string, token?: string) =>
      fetch(`${server.baseUrl}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const { publicKey } = (await (await get('/api3/auth/sealKey')).json()) as { publicKey: string };
    const login = await fetch(`${server.baseUrl}/api3/auth/secure/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        sealPayload(
          { email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' },
          decodeBase64(publicKey),
          newBoxKeyPair(),
        ),
      ),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    // The versions come from the package files, which the bundle carries inside it.
    const about = (await (await get('/api3/portal/about', token)).json()) as Record<string, unknown>;
    expect(about).toMatchObject({
      version: serverPackage.version,
      database: database.url ? 'postgres' : 'sqlite',
    });
    const locks = (await (await get('/api3/portal/devices?limit=5', token)).json()) as { total: number };
    expect(locks.total).toBeGreaterThan(0);
    expect((await get('/api3/openapi.json')).status).toBe(200);
    expect((await get('/api3/docs/')).status).toBe(200);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    server.child.kill('SIGTERM');
    const code = await server.exited;
    // On failure, what the server said last (a step of the shutdown that failed or hung).
    expect(code, server.lines.slice(-15).join('\n')).toBe(0);
  });
});

describe('log format', () => {
  it('writes pretty lines with LOG_FORMAT=pretty (formatted on pino-pretty’s worker)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-start-'));
    try {
      const server = await startBuilt({
        DATA_DIR: dataDir,
        WEB_DIST: path.join(dataDir, 'no-web'),
        DEMO_DATA: 'false',
        LOG_FORMAT: 'pretty',
        LOG_LEVEL: 'info',
      });
      // The summary block a person reads comes after every log line (issue 19, item 8).
      await waitForLine(server.lines, 'Stop with Ctrl+C');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const running = server.lines.find((line) => /INFO.*Latchkey is running/.test(line))!;
      expect(() => JSON.parse(running)).toThrow();
      const summaryAt = server.lines.findIndex((line) => line.startsWith('  Latchkey is running at'));
      expect(summaryAt).toBeGreaterThan(server.lines.indexOf(running));
      expect(
        server.lines.slice(summaryAt).filter((line) => /INFO|WARN/.test(line) && !line.includes('shutting')),
      ).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('at a terminal, without LOG_LEVEL, prints warnings and a short block with the demo sign-ins last', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-start-'));
    try {
      const server = await startBuilt({
        DATA_DIR: dataDir,
        WEB_DIST: path.join(dataDir, 'no-web'),
        DEMO_LOCKS: 'false',
        LOG_FORMAT: 'pretty',
      });
      await waitForLine(server.lines, 'Stop with Ctrl+C');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // Was ~270 lines with the sign-ins at line 122: now the demo's seeding is not in the way.
      expect(server.lines.length).toBeLessThan(25);
      expect(server.lines.some((line) => line.includes('INFO'))).toBe(false);
      const summary = server.lines.slice(server.lines.findIndex((line) => line.includes('Demo sign-ins')));
      expect(summary.join('\n')).toMatch(/Portal admin +admin@demo\.latchkey\.dev +demo-admin-pass/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const config = (env: Record<string, string>) => loadConfig({ ...env });

  it('is pretty at a terminal and JSON otherwise, unless LOG_FORMAT (or the older LOG_PRETTY) says', () => {
    expect(logFormatOf(config({}), true)).toBe('pretty');
    expect(logFormatOf(config({}), false)).toBe('json');
    expect(logFormatOf(config({ LOG_FORMAT: 'json' }), true)).toBe('json');
    expect(logFormatOf(config({ LOG_FORMAT: 'pretty' }), false)).toBe('pretty');
    expect(logFormatOf(config({ LOG_PRETTY: 'true' }), false)).toBe('pretty');
    expect(logFormatOf(config({ LOG_PRETTY: 'false' }), true)).toBe('json');
    expect(logFormatOf(config({ LOG_PRETTY: 'false', LOG_FORMAT: 'pretty' }), false)).toBe('pretty');
    expect(() => config({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT="yaml"/);
  });
});
