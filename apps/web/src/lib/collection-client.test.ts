import fs from 'node:fs';
import path from 'node:path';
import { RESPONSE_CACHE_MS } from '@latchkey/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '@/testing/fetch-mock';
import { ApiClient, defaultCacheMs } from './api-client';
import { CollectionClient, collection } from './collection-client';

/** A real ApiClient over a recorded fetch; the collection client's cache on fake timers. */
function setup(options: { cacheMs?: number; cacheBypass?: string[]; session?: () => string } = {}) {
  let counter = 0;
  const mock = createFetchMock({
    'GET error/e1': () => json({ id: 'e1', seen: ++counter }),
    'POST error': () => json({ items: [], total: ++counter }),
    'POST error/ls': () => json({ changed: [], deleted: [], now: String(++counter) }),
    'POST error/e1': () => json({ id: 'e1', saved: ++counter }),
    'POST error/new': () => json({ id: 'e2', saved: ++counter }),
    'DELETE error/e1': () => json({}),
    'POST error/resolve/e1': () => json({ id: 'e1', resolved: true }),
  });
  const http = new ApiClient({ baseUrl: '/api3', fetch: mock.fetch, cacheMs: 0 });
  const client = new CollectionClient(http, {
    cacheMs: options.cacheMs ?? RESPONSE_CACHE_MS,
    cacheBypass: options.cacheBypass ?? [],
    now: () => Date.now(),
    sessionKey: options.session ?? (() => 'session'),
  });
  return { client, errors: collection<{ id: string }>('error', client), calls: mock.calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('collection client: the brief §7 calls', () => {
  it('sends get, list, save, new, delete, remote calls and ls to their addresses', async () => {
    const { errors, calls } = setup({ cacheMs: 0 });
    await errors.get('e1');
    await errors.list({ search: 'boom' });
    await errors.save('e1', { note: 'x' });
    await errors.save(null, { note: 'y' });
    await errors.delete('e1');
    await errors.call('resolve', 'e1', { resolved: true });
    await errors.ls('2026-11-27T00:00:00.000Z');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api3/error/e1',
      'POST /api3/error',
      'POST /api3/error/e1',
      'POST /api3/error/new',
      'DELETE /api3/error/e1',
      'POST /api3/error/resolve/e1',
      'POST /api3/error/ls',
    ]);
    expect(calls[1]!.body).toEqual({ search: 'boom' });
    expect(calls[5]!.body).toEqual({ resolved: true });
    expect(calls[6]!.body).toEqual({ since: '2026-11-27T00:00:00.000Z' });
  });
});

describe('collection client cache', () => {
  it('answers the same read from the cache for 1000 ms, then asks again', async () => {
    const { errors, calls } = setup();
    const first = await errors.list({ search: 'a' });
    vi.advanceTimersByTime(RESPONSE_CACHE_MS - 1);
    expect(await errors.list({ search: 'a' })).toEqual(first);
    expect(calls).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(await errors.list({ search: 'a' })).not.toEqual(first);
    expect(calls).toHaveLength(2);
  });

  it('keys by the serialized arguments plus the caller key', async () => {
    const { errors, calls } = setup();
    await errors.list({ search: 'a' });
    await errors.list({ search: 'b' });
    await errors.list({ search: 'a' }, { cacheKey: 'other screen' });
    await errors.list({ search: 'a' }, { cacheKey: 'other screen' });
    await errors.get('e1');
    await errors.get('e1');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api3/error',
      'POST /api3/error',
      'POST /api3/error',
      'GET /api3/error/e1',
    ]);
  });

  it('never shares an answer between two sessions or acting portals', async () => {
    let session = 'portal A';
    const { errors, calls } = setup({ session: () => session });
    await errors.get('e1');
    session = 'portal B';
    await errors.get('e1');
    expect(calls).toHaveLength(2);
  });

  it('bypasses the cache for keys containing a configured substring', async () => {
    const { errors, calls } = setup({ cacheBypass: ['nocache'] });
    await errors.list({ search: 'nocache please' });
    await errors.list({ search: 'nocache please' });
    await errors.list({ search: 'cached' });
    await errors.list({ search: 'cached' });
    await errors.list({}, { cacheKey: 'nocache-caller' });
    await errors.list({}, { cacheKey: 'nocache-caller' });
    expect(calls).toHaveLength(5);
  });

  it('a collection name as a bypass substring turns caching off for that collection', async () => {
    const { errors, calls } = setup({ cacheBypass: ['"error"'] });
    await errors.get('e1');
    await errors.get('e1');
    expect(calls).toHaveLength(2);
  });

  it.each([
    ['save', (c: ReturnType<typeof setup>['errors']) => c.save('e1', {})],
    ['new', (c: ReturnType<typeof setup>['errors']) => c.save(null, {})],
    ['delete', (c: ReturnType<typeof setup>['errors']) => c.delete('e1')],
    ['a remote call', (c: ReturnType<typeof setup>['errors']) => c.call('resolve', 'e1')],
  ])('is cleared by %s', async (_name, write) => {
    const { errors, calls } = setup();
    await errors.get('e1');
    await errors.list({});
    await write(errors);
    await errors.get('e1');
    await errors.list({});
    expect(calls.filter((c) => c.method === 'GET' || c.url === '/api3/error')).toHaveLength(4);
  });

  it('can be cleared outright', async () => {
    const { client, errors, calls } = setup();
    await errors.ls('t0');
    client.clearCache();
    await errors.ls('t0');
    expect(calls).toHaveLength(2);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const mock = createFetchMock({
      'GET error/e1': () =>
        fail ? json({ error: { code: 'internal', message: 'x' } }, 500) : json({ id: 'e1' }),
    });
    const client = new CollectionClient(new ApiClient({ baseUrl: '/api3', fetch: mock.fetch, cacheMs: 0 }), {
      cacheMs: RESPONSE_CACHE_MS,
      sessionKey: () => '',
      now: () => Date.now(),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(client.get('error', 'e1')).rejects.toThrow();
    fail = false;
    await expect(client.get('error', 'e1')).resolves.toEqual({ id: 'e1' });
  });

  it('has lifetime 0 (no cache) on localhost, 1000 ms elsewhere', async () => {
    expect(defaultCacheMs('localhost')).toBe(0);
    expect(defaultCacheMs('127.0.0.1')).toBe(0);
    expect(defaultCacheMs('latchkey.example')).toBe(RESPONSE_CACHE_MS);
    // The test page runs on localhost: a client made with the defaults caches nothing.
    expect(window.location.hostname).toBe('localhost');
    const mock = createFetchMock({ 'GET error/e1': () => json({ id: 'e1' }) });
    const client = new CollectionClient(new ApiClient({ baseUrl: '/api3', fetch: mock.fetch, cacheMs: 0 }));
    await client.get('error', 'e1');
    await client.get('error', 'e1');
    expect(mock.calls).toHaveLength(2);
  });
});

describe('one home per collection', () => {
  it("creates each collection('<name>') in one module only", () => {
    const src = path.resolve(import.meta.dirname, '..');
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return files(full);
        return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
      });
    const homes = new Map<string, string[]>();
    for (const file of files(src)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/\bcollection(?:<[^>]*>)?\(\s*'([^']+)'/g)) {
        homes.set(match[1]!, [...(homes.get(match[1]!) ?? []), path.relative(src, file)]);
      }
    }
    const twice = [...homes]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(twice).toEqual([]);
    expect([...homes.values()].flat().filter((file) => file.startsWith('lib/'))).toEqual([]);
  });
});
