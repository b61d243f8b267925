import crypto from 'node:crypto';
import { API_KEY_PATTERN } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOwner } from './factories';
import { TestApp } from './test-app';

/**
 * API keys (issue 21, item 1): made by a portal's admins, shown once, stored hashed; a key acts in
 * its portal as an admin limited to its scopes, never on account or platform routes nor in another
 * portal; revoked at once (on a second server sharing the database too), expiring, limited to
 * addresses and per key; every change made with one is audited as the key.
 */

let t: TestApp;
let second: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;

beforeAll(async () => {
  t = await TestApp.start({ API_KEY_LIMIT_PER_MINUTE: '1000' });
  // A second server on the same database (PostgreSQL with TEST_DATABASE_URL, else the SQLite file).
  second = await TestApp.start({
    API_KEY_LIMIT_PER_MINUTE: '1000',
    DATA_DIR: t.app.config.DATA_DIR,
    ...(t.app.config.DATABASE_URL && { DATABASE_URL: t.app.config.DATABASE_URL }),
  });
  owner = await makeOwner(t);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

async function createKey(payload: Record<string, unknown>, token = owner.token) {
  const response = await t.request({ method: 'POST', url: '/api3/portal/apikeys', token, payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { key: { _id: string; prefix: string; name: string }; secret: string };
}

const asKey = (app: TestApp, secret: string, options: Record<string, unknown> = {}) =>
  app.request({ method: 'GET', url: '/api3/portal/devices', token: secret, ...options });

describe('making keys', () => {
  it('shows the secret once, stores only its SHA-256 and prefix, and lists the key without it', async () => {
    const { key, secret } = await createKey({ name: 'PMS sync', scopes: ['devices:read'] });
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(key.prefix).toBe(secret.slice(0, 'lk_live_'.length + 8));
    const row = await t.app.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key._id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(crypto.createHash('sha256').update(secret).digest('hex'));
    // The part after the prefix (base64url: it may itself hold '_').
    expect(JSON.stringify(row)).not.toContain(secret.slice(key.prefix.length + 1));
    const list = await t.request({ method: 'GET', url: '/api3/portal/apikeys', token: owner.token });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(list.json().keys.map((k: { name: string }) => k.name)).toContain('PMS sync');
  });

  it('refuses bad input and changes nothing', async () => {
    const before = await t.app.db.selectFrom('api_keys').select('id').execute();
    for (const payload of [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['devices:admin'] },
      { name: 'x', scopes: ['billing:write'] },
      { name: 'x', scopes: ['devices:read'], expiresAt: '2020-01-01T00:00:00Z' },
      { name: 'x', scopes: ['devices:read'], expiresAt: '2099-01-01T00:00:00Z' },
      { name: 'x', scopes: ['devices:read'], allowedAddresses: ['not-an-ip'] },
      { name: 'x', scopes: ['devices:read'], allowedAddresses: ['10.0.0.0/33'] },
    ]) {
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/apikeys',
        token: owner.token,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await t.app.db.selectFrom('api_keys').select('id').execute()).toEqual(before);
  });
});

describe('what a key may do', () => {
  it('reads with a read scope, writes only with the write scope (which implies read)', async () => {
    const reader = await createKey({ name: 'Reader', scopes: ['devices:read'] });
    const writer = await createKey({ name: 'Writer', scopes: ['devices:write'] });
    expect((await asKey(t, reader.secret)).statusCode).toBe(200);
    expect((await asKey(t, writer.secret)).statusCode).toBe(200);
    const add = (secret: string) =>
      t.request({
        method: 'POST',
        url: '/api3/portal/device/new',
        token: secret,
        payload: { name: 'Side door', model: 'latchkey-sim', timeZone: 'UTC' },
      });
    const refused = await add(reader.secret);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'api_key_scope_missing' });
    expect(refused.json().error.message).toContain('devices:write');
    expect((await add(writer.secret)).statusCode).toBe(201);
    // Another area's scope grants nothing here.
    const people = await createKey({ name: 'People', scopes: ['people:write'] });
    expect((await asKey(t, people.secret)).json().error.code).toBe('api_key_scope_missing');
  });

  it('is refused on account and platform routes, on key routes, and in another portal', async () => {
    const { secret } = await createKey({ name: 'Everything', scopes: ['devices:write', 'people:write'] });
    for (const url of ['/api3/auth', '/api3/system/portals', '/api3/portal/apikeys']) {
      const response = await t.request({ method: 'GET', url, token: secret });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error.code, url).toBe('api_key_not_allowed');
    }
    const minted = await t.request({
      method: 'POST',
      url: '/api3/portal/apikeys',
      token: secret,
      payload: { name: 'Child', scopes: ['devices:read'] },
    });
    expect(minted.statusCode).toBe(403);
    const other = await makeOwner(t);
    const overridden = await asKey(t, secret, { portal: other.portalId });
    expect(overridden.statusCode).toBe(403);
    expect(overridden.json().error.code).toBe('api_key_not_allowed');
    // Its own portal named in the header is fine.
    expect((await asKey(t, secret, { portal: owner.portalId })).statusCode).toBe(200);
  });

  it('refuses an unknown or altered key', async () => {
    const { secret } = await createKey({ name: 'Altered', scopes: ['devices:read'] });
    const altered = secret.slice(0, -2) + (secret.endsWith('AA') ? 'BB' : 'AA');
    for (const token of [altered, 'lk_live_zzzzzzzz_' + 'a'.repeat(43), 'lk_live_short']) {
      const response = await asKey(t, token);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('api_key_invalid');
    }
  });
});

