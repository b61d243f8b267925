import { openSealedPayload, RESPONSE_CACHE_MS } from '@latchkey/shared';
import { pack } from 'msgpackr';
import { describe, expect, it, vi } from 'vitest';
import { apiError, createFetchMock, json, type MockHandler } from '@/testing/fetch-mock';
import { sealKeyAnswer, serverKeys } from '@/testing/fixtures';
import { expiredToken, validToken } from '@/testing/jwt';
import { ApiClient, ApiError, defaultCacheMs } from './api-client';
import { storage } from './storage';

function setup(routes: Record<string, MockHandler>, options: { cacheMs?: number } = {}) {
  const mock = createFetchMock(routes);
  let now = Date.now();
  const onUnauthorized = vi.fn();
  const onPortalOverrideDenied = vi.fn();
  const client = new ApiClient({
    baseUrl: '/api3',
    fetch: mock.fetch,
    cacheMs: options.cacheMs ?? 0,
    now: () => now,
    onUnauthorized,
    onPortalOverrideDenied,
  });
  return {
    client,
    ...mock,
    onUnauthorized,
    onPortalOverrideDenied,
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('ApiClient headers', () => {
  it('sends version: web on every call, and no Authorization when signed out', async () => {
    const { client, calls } = setup({ 'GET portal': () => json({ ok: true }) });
    await expect(client.get('portal')).resolves.toEqual({ ok: true });
    expect(calls[0]!.url).toBe('/api3/portal');
    expect(calls[0]!.headers.version).toBe('web');
    expect(calls[0]!.headers.authorization).toBeUndefined();
    expect(calls[0]!.headers['x-portal-override']).toBeUndefined();
  });

  it('sends the stored token as a bearer token while it is valid', async () => {
    const token = validToken();
    storage.setAuthToken(token);
    const { client, calls } = setup({ 'GET portal': () => json({}) });
    await client.get('portal');
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('does not send an expired token', async () => {
    storage.setAuthToken(expiredToken());
    const { client, calls } = setup({ 'GET portal': () => json({}) });
    await client.get('portal');
    expect(calls[0]!.headers.authorization).toBeUndefined();
  });

  it('sends the portal override header when another portal is selected', async () => {
    storage.setPortal('portal-9');
    const { client, calls } = setup({ 'GET portal': () => json({}) });
    await client.get('portal');
    expect(calls[0]!.headers['x-portal-override']).toBe('portal-9');
  });

  it('encodes query parameters, leaving out empty ones', async () => {
    const { client, calls } = setup({ 'GET portal/users': () => json({ items: [], total: 0 }) });
    await client.get('portal/users', {
      query: { limit: 5, sortBy: 'joinedAt', descending: true, search: undefined },
    });
    expect(calls[0]!.url).toBe('/api3/portal/users?limit=5&sortBy=joinedAt&descending=true');
  });
});

describe('ApiClient responses', () => {
  it('decodes an empty body as undefined', async () => {
    const { client } = setup({ 'POST auth/logout': () => json(undefined, 204) });
    await expect(client.post('auth/logout')).resolves.toBeUndefined();
  });

  it('answers a file (an invoice PDF) as its bytes', async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xe2, 0x82, 0xff]);
    const { client } = setup({
      'GET portal/billing/bill/b1/pdf': () =>
        new Response(pdf, { status: 200, headers: { 'content-type': 'application/pdf' } }),
    });
    const answer = await client.get('portal/billing/bill/b1/pdf');
    expect(answer).toBeInstanceOf(ArrayBuffer);
    expect(new Uint8Array(answer as ArrayBuffer)).toEqual(pdf);
  });

  it('rejects with an ApiError carrying status, code, message and details', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = setup({
      'POST auth/create': () =>
        apiError(400, 'bad_request', 'Invalid input', [{ path: 'password', message: 'is too common' }]),
    });
    const failure = await client.post('auth/create', { email: 'a@b.c' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: 'Invalid input',
      details: [{ path: 'password', message: 'is too common' }],
    });
    // A refusal the screen shows is a warning, not an error in the console.
    expect(warn).toHaveBeenCalledOnce();
    expect(error).not.toHaveBeenCalled();
  });

  it('reads Retry-After on 429', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client } = setup({
      'POST auth/secure/login': () =>
        apiError(429, 'rate_limited', 'Too many attempts', undefined, { 'Retry-After': '30' }),
    });
    await expect(client.post('auth/secure/login', {})).rejects.toMatchObject({ status: 429, retryAfter: 30 });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = new ApiClient({
      baseUrl: '/api3',
      cacheMs: 0,
      fetch: () => Promise.reject(new TypeError('down')),
    });
    await expect(client.get('portal')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('ApiClient errors', () => {
  it('on 401 to a call that carried a token: clears the token and goes to the root', async () => {
    storage.setAuthToken(validToken());
    storage.setPortal('portal-9');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client, onUnauthorized } = setup({ 'GET auth': () => apiError(401, 'unauthorized', 'Sign in') });
    await expect(client.get('auth')).rejects.toMatchObject({ status: 401 });
    expect(storage.getAuthToken()).toBeNull();
    expect(storage.getPortal()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(error).not.toHaveBeenCalled();
  });

  it('on 401 while an expired token is stored (not sent): also ends the session', async () => {
    storage.setAuthToken(expiredToken());
    const { client, calls, onUnauthorized } = setup({
      'GET portal': () => apiError(401, 'unauthorized', 'Sign in'),
    });
    await expect(client.get('portal')).rejects.toMatchObject({ status: 401 });
    expect(calls[0]!.headers.authorization).toBeUndefined();
    expect(storage.getAuthToken()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('on 401 to a call without a token (a failed sign-in): only rejects', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client, onUnauthorized } = setup({
      'POST auth/secure/login': () => apiError(401, 'invalid_credentials', 'Wrong email or password'),
    });
    await expect(client.post('auth/secure/login', {})).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('keeps 404 quiet but still rejects', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client } = setup({});
    await expect(client.get('portal/nothing')).rejects.toMatchObject({ status: 404 });
    expect(error).not.toHaveBeenCalled();
  });

  it('logs a server fault as an error and rethrows it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client } = setup({ 'GET portal': () => apiError(500, 'internal', 'Internal error') });
    await expect(client.get('portal')).rejects.toMatchObject({ status: 500, code: 'internal' });
    expect(error).toHaveBeenCalledOnce();
  });

  it('on portal_override_denied: clears the stored override and retries once without it', async () => {
    storage.setAuthToken(validToken());
    storage.setPortal('portal-9');
    const { client, calls, onPortalOverrideDenied } = setup({
      'GET portal': (call) =>
        call.headers['x-portal-override']
          ? apiError(403, 'portal_override_denied', 'Not yours')
          : json({ _id: 'own-portal' }),
    });
    await expect(client.get('portal')).resolves.toEqual({ _id: 'own-portal' });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.headers['x-portal-override']).toBeUndefined();
    expect(storage.getPortal()).toBeNull();
    expect(onPortalOverrideDenied).toHaveBeenCalledOnce();
  });

  it('retries a denied override only once', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setPortal('portal-9');
    const { client, calls } = setup({
      'GET portal': () => {
        storage.setPortal('portal-9'); // as if something stored it again at once
        return apiError(403, 'portal_override_denied', 'Not yours');
      },
    });
    await expect(client.get('portal')).rejects.toMatchObject({ code: 'portal_override_denied' });
    expect(calls).toHaveLength(2);
  });
});

describe('ApiClient response cache', () => {
  it('is off on localhost and 1 s elsewhere', () => {
    expect(defaultCacheMs('localhost')).toBe(0);
    expect(defaultCacheMs('127.0.0.1')).toBe(0);
    expect(defaultCacheMs('::1')).toBe(0);
    expect(defaultCacheMs('app.latchkey.io')).toBe(RESPONSE_CACHE_MS);
    expect(RESPONSE_CACHE_MS).toBe(1000);
  });

  it('answers a repeated GET from the cache until it expires', async () => {
    let n = 0;
    const { client, calls, advance } = setup({ 'GET portal': () => json({ n: ++n }) }, { cacheMs: 1000 });
    await expect(client.get('portal')).resolves.toEqual({ n: 1 });
    advance(999);
    await expect(client.get('portal')).resolves.toEqual({ n: 1 });
    expect(calls).toHaveLength(1);
    advance(1);
    await expect(client.get('portal')).resolves.toEqual({ n: 2 });
    expect(calls).toHaveLength(2);
  });

  it('keys the cache by token, override and caller key', async () => {
    const { client, calls } = setup({ 'GET portal': () => json({}) }, { cacheMs: 1000 });
    await client.get('portal');
    await client.get('portal', { cacheKey: 'other' });
    storage.setPortal('portal-9');
    await client.get('portal');
    storage.setAuthToken(validToken());
    await client.get('portal');
    expect(calls).toHaveLength(4);
  });

  it('is cleared by every non-GET call', async () => {
    const { client, calls } = setup(
      { 'GET portal': () => json({}), 'POST portal/data': () => json({}) },
      { cacheMs: 1000 },
    );
    await client.get('portal');
    await client.post('portal/data', { name: 'New' });
    await client.get('portal');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET portal',
      'POST portal/data',
      'GET portal',
    ]);
  });

  it('can be cleared outright', async () => {
    const { client, calls } = setup({ 'GET portal': () => json({}) }, { cacheMs: 1000 });
    await client.get('portal');
    client.clearCache();
    await client.get('portal');
    expect(calls).toHaveLength(2);
  });

  it('is bypassed for URLs containing a bypass substring (auth)', async () => {
    const { client, calls } = setup({ 'GET auth': () => json({}) }, { cacheMs: 1000 });
    await client.get('auth');
    await client.get('auth');
    expect(calls).toHaveLength(2);
  });

  it('does not keep failed answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const { client, calls } = setup(
      { 'GET portal': () => (fail ? apiError(500, 'internal', 'boom') : json({ ok: true })) },
      { cacheMs: 1000 },
    );
    await expect(client.get('portal')).rejects.toBeInstanceOf(ApiError);
    fail = false;
    await expect(client.get('portal')).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });
});

