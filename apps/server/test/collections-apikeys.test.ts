import { API_KEY_PATTERN } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

// The `apikeys` collection (features/collections on features/api-keys): an admin makes a key with
// its secret once, lists it, revokes it with DELETE (refused at once); ls hears of the making and
// the revocation but not of the key being used. No API key may call it, whatever its scopes.
// Every collection's walk by nobody, a basic user and another portal is in
// collections-isolation.test.ts, its ls lifecycle in collections-changes.test.ts.
let t: TestApp;
let portals: TwoPortals;

beforeAll(async () => {
  t = await TestApp.start({ API_KEY_LIMIT_PER_MINUTE: '1000' });
  portals = await makeTwoPortals(t, { rentals: false });
});
afterAll(() => t.close());

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) {
  return t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });
}

interface Changes {
  changed: { _id: string }[];
  deleted: string[];
  next: string;
}

/**
 * The apikeys changes since `since` once `seen` holds them. On PostgreSQL, ls returns a change
 * only once every older transaction has ended (changes.repository.ts): it may come a moment late.
 */
async function changesUntil(token: string, since: string | undefined, seen: (c: Changes) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await call('POST', 'apikeys/ls', token, { ...(since && { since }) });
    expect(response.statusCode, response.body).toBe(200);
    const changes = response.json() as Changes;
    if (seen(changes) || Date.now() > deadline) return changes;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The change log's position of a key: it moves only when the key's record changes. */
async function changeSeq(keyId: string) {
  const row = await t.app.db
    .selectFrom('collection_changes')
    .select(['seq', 'deleted'])
    .where('collection', '=', 'apikeys')
    .where('record_id', '=', keyId)
    .executeTakeFirstOrThrow();
  return row;
}

const useKey = (secret: string) => t.request({ method: 'GET', url: '/api3/portal/devices', token: secret });

describe('apikeys', () => {
  it('makes a key (secret once), lists it, revokes it (refused at once); ls hears of both, not of its use', async () => {
    const { admin, portalId } = portals.a;
    const start = await changesUntil(admin, undefined, () => true);

    const created = await call('POST', 'apikeys/new', admin, { name: 'PMS sync', scopes: ['devices:read'] });
    expect(created.statusCode, created.body).toBe(201);
    const { key, secret } = created.json() as { key: { _id: string; prefix: string }; secret: string };
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(key.prefix).toBe(secret.slice(0, 'lk_live_'.length + 8));
    const stored = await t.app.db
      .selectFrom('api_keys')
      .select(['secret_hash', 'portal_id'])
      .where('id', '=', key._id)
      .executeTakeFirstOrThrow();
    expect(stored.portal_id).toBe(portalId);

    // The secret works as a Bearer on the REST routes its scope grants. Its first use is written
    // (time and address) but is no change: the key's place in the change log stays.
    const before = await changeSeq(key._id);
    expect((await useKey(secret)).statusCode).toBe(200);
    const used = await t.app.db
      .selectFrom('api_keys')
      .select(['last_used_at', 'last_used_ip'])
      .where('id', '=', key._id)
      .executeTakeFirstOrThrow();
    expect(used.last_used_at).not.toBeNull();
    expect(used.last_used_ip).not.toBeNull();
    expect(await changeSeq(key._id)).toEqual(before);

    // Read and listed without the secret or its hash.
    const read = await call('GET', `apikeys/${key._id}`, admin);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      _id: key._id,
      name: 'PMS sync',
      scopes: ['devices:read'],
      revokedAt: null,
    });
    const list = await call('POST', 'apikeys', admin, {});
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((k: { _id: string }) => k._id)).toContain(key._id);
    expect(list.json().total).toBe(list.json().items.length);
    for (const answer of [created.json().key, read.json(), list.json()]) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain(secret.slice(key.prefix.length + 1));
      expect(text).not.toContain(stored.secret_hash);
    }

    const afterCreate = await changesUntil(admin, start.next, (c) =>
      c.changed.some((k) => k._id === key._id),
    );
    expect(afterCreate.changed.map((k) => k._id)).toEqual([key._id]);
    expect(afterCreate.deleted).toEqual([]);

    // Used again: nothing new since the making.
    expect((await useKey(secret)).statusCode).toBe(200);
    expect(await changesUntil(admin, afterCreate.next, () => true)).toMatchObject({
      changed: [],
      deleted: [],
    });

    // DELETE revokes: refused from the next request; still readable, marked revoked, as on the keys page.
    expect((await call('DELETE', `apikeys/${key._id}`, admin)).statusCode).toBe(204);
    expect((await useKey(secret)).statusCode).toBe(401);
    expect((await call('GET', `apikeys/${key._id}`, admin)).json().revokedAt).toEqual(expect.any(String));
    // ls says what get says: the key changed (revoked), it is not gone.
    const afterRevoke = await changesUntil(admin, afterCreate.next, (c) => c.changed.length > 0);
    expect(afterRevoke.deleted).toEqual([]);
    expect(afterRevoke.changed).toEqual([
      expect.objectContaining({ _id: key._id, revokedAt: expect.any(String) }),
    ]);
    expect((await changeSeq(key._id)).deleted).toBeFalsy();

    // The same service as POST portal/apikeys and its revoke: the same change log.
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', key._id)
      .orderBy('created_at')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['apiKey.create', 'apiKey.revoke']);

    // Another portal's ls hears of none of it.
    const other = await changesUntil(portals.b.admin, undefined, () => true);
    expect(JSON.stringify(other)).not.toContain(key._id);
  });

  it("a basic user gets 403, another portal's admin 404 for this portal's key (which keeps working)", async () => {
    const { a, b } = portals;
    const routes: [method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object][] = [
      ['GET', `apikeys/${a.apiKeyId}`],
      ['POST', 'apikeys', {}],
      ['POST', 'apikeys/ls', {}],
      ['POST', 'apikeys/new', { name: 'Mine', scopes: ['devices:write'] }],
      ['DELETE', `apikeys/${a.apiKeyId}`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await call(method, url, a.user, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
    }
    expect((await call('GET', `apikeys/${a.apiKeyId}`, b.admin)).statusCode).toBe(404);
    expect((await call('DELETE', `apikeys/${a.apiKeyId}`, b.admin)).statusCode).toBe(404);
    expect((await call('POST', 'apikeys', b.admin, {})).body).not.toContain(a.apiKeyId);
    expect((await useKey(a.apiKey)).statusCode).toBe(200);
  });

  it('refuses every API key on every apikeys route, even one with every scope', async () => {
    const { a } = portals;
    const keysBefore = await t.app.db
      .selectFrom('api_keys')
      .select('id')
      .where('portal_id', '=', a.portalId)
      .execute();
    const routes: [method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object][] = [
      ['GET', `apikeys/${a.apiKeyId}`],
      ['POST', 'apikeys', {}],
      ['POST', 'apikeys/ls', {}],
      ['POST', 'apikeys/new', { name: 'Minted by a key', scopes: ['devices:write'] }],
      ['DELETE', `apikeys/${a.apiKeyId}`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await call(method, url, a.apiKey, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(response.json().error.code).toBe('api_key_not_allowed');
    }
    // Nothing was minted or revoked: the key still works.
    const keysAfter = await t.app.db
      .selectFrom('api_keys')
      .select('id')
      .where('portal_id', '=', a.portalId)
      .execute();
    expect(keysAfter).toHaveLength(keysBefore.length);
    expect((await useKey(a.apiKey)).statusCode).toBe(200);
  });
});
