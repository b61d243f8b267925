import { SimulatedLock, SimulatedReader } from '@latchkey/locksim';
import { deviceTopic, readerTopic, type Enrollment } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * Enrollment readers end to end (issue 21, item 5): a real SimulatedReader (packages/locksim) logs
 * in to the server's embedded broker; an admin pairs it, asks it for a card or a finger through the
 * API and reads the answer the reader published.
 */

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signUp']>>;
let memberId: string;
let other: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.signUp();
  const member = await t.signUp();
  await t.addMember(admin.portalId, member.userId, 'user');
  memberId = member.userId;
  other = await t.signUp();
});
afterAll(() => t.close());

async function pair(token: string, kind: 'rfid' | 'fingerprint' | 'both' = 'both', name = 'Front desk') {
  const response = await t.request({
    method: 'POST',
    url: '/api3/portal/reader',
    token,
    payload: { name, kind },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { reader: { _id: string }; secret: string; brokerUrl: string };
}

async function connect(
  paired: { reader: { _id: string }; secret: string },
  kind: 'rfid' | 'fingerprint' | 'both' = 'both',
) {
  const reader = new SimulatedReader({
    url: t.app.deviceLink.transport.url,
    readerId: paired.reader._id,
    secret: paired.secret,
    kind,
    heartbeatSeconds: 0,
    reconnectPeriodMs: 0,
  });
  await reader.start();
  onTestFinished(() => reader.goOffline('drop'));
  await waitFor(async () => {
    const answer = await t.request({
      method: 'GET',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: admin.token,
    });
    return answer.statusCode === 200 && answer.json().online === true;
  }, 'the reader online');
  return reader;
}

function enroll(readerId: string, kind: 'rfid' | 'fingerprint', token = admin.token, userId = memberId) {
  return t.request({
    method: 'POST',
    url: `/api3/portal/reader/${readerId}/enroll`,
    token,
    payload: { kind, userId },
  });
}

function enrollment(id: string, token = admin.token) {
  return t.request({ method: 'GET', url: `/api3/portal/reader-enrollment/${id}`, token });
}

describe('pairing', () => {
  it('answers the secret once, stores it hashed, and audits the pairing', async () => {
    const paired = await pair(admin.token);
    expect(paired.secret.length).toBeGreaterThanOrEqual(40);
    expect(paired.brokerUrl).toMatch(/^mqtt:\/\//);
    const row = await t.app.db
      .selectFrom('readers')
      .selectAll()
      .where('id', '=', paired.reader._id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(paired.secret);
    expect(row.secret_hash).toMatch(/^sha256:/);
    const read = await t.request({
      method: 'GET',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: admin.token,
    });
    expect(read.body).not.toContain(paired.secret);
    expect(read.json()).toMatchObject({ online: false, lastSeenAt: null, kind: 'both' });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'portal_id'])
      .where('entity_id', '=', paired.reader._id)
      .execute();
    expect(audit).toEqual([{ action: 'reader.pair', portal_id: admin.portalId }]);
  });

  it('shows the reader online while connected and offline once its last will arrives', async () => {
    const paired = await pair(admin.token);
    const reader = await connect(paired);
    await reader.goOffline('drop');
    await waitFor(async () => {
      const answer = await t.request({
        method: 'GET',
        url: `/api3/portal/reader/${paired.reader._id}`,
        token: admin.token,
      });
      return answer.json().online === false;
    }, 'the reader offline');
  });

  it('refuses a wrong secret and a deleted reader', async () => {
    const paired = await pair(admin.token);
    const wrong = new SimulatedReader({
      url: t.app.deviceLink.transport.url,
      readerId: paired.reader._id,
      secret: 'not-the-secret',
      reconnectPeriodMs: 0,
    });
    await expect(wrong.start()).rejects.toThrow();
    await wrong.goOffline('drop');
    const reader = await connect(paired);
    const removed = await t.request({
      method: 'DELETE',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: admin.token,
    });
    expect(removed.statusCode).toBe(204);
    await waitFor(() => !reader.online, 'the deleted reader disconnected');
    const again = new SimulatedReader({
      url: t.app.deviceLink.transport.url,
      readerId: paired.reader._id,
      secret: paired.secret,
      reconnectPeriodMs: 0,
    });
    await expect(again.start()).rejects.toThrow();
    await again.goOffline('drop');
  });

  it('renames a reader, and another portal sees none of it', async () => {
    const paired = await pair(admin.token);
    const renamed = await t.request({
      method: 'POST',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: admin.token,
      payload: { name: 'Reception', kind: 'rfid' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Reception', kind: 'rfid' });
    const foreign = await t.request({
      method: 'GET',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: other.token,
    });
    expect(foreign.statusCode).toBe(404);
    const foreignRename = await t.request({
      method: 'POST',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: other.token,
      payload: { name: 'Taken' },
    });
    expect(foreignRename.statusCode).toBe(404);
    const list = await t.request({ method: 'GET', url: '/api3/portal/readers', token: other.token });
    expect(list.json().items).toEqual([]);
    const bad = await t.request({
      method: 'POST',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: admin.token,
      payload: { name: '' },
    });
    expect(bad.statusCode).toBe(400);
    const unchanged = await t.request({
      method: 'GET',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: admin.token,
    });
    expect(unchanged.json().name).toBe('Reception');
  });
});

describe('the broker ACL', () => {
  it('lets a reader publish only on its own reader topics', async () => {
    const paired = await pair(admin.token);
    const neighbour = await pair(admin.token, 'both', 'Back office');
    const reader = await connect(paired);
    const lockCreated = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    const deviceId: string = lockCreated.json().device._id;
    // A lock's topics: refused (the broker ends a connection whose publish it refuses, MQTT 3.1.1).
    expect(await reader.publishRaw(deviceTopic(deviceId, 'status'), JSON.stringify({ online: false }))).toBe(
      false,
    );
    const lock = await t.app.db
      .selectFrom('devices')
      .select('online')
      .where('id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(Number(lock.online)).toBe(0);

    // Another reader's topics: refused too, and its status is untouched.
    const again = await connect(paired);
    const delivered = await again.publishRaw(
      readerTopic(neighbour.reader._id, 'status'),
      JSON.stringify({ online: true, firmware: 'x', ts: new Date().toISOString() }),
    );
    expect(delivered).toBe(false);
    const neighbourRow = await t.request({
      method: 'GET',
      url: `/api3/portal/reader/${neighbour.reader._id}`,
      token: admin.token,
    });
    expect(neighbourRow.json().online).toBe(false);
    await reader.goOffline('drop');
  });

  it('does not let a lock publish on a reader topic', async () => {
    const paired = await pair(admin.token);
    const created = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Side door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    const lock = new SimulatedLock({
      url: t.app.deviceLink.transport.url,
      deviceId: created.json().device._id,
      secret: created.json().deviceSecret,
      heartbeatSeconds: 0,
      reconnectPeriodMs: 0,
    });
    await lock.start();
    onTestFinished(() => lock.goOffline('drop'));
    const client = (lock as unknown as { client: import('mqtt').MqttClient }).client;
    const closed = new Promise((resolve) => client.once('close', () => resolve(undefined)));
    void client
      .publishAsync(
        readerTopic(paired.reader._id, 'status'),
        JSON.stringify({ online: true, firmware: 'x', ts: new Date().toISOString() }),
        { qos: 1 },
      )
      .catch(() => undefined);
    await closed;
    const row = await t.request({
      method: 'GET',
      url: `/api3/portal/reader/${paired.reader._id}`,
      token: admin.token,
    });
    expect(row.json().online).toBe(false);
  });
});

describe('enrollment', () => {
  it('fills a card UID from the reader and the admin saves the card', async () => {
    const paired = await pair(admin.token);
    const reader = await connect(paired);
    const started = await enroll(paired.reader._id, 'rfid');
    expect(started.statusCode).toBe(201);
    const waiting = started.json() as Enrollment;
    expect(waiting).toMatchObject({ state: 'waiting', kind: 'rfid', userId: memberId, value: null });
    await waitFor(() => reader.pending?.requestId === waiting._id, 'the request at the reader');
    expect((await reader.tap('04 a2 3b 1c')).answered).toBe(true);
    const read = await waitFor(async () => {
      const answer = (await enrollment(waiting._id)).json() as Enrollment;
      return answer.state === 'read' ? answer : undefined;
    }, 'the card read');
    expect(read.value).toBe('04A23B1C');
    // The admin saves as today, with the UID the reader gave.
    const card = await t.request({
      method: 'POST',
      url: '/api3/portal/rfid',
      token: admin.token,
      payload: { uid: read.value, userId: memberId },
    });
    expect(card.statusCode).toBe(201);
    // A second answer to the same request changes nothing.
    await reader.sendResult({ requestId: waiting._id, ok: true, kind: 'rfid', value: 'FFFFFFFF' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await enrollment(waiting._id)).json().value).toBe('04A23B1C');
    const actions = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', paired.reader._id)
      .where('action', '=', 'reader.enroll')
      .execute();
    expect(actions).toHaveLength(1);
  });

  it('fills a fingerprint template id', async () => {
    const paired = await pair(admin.token, 'fingerprint');
    const reader = await connect(paired, 'fingerprint');
    const waiting = (await enroll(paired.reader._id, 'fingerprint')).json() as Enrollment;
    await waitFor(() => reader.pending?.requestId === waiting._id, 'the request at the reader');
    await reader.finger('slot-17');
    const read = await waitFor(async () => {
      const answer = (await enrollment(waiting._id)).json() as Enrollment;
      return answer.state === 'read' ? answer : undefined;
    }, 'the finger read');
    expect(read).toMatchObject({ kind: 'fingerprint', value: 'slot-17' });
  });

  it('refuses what the reader cannot read, an offline reader, a foreign person', async () => {
    const paired = await pair(admin.token, 'fingerprint');
    const wrongKind = await enroll(paired.reader._id, 'rfid');
    expect(wrongKind.statusCode).toBe(400);
    const offline = await enroll(paired.reader._id, 'fingerprint');
    expect(offline.statusCode).toBe(409);
    await connect(paired, 'fingerprint');
    const foreignPerson = await t.signUp();
    const stranger = await enroll(paired.reader._id, 'fingerprint', admin.token, foreignPerson.userId);
    expect(stranger.statusCode).toBe(404);
    const count = await t.app.db
      .selectFrom('reader_enrollments')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('reader_id', '=', paired.reader._id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('ignores an answer after the expiry, to an unknown request, or from another reader', async () => {
    const paired = await pair(admin.token);
    const reader = await connect(paired);
    const intruderPaired = await pair(admin.token, 'both', 'Intruder');
    const intruder = await connect(intruderPaired);

    const first = (await enroll(paired.reader._id, 'rfid')).json() as Enrollment;
    await waitFor(() => reader.pending?.requestId === first._id, 'the request at the reader');
    // Another reader (even of the same portal) cannot answer this reader's request.
    await intruder.sendResult({ requestId: first._id, ok: true, kind: 'rfid', value: 'DEADBEEF' });
    // An answer to a request nobody made is ignored.
    await reader.sendResult({ requestId: crypto.randomUUID(), ok: true, kind: 'rfid', value: 'CAFEBABE' });
    // The wrong kind for the request is ignored too.
    await reader.sendResult({ requestId: first._id, ok: true, kind: 'fingerprint', value: '12' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await enrollment(first._id)).json()).toMatchObject({ state: 'waiting', value: null });

    // Past its expiry the request reads as expired and a late answer is ignored.
    await t.app.db
      .updateTable('reader_enrollments')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', first._id)
      .execute();
    expect((await enrollment(first._id)).json().state).toBe('expired');
    await reader.sendResult({ requestId: first._id, ok: true, kind: 'rfid', value: '04A23B1C' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await enrollment(first._id)).json()).toMatchObject({ state: 'expired', value: null });
  });

  it('cancels: the reader stops waiting, and a later tap answers nothing', async () => {
    const paired = await pair(admin.token);
    const reader = await connect(paired);
    const waiting = (await enroll(paired.reader._id, 'rfid')).json() as Enrollment;
    await waitFor(() => reader.pending?.requestId === waiting._id, 'the request at the reader');
    const cancelled = await t.request({
      method: 'POST',
      url: `/api3/portal/reader-enrollment/${waiting._id}/cancel`,
      token: admin.token,
    });
    expect(cancelled.json().state).toBe('cancelled');
    await waitFor(() => reader.pending === null, 'the reader stopped waiting');
    expect((await reader.tap('04A23B1C')).answered).toBe(false);
  });

  it("keeps another portal's admin away from the enrollment and the reader", async () => {
    const paired = await pair(admin.token);
    await connect(paired);
    const waiting = (await enroll(paired.reader._id, 'rfid')).json() as Enrollment;
    expect((await enrollment(waiting._id, other.token)).statusCode).toBe(404);
    const cancel = await t.request({
      method: 'POST',
      url: `/api3/portal/reader-enrollment/${waiting._id}/cancel`,
      token: other.token,
    });
    expect(cancel.statusCode).toBe(404);
    const foreignEnroll = await t.request({
      method: 'POST',
      url: `/api3/portal/reader/${paired.reader._id}/enroll`,
      token: other.token,
      payload: { kind: 'rfid', userId: other.userId },
    });
    expect(foreignEnroll.statusCode).toBe(404);
    const list = await t.request({
      method: 'GET',
      url: '/api3/portal/reader-enrollments',
      token: other.token,
    });
    expect(list.json().items).toEqual([]);
    expect((await enrollment(waiting._id)).json().state).toBe('waiting');
  });
});
