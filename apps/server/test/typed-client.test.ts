import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLatchkeyClient } from '../../../packages/client/src/index';
import { GENERATE_COMMAND, generateSchema } from '../../../packages/client/scripts/schema-source';
import { makeOwner } from './factories';
import { TestApp } from './test-app';

/**
 * The typed client (packages/client, issue 21 item 6): its committed types are those of the served
 * OpenAPI document (a route change without regenerating fails here, naming the command), and a
 * client made with a portal's API key lists the portal's locks and adds a person over real HTTP.
 */

const schemaFile = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/client/src/schema.d.ts',
);

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await TestApp.start();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

describe('the typed client', () => {
  it('is generated from the document the server serves now', async () => {
    const document = (await t.request({ method: 'GET', url: '/api3/openapi.json' })).json();
    const fresh = await generateSchema(document);
    const committed = fs.readFileSync(schemaFile, 'utf8');
    expect(
      committed === fresh,
      `packages/client/src/schema.d.ts is stale: the API changed. Run \`${GENERATE_COMMAND}\` and commit it.`,
    ).toBe(true);
  }, 120_000);

  it("lists the portal's locks and adds a person with an API key", async () => {
    const owner = await makeOwner(t);
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: owner.token,
      payload: { name: 'Reception', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    const key = await t.request({
      method: 'POST',
      url: '/api3/portal/apikeys',
      token: owner.token,
      payload: { name: 'PMS', scopes: ['devices:read', 'people:write'] },
    });
    const client = createLatchkeyClient({ baseUrl, apiKey: key.json().secret });
    const locks = await client.GET('/api3/portal/devices', { params: { query: { limit: 50 } } });
    expect(locks.error).toBeUndefined();
    expect(locks.data!.items.map((item) => item._id)).toEqual([lock.json().device._id]);

    const added = await client.POST('/api3/portal/user', {
      body: { email: 'pms.guest@example.com', firstName: 'Pat', lastName: 'Guest', role: 'user' },
    });
    expect(added.response.status, JSON.stringify(added.error)).toBe(201);
    const people = await t.request({ method: 'GET', url: '/api3/portal/users', token: owner.token });
    expect(people.body).toContain('pms.guest@example.com');

    // What the key may not do comes back as the API's error.
    const refused = await client.POST('/api3/portal/device/new', {
      body: { name: 'Back door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.code).toBe('api_key_scope_missing');
  });
});