describe('ApiClient sealed bodies', () => {
  it('sends { m, k: 2, n (24 digits), p } that the server key opens, fetching the key once', async () => {
    const { client, calls, now } = setup({
      'GET auth/sealKey': () => json(sealKeyAnswer()),
      'POST auth/secure/login': () => json({ token: 't', expiresAt: '2099-01-01T00:00:00.000Z' }),
    });
    const payload = { email: 'ada@example.com', password: 'secret', scope: 'app', systemType: 'app' };
    await client.post('auth/secure/login', payload, { sealed: true });
    await client.post('auth/secure/login', payload, { sealed: true });

    const posts = calls.filter((c) => c.method === 'POST');
    expect(calls.filter((c) => c.path === 'auth/sealKey')).toHaveLength(1);
    const body = posts[0]!.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['k', 'm', 'n', 'p']);
    expect(body.k).toBe(2);
    expect(body.n).toMatch(/^\d{24}$/);
    expect(body.n).toBe(String(now()).padStart(24, '0'));
    expect(body.m).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(body.p).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(openSealedPayload(body as never, serverKeys.secretKey)).toEqual(payload);
    // One client key pair per page load.
    expect((posts[1]!.body as Record<string, unknown>).p).toBe(body.p);
  });
});

describe('ApiClient binary answers (brief §7)', () => {
  const page = { items: [{ _id: 'd1', name: 'Main entrance', battery: 87, lastSeenAt: null }], total: 1 };

  it('asks for MessagePack on a registered list and decodes it to the same record', async () => {
    const { client, calls } = setup({
      'GET portal/devices': () =>
        new Response(new Uint8Array(pack(page)), {
          status: 200,
          headers: { 'content-type': 'application/msgpack' },
        }),
      'GET device/d1/events': () => json(page),
    });
    await expect(client.get('portal/devices', { query: { limit: 25 } })).resolves.toEqual(page);
    expect(calls[0]!.headers.accept).toBe('application/msgpack, application/json;q=0.9');
    // A server that answers JSON anyway is read as JSON.
    await expect(client.get('device/d1/events')).resolves.toEqual(page);
    expect(calls[1]!.headers.accept).toMatch(/^application\/msgpack/);
  });

  it('keeps asking for JSON elsewhere, and reads errors of a binary call as JSON', async () => {
    const { client, calls } = setup({
      'GET portal': () => json({ _id: 'p1' }),
      'GET portal/users': () => apiError(403, 'forbidden', 'Admins only'),
    });
    await expect(client.get('portal')).resolves.toEqual({ _id: 'p1' });
    expect(calls[0]!.headers.accept).toBe('application/json');
    await expect(client.get('portal/users')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    // Writes never ask for it.
    await client.post('portal/devices', {}).catch(() => {});
    expect(calls.at(-1)!.headers.accept).toBe('application/json');
  });
});
