import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  addDaysToDate,
  localWallTime,
  zonedInstant,
  type CredentialSet,
  type DeviceSync,
} from '@latchkey/shared';
import { HttpRegistrar, ZWaveBridge, type LockLink } from 'latchkey-zwave';
import { startSimulatedNetwork, type SimulatedNetwork } from 'latchkey-zwave/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addListing, dayIn, desiredSet, rentalPortal, requestStay } from './rental-helpers';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * The Z-Wave bridge end to end: zwave-js's real driver on a mock serial port with mock lock nodes
 * (User Code, User Credential, Door Lock, Battery, Notification, Schedule Entry Lock behaviours of
 * @zwave-js/testing),
 * the bridge in between, and the real server with its embedded broker. Nothing leaves loopback:
 * zwave-js's mock-server binary (mDNS) is never started.
 */

describe('the Z-Wave bridge against the simulator and the real server', () => {
  let t: TestApp;
  let network: SimulatedNetwork;
  let bridge: ZWaveBridge;
  let dataDir: string;
  let admin: { token: string; portalId: string };
  let member: { userId: string; firstName: string };
  /** The bridge's clock runs this far ahead of the real one (a stay's window crossed at will). */
  let clockOffsetMs = 0;
  const logs: string[] = [];
  const deviceOfNode = new Map<number, string>();

  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url, token: admin.token, ...(payload && { payload }) });

  async function sync(deviceId: string): Promise<DeviceSync> {
    const response = await request('GET', `/api3/device/${deviceId}/sync`);
    expect(response.statusCode).toBe(200);
    return response.json<DeviceSync>();
  }

  async function device(deviceId: string) {
    const response = await request('GET', `/api3/portal/device/${deviceId}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  const link = (nodeId: number): LockLink => bridge.link(nodeId)!;

  /** Waits until the lock acknowledged the server's newest set for it. */
  async function confirmed(nodeId: number) {
    await t.app.deviceLink.flushScheduledSyncs();
    const deviceId = deviceOfNode.get(nodeId)!;
    return waitFor(async () => {
      const s = await sync(deviceId);
      return s.desiredVersion !== null && s.confirmedVersion === s.desiredVersion && s;
    }, `node ${nodeId} to confirm its set`);
  }

  /** A portal API key with the devices scope, as an admin makes one in Settings → API keys. */
  async function apiKey(adminToken: string): Promise<string> {
    const response = await t.request({
      method: 'POST',
      url: '/api3/portal/apikeys',
      token: adminToken,
      payload: { name: 'Z-Wave bridge', scopes: ['devices:write'] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const secret = response.json().secret as string;
    expect(secret).toMatch(/^lk_live_/);
    return secret;
  }

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // On the Business plan, so the stay scenario can list the lock (rentals are a Business feature).
    const signedUp = await rentalPortal(t);
    admin = { token: signedUp.token, portalId: signedUp.portalId };
    const person = await t.signUp({ firstName: 'Marta', lastName: 'Keypad' });
    await t.addMember(admin.portalId, person.userId, 'user');
    member = { userId: person.userId, firstName: 'Marta' };

    network = await startSimulatedNetwork([
      { nodeId: 2, userCodes: 30, battery: 81, firmware: '3.4' },
      { nodeId: 3, userCodes: 10, scheduleEntryLock: false },
      { nodeId: 4, userCodes: 10, masksCodes: true },
      // A lock with the User Credential CC: cards as well as codes.
      { nodeId: 5, userCodes: 10, scheduleEntryLock: false, userCredential: { rfidSlots: 5 } },
    ]);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-zwave-'));
    bridge = new ZWaveBridge({
      driver: network.driver,
      dataDir,
      mqttUrl: t.app.deviceLink.transport.url,
      // What an operator gives the bridge: a portal API key with the devices scope.
      registrar: new HttpRegistrar(serverUrl, await apiKey(admin.token), 'Europe/Berlin'),
      link: {
        now: () => new Date(Date.now() + clockOffsetMs),
        tickMs: 250,
        retryDelayMs: 50,
        pingMs: 500,
        echoMs: 1000,
      },
    });
    bridge.on('log', (message) => logs.push(message));
    bridge.on('lock', (l, nodeId) => deviceOfNode.set(nodeId, l.deviceId));
    bridge.start();
    await waitFor(() => deviceOfNode.size === 4, 'the four lock nodes to be registered', 150_000);
  }, 180_000);

  afterAll(async () => {
    await bridge?.stop();
    await network?.destroy();
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers each lock node as a Z-Wave device, keeps its secret in the data folder and shows it online', async () => {
    const deviceId = deviceOfNode.get(2)!;
    const shown = await waitFor(async () => {
      const d = await device(deviceId);
      return d.online === true && d.battery === 81 && d;
    }, 'the lock online with its battery');
    expect(shown).toMatchObject({ model: 'zwave-lock', serial: 'zwave-7e570001-2', online: true });
    expect(shown.firmware).toMatch(/^3\.4 \(Z-Wave node 2, bridge /);
    // The node's own slots, as the bridge read them from it, not the zwave-lock model's 250.
    expect(shown.capabilities).toEqual({
      codeSlots: 30,
      codeLength: { min: 4, max: 10 },
      kinds: ['code', 'remote'],
    });
    expect((await device(deviceOfNode.get(3)!)).capabilities?.codeSlots).toBe(10);
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'bridge.json'), 'utf8'));
    expect(stored.devices['7e570001:2'].deviceId).toBe(deviceId);
    expect(fs.statSync(path.join(dataDir, 'bridge.json')).mode & 0o077).toBe(0);
  });

  it("puts a person's code in a slot of the lock and the portal shows it confirmed", async () => {
    const lockA = deviceOfNode.get(2)!;
    expect((await request('PUT', `/api3/user/${member.userId}/device/${lockA}`)).statusCode).toBeLessThan(
      300,
    );
    const code = await request('POST', '/api3/user/accessCode', { userId: member.userId, code: '481516' });
    expect(code.statusCode, code.body).toBe(200);
    const s = await confirmed(2);
    const entry = s.credentials.find((c) => c.kind === 'code' && c.userId === member.userId);
    expect(entry).toMatchObject({ state: 'confirmed' });
    const slots = network.lock(2).slots();
    expect([...slots.values()]).toEqual(['481516']);
    // The other lock has no grant for her: its slots stay empty.
    await confirmed(3);
    expect(network.lock(3).slots().size).toBe(0);
  });

  it("names the person in the portal's history when she opens with her code at the keypad", async () => {
    const lockA = deviceOfNode.get(2)!;
    const [slot] = [...network.lock(2).slots().keys()];
    await network.lock(2).keypadUnlock(slot!);
    const item = await waitFor(async () => {
      const logsResponse = await request('GET', '/api3/portal/device/logs');
      return (
        logsResponse.json().items as {
          device?: { _id: string };
          user?: { _id: string };
          type: string;
          method: string;
        }[]
      ).find((i) => i.type === 'unlock' && i.method === 'code' && i.user?._id === member.userId);
    }, 'the keypad unlock in the history');
    expect(item).toBeDefined();
    void lockA;
  });

  it('unlocks through the Door Lock CC on a remote command and shows the answer', async () => {
    const lockA = deviceOfNode.get(2)!;
    await network.lock(2).reportLockMode(0xff);
    const sent = await request('POST', `/api3/device/${lockA}/command`, { action: 'unlock' });
    expect(sent.statusCode, sent.body).toBe(202);
    const commandId = sent.json()._id ?? sent.json().commandId;
    const answered = await waitFor(async () => {
      const c = (await request('GET', `/api3/device/${lockA}/command/${commandId}`)).json();
      return c.status !== 'pending' && c;
    }, 'the command answer');
    expect(answered.status).toBe('ok');
    expect(network.lock(2).doorLockMode).toBe(0x00);
  });

  it('reports a code changed at the lock and restores what the portal says', async () => {
    const [slot] = [...network.lock(2).slots().keys()];
    await network.lock(2).setCodeAtLock(slot!, '999999');
    await waitFor(() => network.lock(2).slot(slot!) === '481516', 'the code restored');
    const lockA = deviceOfNode.get(2)!;
    const rows = await waitFor(async () => {
      const found = await t.app.db
        .selectFrom('device_events')
        .select(['type', 'method'])
        .where('device_id', '=', lockA)
        .where('type', '=', 'tamper')
        .execute();
      return found.length > 0 && found;
    }, 'the change reported');
    expect(rows[0]).toMatchObject({ type: 'tamper', method: 'code' });
  });

  it('writes a code once to a lock that masks codes, and restores it when it is changed at the lock', async () => {
    const lockC = deviceOfNode.get(4)!;
    const masked = network.lock(4);
    masked.resetUserCodeWrites();
    expect((await request('PUT', `/api3/user/${member.userId}/device/${lockC}`)).statusCode).toBeLessThan(
      300,
    );
    const s = await confirmed(4);
    expect(s.credentials.find((c) => c.kind === 'code')).toMatchObject({ state: 'confirmed' });
    const [slot] = [...masked.slots().keys()];
    expect(masked.slot(slot!)).toBe('481516');
    // The lock answers "******": the bridge takes its own write as confirmed and does not write again.
    const userCodeSets = () => masked.userCodeWrites();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await link(4).idle();
    expect(userCodeSets()).toBe(1);
    // A code changed at the keypad is reported by the lock; the bridge restores the portal's.
    await masked.setCodeAtLock(slot!, '135790');
    await waitFor(() => masked.slot(slot!) === '481516', 'the masked code restored');
    // Restored once: the slot emptied (remove before add), then the portal's code written.
    expect(userCodeSets()).toBe(3);
  });

  it('puts a card on a lock with the User Credential CC, rejects it on a lock without, and empties its slot when it is revoked', async () => {
    const lockD = deviceOfNode.get(5)!;
    const withCards = network.lock(5);
    // The lock reports its RFID slots: the portal knows it takes cards.
    expect(
      await waitFor(async () => (await device(lockD)).capabilities, 'the capabilities of the card lock'),
    ).toEqual({ codeSlots: 10, codeLength: { min: 4, max: 10 }, kinds: ['code', 'rfid', 'remote'] });
    expect((await request('PUT', `/api3/user/${member.userId}/device/${lockD}`)).statusCode).toBeLessThan(
      300,
    );
    // The admin registers her card as a reader prints it, with separators.
    const card = await request('POST', '/api3/portal/rfid', { uid: '04:a2:3b:1c', userId: member.userId });
    expect(card.statusCode, card.body).toBe(201);
    const cardId = card.json()._id as string;

    const d = await confirmed(5);
    expect(d.credentials.find((c) => c.credentialId === cardId)).toMatchObject({
      kind: 'rfid',
      state: 'confirmed',
    });
    // The card is in an RFID slot, its UID's bytes, for a user of its own past the ten code slots;
    // her code is a PIN code credential in the first code slot.
    const cards = [...withCards.rfidCredentials()];
    expect(cards).toEqual([[1, { userId: 11, uid: '04A23B1C' }]]);
    expect(withCards.slot(1)).toBe('481516');

    // The lock without the CC answers the same card unsupported_kind, on the sync screen.
    const a = await confirmed(2);
    expect(a.credentials.find((c) => c.credentialId === cardId)).toMatchObject({
      state: 'rejected',
      reason: 'unsupported_kind',
    });
    expect(a.rejected).toEqual([
      expect.objectContaining({ credentialId: cardId, reason: 'unsupported_kind' }),
    ]);

    // She holds the card to the reader: the history names her, by her card.
    await withCards.keypadUnlock(11);
    await waitFor(async () => {
      const logsResponse = await request('GET', '/api3/portal/device/logs');
      return (
        logsResponse.json().items as { device?: { _id: string }; user?: { _id: string }; method: string }[]
      ).find((i) => i.device?._id === lockD && i.method === 'rfid' && i.user?._id === member.userId);
    }, 'the card unlock in the history');

    // Revoked: the slot is emptied, and the lock without the CC has nothing left to reject.
    expect((await request('DELETE', `/api3/portal/rfid/${cardId}`)).statusCode).toBeLessThan(300);
    await confirmed(5);
    expect(withCards.rfidCredentials().size).toBe(0);
    expect(withCards.slot(1)).toBe('481516');
    expect((await confirmed(2)).rejected).toEqual([]);
  });

  it('reports a card changed or removed at the lock itself and puts the portal’s card back', async () => {
    const lockD = deviceOfNode.get(5)!;
    const withCards = network.lock(5);
    const card = await request('POST', '/api3/portal/rfid', { uid: '0A0B0C0D', userId: member.userId });
    expect(card.statusCode, card.body).toBe(201);
    const cardId = card.json()._id as string;
    await confirmed(5);
    expect([...withCards.rfidCredentials()]).toEqual([[1, { userId: 11, uid: '0A0B0C0D' }]]);
    const tampers = () =>
      t.app.db
        .selectFrom('device_events')
        .select(['type', 'method', 'credential_id'])
        .where('device_id', '=', lockD)
        .where('type', '=', 'tamper')
        .where('method', '=', 'rfid')
        .execute();

    // Someone enrols another card in her slot at the lock: reported as a change made outside
    // Latchkey, and her card written back.
    await withCards.setCardAtLock(1, 'DEADBEEF');
    await waitFor(() => withCards.rfidCredentials().get(1)?.uid === '0A0B0C0D', 'her card restored');
    expect(
      await waitFor(async () => (await tampers()).length === 1 && tampers(), 'the change reported'),
    ).toEqual([{ type: 'tamper', method: 'rfid', credential_id: cardId }]);

    // Her card removed at the lock, once the bridge is done with the first change: put back too.
    await link(5).idle();
    await withCards.setCardAtLock(1, undefined);
    await waitFor(() => withCards.rfidCredentials().get(1)?.uid === '0A0B0C0D', 'her card put back');
    await waitFor(async () => (await tampers()).length === 2, 'the removal reported');
    expect((await confirmed(5)).credentials.find((c) => c.credentialId === cardId)).toMatchObject({
      state: 'confirmed',
    });

    expect((await request('DELETE', `/api3/portal/rfid/${cardId}`)).statusCode).toBeLessThan(300);
    await confirmed(5);
    expect(withCards.rfidCredentials().size).toBe(0);
  });

  it('notices with the user-code checksum a code changed at the lock without a report, and restores it', async () => {
    const lockA = network.lock(2);
    const [slot] = [...lockA.slots().keys()];
    // Changed silently (no notification): only the checksum tells.
    lockA.node.state.set(`UserCode_userCode_${slot}`, '000000');
    // The node is seen again (as after a restart of the bridge or the node coming back): checked.
    link(2).checkDriftNow();
    await waitFor(() => lockA.slot(slot!) === '481516', 'the code restored after the checksum check');
  });

  it("keeps a stay's code in the slot only inside the stay on the lock's clock, and an extension applies at once", async () => {
    const lockA = deviceOfNode.get(2)!;
    const zone = 'Europe/Berlin';
    const listingId = await addListing(t, { token: admin.token, portalId: admin.portalId, userId: '' }, [
      lockA,
    ]);
    const start = dayIn(zone, 10);
    const end = addDaysToDate(start, 2);
    const requested = await requestStay(t, listingId, { startDate: start, endDate: end });
    expect(requested.statusCode, requested.body).toBe(201);
    const stayId = requested.json()._id as string;
    const approve = await request('POST', `/api3/device/${listingId}/request/${stayId}`, {
      action: 'approve',
    });
    expect(approve.statusCode, approve.body).toBe(200);
    const guestEntry = (set: CredentialSet | null) =>
      set?.entries.find((e) => e.holderType === 'guest' && e.kind === 'code');
    const entry = guestEntry(await desiredSet(t, lockA))!;
    expect(entry.validFrom).toBe(zonedInstant(start, '15:00', zone).toISOString());
    await confirmed(2);
    const slotOf = (code: string) => [...network.lock(2).slots()].find(([, c]) => c === code)?.[0];
    // Before check-in the slot is empty…
    expect(slotOf(entry.secret)).toBeUndefined();
    // …an hour after check-in (the bridge's clock moved) the code is in it…
    clockOffsetMs = Date.parse(entry.validFrom!) + 3_600_000 - Date.now();
    link(2).kick();
    const slot = await waitFor(() => slotOf(entry.secret), 'the code in its slot at check-in');
    // …and the lock itself holds the stay as a year-day schedule, turned on for that slot, so it
    // refuses the code after check-out even while the bridge is down. The times are on the lock's
    // clock (the listing's Berlin wall clock), the years two digits as the CC carries them.
    const onLockClock = (instant: string, edge: 'start' | 'stop') => {
      const { date, minutes } = localWallTime(new Date(instant), zone);
      return {
        [`${edge}Year`]: Number(date.slice(0, 4)) - 2000,
        [`${edge}Month`]: Number(date.slice(5, 7)),
        [`${edge}Day`]: Number(date.slice(8, 10)),
        [`${edge}Hour`]: Math.floor(minutes / 60),
        [`${edge}Minute`]: minutes % 60,
      };
    };
    const stayOnLock = (until: string) => ({
      ...onLockClock(entry.validFrom!, 'start'),
      ...onLockClock(until, 'stop'),
    });
    const guarded = await waitFor(
      () => network.lock(2).schedulesEnabled(slot) === true && network.lock(2).yearDaySchedule(slot),
      'the year-day schedule on the lock, turned on',
    );
    expect(guarded).toEqual(stayOnLock(entry.validUntil!));
    expect(guarded.startHour).toBe(15);
    expect(guarded.stopYear).toBeLessThan(100);
    // A code without an end (the member's) carries no schedule: scheduling is off for its slot.
    const memberSlot = slotOf('481516')!;
    expect(network.lock(2).yearDaySchedule(memberSlot)).toBeUndefined();
    expect(network.lock(2).schedulesEnabled(memberSlot)).toBe(false);
    // …the stay is extended by two nights: past the old check-out the code stays in the same slot…
    const extend = await request('POST', `/api3/device/${listingId}/request/${stayId}`, {
      action: 'change',
      startDate: start,
      endDate: addDaysToDate(end, 2),
    });
    expect(extend.statusCode, extend.body).toBe(200);
    const extended = guestEntry(await desiredSet(t, lockA))!;
    expect(Date.parse(extended.validUntil!)).toBeGreaterThan(Date.parse(entry.validUntil!));
    await confirmed(2);
    // The lock's schedule moves to the new check-out with the set, the code staying where it is.
    await waitFor(
      () => network.lock(2).yearDaySchedule(slot)?.stopDay === stayOnLock(extended.validUntil!).stopDay,
      "the lock's schedule extended",
    );
    expect(network.lock(2).yearDaySchedule(slot)).toEqual(stayOnLock(extended.validUntil!));
    clockOffsetMs = Date.parse(entry.validUntil!) + 3_600_000 - Date.now();
    link(2).kick();
    await link(2).idle();
    expect(slotOf(entry.secret)).toBe(slot);
    // …and after the new check-out it is gone.
    clockOffsetMs = Date.parse(extended.validUntil!) + 60_000 - Date.now();
    link(2).kick();
    await waitFor(() => slotOf(entry.secret) === undefined, 'the code removed at check-out');
    expect(network.lock(2).slot(slot)).toBeUndefined();
    // The emptied slot's schedule is erased and turned off, for whichever code it holds next.
    await waitFor(
      () => network.lock(2).schedulesEnabled(slot) === false,
      "the emptied slot's schedule turned off",
    );
    expect(network.lock(2).yearDaySchedule(slot)).toBeUndefined();
    clockOffsetMs = 0;
    link(2).kick();
    await link(2).idle();
  });

  it('shows a node that stopped answering offline, still serves the other lock, and catches up when it is back', async () => {
    const [lockA, lockB] = [deviceOfNode.get(2)!, deviceOfNode.get(3)!];
    network.lock(3).setReachable(false);
    // A company code reaches every keypad lock of the portal: both Z-Wave locks.
    const added = await request('POST', '/api3/portal/code/company', { name: 'Cleaners', code: '246810' });
    expect(added.statusCode, added.body).toBe(201);
    // The reachable lock gets it and confirms, whatever the other one does.
    const a = await confirmed(2);
    expect(a.credentials.find((c) => c.holder.includes('Cleaners'))).toMatchObject({ state: 'confirmed' });
    expect([...network.lock(2).slots().values()]).toContain('246810');
    // The unreachable one is marked dead by the driver and shown offline; its set waits.
    await waitFor(async () => (await device(lockB)).online === false, 'the dead node offline', 30_000);
    expect((await sync(lockB)).confirmedVersion).not.toBe((await sync(lockB)).desiredVersion);
    expect([...network.lock(3).slots().values()]).not.toContain('246810');
    // Back in range: the bridge's ping brings it back, and the change made meanwhile arrives.
    network.lock(3).setReachable(true);
    await waitFor(async () => (await device(lockB)).online === true, 'the node back online', 30_000);
    await confirmed(3);
    expect([...network.lock(3).slots().values()]).toContain('246810');
    expect((await device(lockA)).online).toBe(true);
  }, 90_000);

  it('answers storage_full for the 31st code on a 30-slot lock, and the other 30 stay', async () => {
    const lockA = deviceOfNode.get(2)!;
    const codesNow = (await desiredSet(t, lockA))!.entries.filter((e) => e.kind === 'code').length;
    for (let i = codesNow; i < 31; i++) {
      const added = await request('POST', '/api3/portal/code/company', {
        name: `Contractor ${i}`,
        code: String(700000 + i * 7),
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const s = await confirmed(2);
    const codes = s.credentials.filter((c) => c.kind === 'code');
    expect(codes).toHaveLength(31);
    expect(codes.filter((c) => c.state === 'rejected')).toHaveLength(1);
    expect(s.rejected).toHaveLength(1);
    expect(s.rejected[0]!.reason).toBe('storage_full');
    expect(codes.filter((c) => c.state === 'confirmed')).toHaveLength(30);
    // The stay's code is outside its stay now but keeps its slot: 29 codes are in the lock.
    expect(network.lock(2).slots().size).toBe(29);
    // The 10-slot lock takes ten and refuses the rest, entry by entry.
    const b = await confirmed(3);
    expect(b.rejected.filter((r) => r.reason === 'storage_full').length).toBeGreaterThan(0);
    expect(network.lock(3).slots().size).toBe(10);
    // The lock without the Schedule Entry Lock CC holds codes but was never sent a schedule command.
    expect(network.lock(3).scheduleWrites).toBe(0);
    expect(network.lock(2).scheduleWrites).toBeGreaterThan(0);

    // A stay on the full lock is refused before it is approved: the portal counts codes against
    // the 30 slots the lock reported, not the zwave-lock model's 250.
    const listingId = await addListing(t, { token: admin.token, portalId: admin.portalId, userId: '' }, [
      lockA,
    ]);
    const asked = await requestStay(t, listingId, {
      startDate: dayIn('Europe/Berlin', 40),
      endDate: dayIn('Europe/Berlin', 42),
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const stay = await request('GET', `/api3/device/${listingId}/request/${asked.json()._id}`);
    expect(stay.json().capacity).toEqual([
      expect.objectContaining({ deviceId: lockA, capacity: 30, counts: 'codes', used: 31, fits: false }),
    ]);
    const refused = await request('POST', `/api3/device/${listingId}/request/${asked.json()._id}`, {
      action: 'approve',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/holds 30 codes \(as the lock itself reports\)/);
  }, 120_000);
});