describe('revocation, expiry, addresses, limits', () => {
  it('a revoked key is refused at once, on this server and on another sharing the database', async () => {
    const { key, secret } = await createKey({ name: 'To revoke', scopes: ['devices:read'] });
    expect((await asKey(t, secret)).statusCode).toBe(200);
    expect((await asKey(second, secret)).statusCode).toBe(200);
    const revoked = await t.request({
      method: 'POST',
      url: `/api3/portal/apikeys/${key._id}/revoke`,
      token: owner.token,
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).not.toBeNull();
    for (const app of [t, second]) {
      const response = await asKey(app, secret);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('api_key_revoked');
    }
  });

  it('an expired key is refused', async () => {
    const { key, secret } = await createKey({
      name: 'Short-lived',
      scopes: ['devices:read'],
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await asKey(t, secret)).statusCode).toBe(200);
    await t.app.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', key._id)
      .execute();
    const response = await asKey(t, secret);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('api_key_expired');
  });

  it('a key limited to addresses works only from them', async () => {
    const { secret } = await createKey({
      name: 'Office only',
      scopes: ['devices:read'],
      allowedAddresses: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'],
    });
    for (const address of ['10.1.2.3', '192.0.2.7', '::ffff:10.9.9.9', '2001:db8::1']) {
      expect((await asKey(t, secret, { remoteAddress: address })).statusCode, address).toBe(200);
    }
    for (const address of ['192.0.2.8', '11.0.0.1', '2001:db9::1']) {
      const response = await asKey(t, secret, { remoteAddress: address });
      expect(response.statusCode, address).toBe(403);
      expect(response.json().error.code).toBe('api_key_address_not_allowed');
    }
  });

  it('records the last use (time and address), at most once a minute', async () => {
    const { key, secret } = await createKey({ name: 'Used', scopes: ['devices:read'] });
    await asKey(t, secret, { remoteAddress: '203.0.113.5' });
    await asKey(t, secret, { remoteAddress: '203.0.113.6' });
    const { keys } = (
      await t.request({ method: 'GET', url: '/api3/portal/apikeys', token: owner.token })
    ).json();
    const listed = keys.find((k: { _id: string }) => k._id === key._id);
    expect(listed.lastUsedIp).toBe('203.0.113.5');
    expect(Date.now() - new Date(listed.lastUsedAt).getTime()).toBeLessThan(60_000);
  });

  it('limits requests per key (429 with Retry-After), other keys unaffected', async () => {
    const limited = await TestApp.start({ API_KEY_LIMIT_PER_MINUTE: '3' });
    try {
      const admin = await makeOwner(limited);
      const make = async (name: string) =>
        (
          await limited.request({
            method: 'POST',
            url: '/api3/portal/apikeys',
            token: admin.token,
            payload: { name, scopes: ['devices:read'] },
          })
        ).json().secret as string;
      const first = await make('First');
      const other = await make('Other');
      for (let i = 0; i < 3; i++) expect((await asKey(limited, first)).statusCode).toBe(200);
      const refused = await asKey(limited, first);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await asKey(limited, other)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('audit and people', () => {
  it('a person added with a key is audited as the key, and the key is no person of the portal', async () => {
    const { key, secret } = await createKey({ name: 'PMS people', scopes: ['people:write', 'events:read'] });
    const email = `guest-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const added = await t.request({
      method: 'POST',
      url: '/api3/portal/user',
      token: secret,
      payload: { email, firstName: 'Ada', lastName: 'Guest' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const log = await t.request({
      method: 'GET',
      url: '/api3/portal/audit',
      token: owner.token,
      query: { filter: JSON.stringify({ action: 'member.invite' }) },
    });
    expect(log.statusCode, log.body).toBe(200);
    const entry = log.json().items.find((e: { entityId: string }) => e.entityId === added.json().member._id);
    expect(entry.actor).toMatchObject({ _id: key._id, name: `API key 'PMS people' (${key.prefix})` });
    const row = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', added.json().member._id)
      .where('action', '=', 'member.invite')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ api_key_id: key._id, actor_user_id: null });
    // The portal's people: the owner and the person added, never the key.
    const people = await t.request({ method: 'GET', url: '/api3/portal/users', token: owner.token });
    expect(people.body).not.toContain('PMS people');
    expect(people.body).toContain(email);
    // Creating and revoking keys is audited too, as the admin who did it.
    const made = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', key._id)
      .where('action', '=', 'apiKey.create')
      .executeTakeFirstOrThrow();
    expect(made.actor_user_id).toBe(owner.userId);
    expect(made.after_json).not.toContain(secret);
  });
});

describe('the API document', () => {
  it("reads a person's door code only with credentials:read (people:read reads the person)", async () => {
    const email = `coded-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const added = await t.request({
      method: 'POST',
      url: '/api3/portal/user',
      token: owner.token,
      payload: { email, firstName: 'Cody', accessCode: '583921' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const personId = added.json().member._id as string;
    const read = async (scopes: string[]) => {
      const { secret } = await createKey({ name: scopes.join(' '), scopes });
      const rest = await t.request({ method: 'GET', url: `/api3/portal/user/${personId}`, token: secret });
      const collection = await t.request({
        method: 'GET',
        url: `/api3/userPortal/${personId}`,
        token: secret,
      });
      expect(rest.statusCode, rest.body).toBe(200);
      expect(collection.statusCode, collection.body).toBe(200);
      return [rest.json().accessCode, collection.json().accessCode];
    };
    expect(await read(['people:read'])).toEqual([null, null]);
    expect(await read(['people:read', 'credentials:read'])).toEqual(['583921', '583921']);
    // A person signed in as the admin sees it, as on the person's page.
    const asAdmin = await t.request({
      method: 'GET',
      url: `/api3/portal/user/${personId}`,
      token: owner.token,
    });
    expect(asAdmin.json().accessCode).toBe('583921');
  });

  it('declares the key scheme and the scope each operation needs', async () => {
    const document = (await t.request({ method: 'GET', url: '/api3/openapi.json' })).json();
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const list = document.paths['/api3/portal/devices'].get;
    expect(list['x-latchkey-scope']).toBe('devices:read');
    expect(list.security).toContainEqual({ apiKey: ['devices:read'] });
    expect(document.paths['/api3/portal/device/new'].post['x-latchkey-scope']).toBe('devices:write');
    expect(document.paths['/api3/portal/apikeys'].get['x-latchkey-scope']).toBeUndefined();
  });
});
