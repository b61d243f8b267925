import { deviceTopic, type DeviceCommand } from '@latchkey/shared';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../src/features/collections/collections';
import { collectionOperations } from '../src/features/collections/registry';
import { makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

// The collection protocol beside the brief's REST routes (features/collections): a remote unlock
// through POST device/unlock/{id} reaches a connected lock as POST device/{id}/command does and is
// audited the same; the collections' static segments leave the REST routes under device/… alone;
// the API document lists every collection operation with its schemas.

let t: TestApp;
let portals: TwoPortals;

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t, { rentals: false });
});
afterAll(() => t.close());

describe('POST device/unlock/{id}', () => {
  it('sends the lock a remote unlock with its expiry, audited as the REST command is; a basic user only where they may open', async () => {
    const { a } = portals;
    const created = await t.request({
      method: 'POST',
      url: '/api3/crudDevices/new',
      token: a.admin,
      payload: { name: 'Connected door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { device, deviceSecret } = created.json() as { device: { _id: string }; deviceSecret: string };
    const client = await mqtt.connectAsync(t.app.deviceLink.transport.url, {
      clientId: device._id,
      username: device._id,
      password: deviceSecret,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    try {
      const commands: DeviceCommand[] = [];
      client.on('message', (topic, payload) => {
        if (topic === deviceTopic(device._id, 'commands')) commands.push(JSON.parse(payload.toString()));
      });
      await client.subscribeAsync(deviceTopic(device._id, 'commands'), { qos: 1 });
      await client.publishAsync(
        deviceTopic(device._id, 'status'),
        JSON.stringify({
          online: true,
          battery: 80,
          lockState: 'locked',
          firmware: 'test-1.0',
          credentialsVersion: 0,
          ts: new Date().toISOString(),
        }),
        { qos: 1, retain: true },
      );
      await waitFor(async () => {
        const read = await t.request({ method: 'GET', url: `/api3/device/${device._id}`, token: a.admin });
        return read.json().online === true ? true : undefined;
      }, 'the lock online');

      // The basic user does not reach this lock: refused, nothing sent.
      const refused = await t.request({
        method: 'POST',
        url: `/api3/device/unlock/${device._id}`,
        token: a.user,
        payload: {},
      });
      expect(refused.statusCode).toBe(403);

      const sent = await t.request({
        method: 'POST',
        url: `/api3/device/unlock/${device._id}`,
        token: a.admin,
        payload: {},
      });
      expect(sent.statusCode, sent.body).toBe(202);
      const command = await waitFor(() => commands[0], 'the command at the lock');
      expect(command).toMatchObject({ commandId: sent.json().commandId, action: 'unlock' });
      expect(commands).toHaveLength(1);
      const audited = await t.app.db
        .selectFrom('audit_log')
        .select(['action', 'entity_id'])
        .where('portal_id', '=', a.portalId)
        .where('action', '=', 'device.command.unlock')
        .execute();
      expect(audited).toEqual([{ action: 'device.command.unlock', entity_id: device._id }]);
    } finally {
      await client.endAsync(true);
    }
  });
});

describe('the REST routes under device/ stay theirs', () => {
  it('device/{id}/invite, device/{id}/sync and device/codelock/add answer as before', async () => {
    const { a } = portals;
    const invites = await t.request({
      method: 'GET',
      url: `/api3/device/${a.deviceId}/invite`,
      token: a.admin,
    });
    expect(invites.statusCode, invites.body).toBe(200);
    const sync = await t.request({ method: 'GET', url: `/api3/device/${a.deviceId}/sync`, token: a.admin });
    expect(sync.statusCode, sync.body).toBe(200);
    // The collection's own method answers the same state.
    const viaCollection = await t.request({
      method: 'POST',
      url: `/api3/device/sync/${a.deviceId}`,
      token: a.admin,
      payload: {},
    });
    expect(viaCollection.statusCode, viaCollection.body).toBe(200);
    expect(viaCollection.json().deviceId).toBe(a.deviceId);
    expect(viaCollection.json().desiredVersion).toBe(sync.json().desiredVersion);
    const codeLock = await t.request({
      method: 'POST',
      url: '/api3/device/codelock/add',
      token: a.admin,
      payload: { name: 'Shed', code: '482913' },
    });
    expect(codeLock.statusCode, codeLock.body).toBe(201);
  });

  it('only POST takes ls: GET device/ls looks for a lock of that id, and finds none', async () => {
    const response = await t.request({ method: 'GET', url: '/api3/device/ls', token: portals.a.admin });
    expect(response.statusCode).toBe(404);
  });
});

describe('the API document', () => {
  it('lists every operation of every collection, with its summary and schemas', async () => {
    const document = (await t.request({ method: 'GET', url: '/api3/openapi.json' })).json() as {
      paths: Record<string, Record<string, { summary?: string; requestBody?: unknown; responses: object }>>;
    };
    for (const collection of COLLECTIONS) {
      for (const operation of collectionOperations(collection)) {
        const [method, path] =
          operation === 'get'
            ? ['get', `/api3/${collection.name}/{id}`]
            : operation === 'list'
              ? ['post', `/api3/${collection.name}`]
              : operation === 'ls'
                ? ['post', `/api3/${collection.name}/ls`]
                : operation === 'create'
                  ? ['post', `/api3/${collection.name}/new`]
                  : operation === 'save'
                    ? ['post', `/api3/${collection.name}/{id}`]
                    : operation === 'remove'
                      ? ['delete', `/api3/${collection.name}/{id}`]
                      : ['post', `/api3/${collection.name}/${operation.slice('method:'.length)}/{id}`];
        const entry = document.paths[path]?.[method];
        expect(entry, `${method} ${path}`).toBeDefined();
        expect(entry!.summary, `${method} ${path}`).toBeTruthy();
        if (method === 'post') expect(entry!.requestBody, `${method} ${path}`).toBeDefined();
        expect(Object.keys(entry!.responses), `${method} ${path}`).toContain(
          operation === 'create'
            ? '201'
            : operation === 'remove'
              ? '204'
              : operation === 'method:unlock' || operation === 'method:lock'
                ? '202'
                : '200',
        );
      }
    }
  });
});
