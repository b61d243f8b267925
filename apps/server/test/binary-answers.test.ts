import crypto from 'node:crypto';
import { MSGPACK_MEDIA_TYPE } from '@latchkey/shared';
import { gzipSync } from 'node:zlib';
import { unpack } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsMsgpack } from '../src/base/http/binary-answers';
import { addLock } from './billing-helpers';
import { TestApp } from './test-app';

// Binary answers (brief §7; base/http/binary-answers.ts): the registered large lists answer
// MessagePack when the Accept header asks for it, the same record as their JSON; every other
// answer, and every error, stays JSON.

let t: TestApp;
let admin: { token: string; portalId: string };
const LOCKS = 100;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.signUp();
  for (let i = 0; i < LOCKS; i++) {
    await addLock(t, admin.portalId, `Door ${String(i).padStart(3, '0')}`, new Date().toISOString());
  }
});
afterAll(() => t.close());

const get = (url: string, accept?: string, token = admin.token) =>
  t.request({ method: 'GET', url, token, headers: accept ? { accept } : {} });

describe('MessagePack answers', () => {
  it('answers the lock list as MessagePack when asked, the same record as its JSON', async () => {
    const url = `/api3/portal/devices?limit=${LOCKS}`;
    const json = await get(url);
    const binary = await get(url, MSGPACK_MEDIA_TYPE);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(binary.statusCode).toBe(200);
    expect(binary.headers['content-type']).toBe(MSGPACK_MEDIA_TYPE);
    expect(binary.headers.vary).toMatch(/accept/i);
    const decoded = unpack(binary.rawPayload) as { items: unknown[] };
    expect(decoded).toEqual(json.json());
    expect(decoded.items).toHaveLength(LOCKS);
    // The figures in docs/benchmarks.md ("Binary answers").
    const gzipped = await t.request({
      method: 'GET',
      url,
      token: admin.token,
      headers: { accept: MSGPACK_MEDIA_TYPE, 'accept-encoding': 'gzip' },
    });
    console.info(
      `lock list of ${LOCKS}: JSON ${json.rawPayload.byteLength} bytes (gzip ${gzipSync(json.rawPayload).byteLength}), ` +
        `MessagePack ${binary.rawPayload.byteLength} bytes (gzip ${gzipSync(binary.rawPayload).byteLength}); ` +
        `served with Accept-Encoding gzip: ${gzipped.headers['content-encoding'] ?? 'identity'}, ${gzipped.rawPayload.byteLength} bytes`,
    );
    expect(binary.rawPayload.byteLength).toBeLessThan(json.rawPayload.byteLength);
    // Compressed like JSON (the plugin would send it as it is otherwise).
    expect(gzipped.headers['content-encoding']).toBe('gzip');
  });

  it('answers the people list and the activity feed both ways alike', async () => {
    for (const url of ['/api3/portal/users', '/api3/portal/activity', '/api3/portal/audit']) {
      const json = await get(url);
      const binary = await get(url, `${MSGPACK_MEDIA_TYPE}, application/json;q=0.5`);
      expect(json.statusCode, url).toBe(200);
      expect(binary.headers['content-type'], url).toBe(MSGPACK_MEDIA_TYPE);
      expect(unpack(binary.rawPayload), url).toEqual(json.json());
    }
  });

  it('keeps JSON by default, for routes outside the registry, and for errors', async () => {
    // No Accept, or JSON first: JSON.
    expect((await get('/api3/portal/devices')).headers['content-type']).toMatch(/^application\/json/);
    expect((await get('/api3/portal/devices', 'application/json')).headers['content-type']).toMatch(
      /^application\/json/,
    );
    // Another type asked for MessagePack still answers JSON.
    const other = await get('/api3/portal', MSGPACK_MEDIA_TYPE);
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-type']).toMatch(/^application\/json/);
    expect(other.json()).toHaveProperty('_id');
    // Refused before the handler (no token) and refused by validation: JSON errors.
    const anonymous = await t.request({
      method: 'GET',
      url: '/api3/portal/devices',
      headers: { accept: MSGPACK_MEDIA_TYPE },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toHaveProperty('error.code');
    const bad = await get('/api3/portal/devices?limit=nope', MSGPACK_MEDIA_TYPE);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    // A missing record on a registered route (another portal's lock, or none): a JSON 404.
    const missing = await get(`/api3/device/${crypto.randomUUID()}/events`, MSGPACK_MEDIA_TYPE);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.json()).toHaveProperty('error.code', 'not_found');
  });

  it('describes the alternative in the OpenAPI document, JSON first', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api3/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content: object }> }>>;
    };
    const content = doc.paths['/api3/portal/devices']!.get!.responses['200']!.content;
    expect(Object.keys(content)).toEqual(['application/json', MSGPACK_MEDIA_TYPE]);
    expect(Object.keys(doc.paths['/api3/portal']!.get!.responses['200']!.content)).toEqual([
      'application/json',
    ]);
  });

  it('reads the Accept header as content negotiation does', () => {
    expect(acceptsMsgpack(undefined)).toBe(false);
    expect(acceptsMsgpack('*/*')).toBe(false);
    expect(acceptsMsgpack('application/json')).toBe(false);
    expect(acceptsMsgpack('Application/MsgPack')).toBe(true);
    expect(acceptsMsgpack('application/json, application/msgpack;q=0.9')).toBe(true);
    expect(acceptsMsgpack('application/msgpack;q=0')).toBe(false);
  });
});
