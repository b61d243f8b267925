import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type MockHandler = (call: RecordedCall) => Response | Promise<Response>;

/** A JSON response (or an empty one for 204). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The API's error shape. */
export function apiError(
  status: number,
  code: string,
  message: string,
  details?: { path: string; message: string }[],
  headers: Record<string, string> = {},
): Response {
  return json({ error: { code, message, ...(details ? { details } : {}) } }, status, headers);
}

/** A gate a handler can wait at, as a slow server's answer would: `release()` lets it through. */
export function heldBack(): { released: Promise<void>; release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release: () => release() };
}

/** A handler answering `body` (JSON) only once `release` is called. */
export function heldAnswer(body: unknown): { handler: MockHandler; release: () => void } {
  const gate = heldBack();
  return { handler: async () => (await gate.released, json(body)), release: gate.release };
}

/**
 * A fetch stand-in answering "METHOD path" (path under /api3, without the query string);
 * unknown calls answer 404. Every call is recorded.
 */
export function createFetchMock(routes: Record<string, MockHandler>) {
  const calls: RecordedCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const path = new URL(url, 'http://localhost').pathname.replace(/^\/api3\//, '');
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, url, path, headers, body };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    return handler ? handler(call) : json({ error: { code: 'not_found', message: 'Not found' } }, 404);
  });
  return { fetch, calls };
}
