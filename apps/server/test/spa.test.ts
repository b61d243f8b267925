import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

// The built web app as the server sends it: the .br and .gz files the build writes beside each
// file (apps/web/vite.config.ts) go out as they are, chosen by Accept-Encoding.

const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const page = `<!doctype html><html><head><title>Latchkey</title></head><body>${'<p>x</p>'.repeat(200)}</body></html>`;
// A signed-in area's page as the build writes it: index.html naming the area's frame chunks.
const appPage = page.replace(
  '</head>',
  '<link rel="modulepreload" crossorigin href="/assets/app-1a2b3c.js"></head>',
);

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  const write = (file: string, content: string) => {
    fs.writeFileSync(path.join(webDist, file), content);
    fs.writeFileSync(path.join(webDist, `${file}.br`), zlib.brotliCompressSync(content));
    fs.writeFileSync(path.join(webDist, `${file}.gz`), zlib.gzipSync(content));
  };
  write('index.html', page);
  write('assets/app-1a2b3c.js', script);
  fs.mkdirSync(path.join(webDist, 'frames'));
  write('frames/app.html', appPage);
  fs.writeFileSync(path.join(webDist, 'robots.txt'), 'User-agent: *\n');
  fs.mkdirSync(path.join(webDist, 'brands'));
  fs.writeFileSync(path.join(webDist, 'brands', 'latchkey-light.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  t = await TestApp.start({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.request({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe("the brands' pictures", () => {
  it('may be shown by a page of any origin (a mail in a webmail, the dev mailbox), the app itself not', async () => {
    const picture = await get('/brands/latchkey-light.png');
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const script = await get('/assets/app-1a2b3c.js');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('the built web app, precompressed', () => {
  it('sends the brotli file to a browser that accepts it, the gzip one otherwise', async () => {
    const br = await get('/assets/app-1a2b3c.js', 'gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    // As written at build time, not compressed again on the way out.
    expect(br.rawPayload.equals(fs.readFileSync(path.join(webDist, 'assets/app-1a2b3c.js.br')))).toBe(true);

    const gz = await get('/assets/app-1a2b3c.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
  });

  it('sends the file itself to a client that accepts no encoding', async () => {
    const plain = await get('/assets/app-1a2b3c.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers a screen of the client router with the precompressed index.html', async () => {
    const screen = await get('/shop/cart', 'br');
    expect(screen.statusCode).toBe(200);
    expect(screen.headers['content-encoding']).toBe('br');
    expect(screen.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(screen.rawPayload).toString()).toBe(page);
  });

  it("answers a screen of a signed-in area with that area's page, its frame's chunks named", async () => {
    for (const url of ['/app/dashboard', '/app', '/app/device/1?tab=sync']) {
      const screen = await get(url, 'br');
      expect(screen.statusCode, url).toBe(200);
      expect(screen.headers['content-type']).toMatch(/text\/html/);
      expect(screen.headers['cache-control']).toBe('no-cache');
      expect(zlib.brotliDecompressSync(screen.rawPayload).toString()).toBe(appPage);
    }
    // An area the build wrote no page for, or a segment that only starts like one: index.html.
    for (const url of ['/user/locks', '/application', '/']) {
      expect((await get(url)).body, url).toBe(page);
    }
  });

  it('compresses on the way out a file the build wrote no compressed copy of', async () => {
    const robots = await get('/robots.txt', 'br');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(robots.rawPayload).toString()).toBe('User-agent: *\n');
    expect((await get('/assets/missing-0000.js', 'br')).statusCode).toBe(404);
  });
});
