import crypto from 'node:crypto';
import {
  liveAudienceRuleOf,
  livePortalMessageSchema,
  type LiveAudience,
  type LivePortalMessageType,
} from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LivePortalMessageBody } from '../src/features/live/live-hub';
import { LiveClient, listen } from './live-client';
import { makeTwoPortals, type Tenant, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

/**
 * Tenant isolation beyond the routes (each route's 401/403/other-portal walk is in its feature's
 * spec, test/specs, made by route-spec.ts from the route registry): the live channel, generated
 * from its message schema, between the two portals of one of everything (fixtures.ts).
 */

let t: TestApp;
let a: TwoPortals['a'];
let b: Tenant;

beforeAll(async () => {
  t = await TestApp.start();
  ({ a, b } = await makeTwoPortals(t, { rentals: false }));
});
afterAll(() => t.close());

/** What a live message is about: a lock and a person. */
interface LiveSubject {
  deviceId: string;
  userId: string;
}

/**
 * An example of each live portal message type, about the given lock and person: a new type does
 * not compile until it has one, and is then sent to everyone below.
 */
const exampleLiveMessages: {
  [T in LivePortalMessageType]: (about: LiveSubject) => Extract<LivePortalMessageBody, { type: T }>;
} = {
  notification: (about) => ({
    type: 'notification',
    notification: {
      _id: crypto.randomUUID(),
      at: new Date().toISOString(),
      kind: 'alert',
      title: 'Forced door',
      message: `Person ${about.userId} opened it at night`,
      deviceId: about.deviceId,
    },
  }),
  'device.status': (about) => ({
    type: 'device.status',
    device: {
      _id: about.deviceId,
      name: 'Front door',
      model: 'latchkey-sim',
      serial: 'SN-PRIVATE',
      timeZone: 'UTC',
      lowBatteryLevel: 20,
      battery: 15,
      online: true,
      lastSeenAt: new Date().toISOString(),
      lockState: 'locked',
      firmware: 'fw-private',
      createdAt: new Date().toISOString(),
    },
  }),
  'stay.changed': () => ({
    type: 'stay.changed',
    stay: {
      _id: crypto.randomUUID(),
      listingId: crypto.randomUUID(),
      state: 'approved',
      accessState: 'ready',
    },
  }),
  'device.event': (about) => ({
    type: 'device.event',
    event: {
      _id: crypto.randomUUID(),
      eventId: crypto.randomUUID(),
      device: { _id: about.deviceId, name: 'Front door' },
      type: 'denied',
      method: 'code',
      user: { _id: about.userId, name: 'Somebody' },
      credentialId: null,
      reason: 'outside_schedule',
      occurredAt: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
    },
  }),
};

/**
 * The live channel, generated from its message schema: every portal message type, about someone
 * else and about the basic user, reaches the portal's admins whole, the basic user only when its
 * audience (LIVE_AUDIENCES) includes them, and another portal's admin never.
 */
describe('live channel', () => {
  const types = livePortalMessageSchema.options.map((option) => option.shape.type.value);
  const sockets: LiveClient[] = [];
  let url: string;
  let adminA: LiveClient;
  let userA: LiveClient;
  let adminB: LiveClient;
  /** A lock of portal A that its basic user does not reach. */
  let unreachedDeviceId: string;

  const join = async (token: string, portalId: string) => {
    const client = await LiveClient.open(url);
    sockets.push(client);
    await client.join(token, portalId);
    return client;
  };
  /** Their own lock event: the last message of a round, which every socket of portal A receives. */
  const markerFor = (tenant: Tenant) =>
    exampleLiveMessages['device.event']({ deviceId: tenant.deviceId, userId: tenant.userId });
  const waitForMarker = (client: LiveClient, marker: ReturnType<typeof markerFor>, from: number) =>
    client.waitFor((m) => m.type === 'device.event' && m.event._id === marker.event._id, 'the marker', {
      from,
    });

  beforeAll(async () => {
    url = await listen(t);
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: a.admin,
      payload: { name: 'Server room', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    unreachedDeviceId = lock.json().device._id;
    adminA = await join(a.admin, a.portalId);
    userA = await join(a.user, a.portalId);
    adminB = await join(b.admin, b.portalId);
  });
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  it('has an audience and an example for every portal message type', () => {
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) {
      expect(liveAudienceRuleOf(type), type).not.toBeNull();
      expect(Object.keys(exampleLiveMessages), type).toContain(type);
    }
  });

  it("refuses another portal's admin a subscription to the portal", async () => {
    const client = await LiveClient.open(url);
    sockets.push(client);
    client.send({ type: 'auth', token: b.admin });
    await client.next('ready');
    await expect(client.subscribe(a.portalId)).rejects.toThrow('You may not act in that portal');
  });

  it('sends a basic user only what concerns them, and another portal nothing, for every message type', async () => {
    const kinds = new Set<LiveAudience['kind']>();
    for (const type of types) {
      const example = exampleLiveMessages[type] as (about: LiveSubject) => LivePortalMessageBody;
      const aboutOthers = example({ deviceId: unreachedDeviceId, userId: crypto.randomUUID() });
      const aboutUser = example({ deviceId: a.deviceId, userId: a.userId });
      const marker = markerFor(a);
      const foreignMarker = markerFor(b);
      const from = {
        admin: adminA.messages.length,
        user: userA.messages.length,
        foreign: adminB.messages.length,
      };
      for (const message of [aboutOthers, aboutUser, marker]) await t.app.live.publish(a.portalId, message);
      await t.app.live.publish(b.portalId, foreignMarker);
      // Each socket gets its messages in publishing order: once the marker is in, the round is.
      await waitForMarker(adminA, marker, from.admin);
      await waitForMarker(userA, marker, from.user);
      await waitForMarker(adminB, foreignMarker, from.foreign);

      const inPortalA = (message: LivePortalMessageBody) =>
        livePortalMessageSchema.parse({ ...message, portalId: a.portalId });
      const rule = liveAudienceRuleOf(type)!;
      const audience = rule.audience(inPortalA(aboutUser));
      kinds.add(audience.kind);
      const forUser =
        audience.kind === 'admins'
          ? []
          : [rule.memberView ? rule.memberView(inPortalA(aboutUser)) : inPortalA(aboutUser)];
      expect(adminA.portalMessages(from.admin), type).toEqual(
        [aboutOthers, aboutUser, marker].map(inPortalA),
      );
      expect(userA.portalMessages(from.user), type).toEqual([...forUser, inPortalA(marker)]);
      expect(adminB.portalMessages(from.foreign), type).toEqual([
        livePortalMessageSchema.parse({ ...foreignMarker, portalId: b.portalId }),
      ]);
    }
    // The hub's filter was exercised for each kind of audience.
    expect([...kinds].sort()).toEqual(['admins', 'lockMembers', 'person']);
  });
});
