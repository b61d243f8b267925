/**
 * Binary answers (brief §7: "Responses are read as bytes and decoded as JSON, or as an encoded
 * octet stream for some types"): the large lists below also come as MessagePack, the same record
 * as the JSON answer, when the request's Accept header names MSGPACK_MEDIA_TYPE. JSON stays the
 * default; errors are always JSON. One registry for both sides: the server encodes exactly these
 * routes (base/http/binary-answers.ts), the web client asks for it on exactly these calls.
 */

/** The media type asked for (Accept) and answered (Content-Type). */
export const MSGPACK_MEDIA_TYPE = 'application/msgpack';

/** The routes that answer MessagePack when asked: `METHOD path` under the API base, `:name` a parameter. */
export const BINARY_ANSWER_ROUTES = [
  'GET /portal/devices',
  'GET /portal/users',
  'GET /portal/activity',
  'GET /portal/device/logs',
  'GET /portal/audit',
  'GET /portal/sync',
  'GET /device/:id/events',
  'GET /device/:id/history',
  'GET /user/:id/history',
] as const;

const matchers = BINARY_ANSWER_ROUTES.map((route) => {
  const [method, path] = route.split(' ') as [string, string];
  const pattern = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/?#]+');
  return { method, test: new RegExp(`^${pattern}/?$`) };
});

/**
 * Whether a call answers MessagePack when asked: `path` relative to the API base, with or without
 * its leading slash, without the query string.
 */
export function hasBinaryAnswer(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  const bare = `/${path.replace(/^\/+/, '').split(/[?#]/)[0] ?? ''}`;
  return matchers.some((matcher) => matcher.method === upper && matcher.test.test(bare));
}
