import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMember } from './factories';
import { makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

// The reader collections (features/collections on features/readers): peripheral pairs, renames and
// unpairs readers (secret once, audited); rfidPeriph and fingerPrintPeriph each show only their
// kind; userPeriph lists one person's enrollments. Who may call them is in
// collections-isolation.test.ts, their ls in collections-changes.test.ts.
let t: TestApp;
let portals: TwoPortals;

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t, { rentals: false });
});
afterAll(() => t.close());

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) {
  return t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });
}

async function online(readerId: string) {
  await t.app.readers.handle({
    readerId,
    topic: 'status',
    payload: Buffer.from(JSON.stringify({ online: true, firmware: 'test', ts: new Date().toISOString() })),
  });
}

describe('peripheral', () => {
  it('pairs a reader with its secret once, renames and unpairs it, each audited', async () => {
    const { admin, portalId } = portals.a;
    const paired = await call('POST', 'peripheral/new', admin, { name: 'Lobby desk', kind: 'rfid' });
    expect(paired.statusCode, paired.body).toBe(201);
    const { reader, secret } = paired.json();
    expect(secret).toEqual(expect.any(String));
    expect(await t.app.readers.authenticate(reader._id, secret)).toBe(true);
    const read = await call('GET', `peripheral/${reader._id}`, admin);
    expect(read.json()).toMatchObject({ _id: reader._id, name: 'Lobby desk', kind: 'rfid', online: false });
    expect(read.body).not.toContain(secret);
    const list = (await call('POST', 'peripheral', admin, {})).json();
    expect(list.items.map((r: { _id: string }) => r._id)).toContain(reader._id);
    expect(list.total).toBe(list.items.length);

    const bad = await call('POST', `peripheral/${reader._id}`, admin, { name: '' });
    expect(bad.statusCode).toBe(400);
    const renamed = await call('POST', `peripheral/${reader._id}`, admin, { name: 'Back desk' });
    expect(renamed.json()).toMatchObject({ name: 'Back desk', kind: 'rfid' });

    expect((await call('DELETE', `peripheral/${reader._id}`, admin)).statusCode).toBe(204);
    expect((await call('GET', `peripheral/${reader._id}`, admin)).statusCode).toBe(404);
    expect(await t.app.readers.authenticate(reader._id, secret)).toBe(false);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'portal_id'])
      .where('entity_id', '=', reader._id)
      .orderBy('created_at')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['reader.pair', 'reader.update', 'reader.delete']);
    expect(audit.every((row) => row.portal_id === portalId)).toBe(true);
  });
});

describe('rfidPeriph, fingerPrintPeriph and userPeriph', () => {
  it('start, show and cancel enrollments of their own kind, and list one person’s', async () => {
    const { admin, readerId, portalId } = portals.a;
    const other = await makeMember(t, portalId);
    await online(readerId);
    const card = (await call('POST', 'rfidPeriph/new', admin, { readerId, userId: other.userId })).json();
    expect(card).toMatchObject({ kind: 'rfid', state: 'waiting', userId: other.userId });
    const finger = await call('POST', 'fingerPrintPeriph/new', admin, { readerId, userId: other.userId });
    expect(finger.statusCode, finger.body).toBe(201);
    expect(finger.json()).toMatchObject({ kind: 'fingerprint', state: 'waiting' });
    const fingerId = finger.json()._id as string;

    // A read answers any enrollment (its kind says which); one collection never cancels nor lists the other's.
    expect((await call('GET', `fingerPrintPeriph/${card._id}`, admin)).json()).toMatchObject({
      kind: 'rfid',
    });
    expect((await call('POST', `rfidPeriph/cancel/${fingerId}`, admin, {})).statusCode).toBe(404);
    expect((await call('GET', `rfidPeriph/${fingerId}`, admin)).json()).toMatchObject({ state: 'waiting' });
    const cards = (await call('POST', 'rfidPeriph', admin, { userId: other.userId })).json();
    expect(cards.items.map((e: { _id: string }) => e._id)).toEqual([card._id]);

    // userPeriph: both, for this person only.
    const mine = (await call('POST', 'userPeriph', admin, { userId: other.userId })).json();
    expect(mine.items.map((e: { _id: string }) => e._id).sort()).toEqual([card._id, fingerId].sort());
    const theirFingers = (
      await call('POST', 'userPeriph', admin, { userId: other.userId, kind: 'fingerprint' })
    ).json();
    expect(theirFingers.items.map((e: { _id: string }) => e._id)).toEqual([fingerId]);
    expect((await call('GET', `userPeriph/${fingerId}`, admin)).json()).toMatchObject({
      kind: 'fingerprint',
    });
    const fixtureOnes = (await call('POST', 'userPeriph', admin, { userId: portals.a.userId })).json();
    expect(fixtureOnes.items.map((e: { _id: string }) => e._id)).not.toContain(card._id);

    const cancelled = await call('POST', `fingerPrintPeriph/cancel/${fingerId}`, admin, {});
    expect(cancelled.json()).toMatchObject({ _id: fingerId, state: 'cancelled' });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', readerId)
      .where('user_id', '=', other.userId)
      .execute();
    expect(audit.map((row) => row.action).sort()).toEqual(
      ['reader.enroll', 'reader.enroll', 'reader.enroll.cancel'].sort(),
    );

    // Bad input changes nothing: a reader of another portal, an unknown person, extra fields.
    const count = async () =>
      (await call('POST', 'userPeriph', admin, { userId: other.userId })).json().items.length as number;
    expect(
      (await call('POST', 'rfidPeriph/new', admin, { readerId: portals.b.readerId, userId: other.userId }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('POST', 'rfidPeriph/new', admin, { readerId, userId: portals.b.userId })).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', 'rfidPeriph/new', admin, { readerId, userId: other.userId, kind: 'fingerprint' }))
        .statusCode,
    ).toBe(400);
    expect(await count()).toBe(2);
  });
});
