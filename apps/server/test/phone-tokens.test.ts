import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { SimulatedLock } from '@latchkey/locksim';
import { QR_TOKEN_TTL_SECONDS, type QrToken, type SyncToken } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './net-helpers';
import { TestApp } from './test-app';

/**
 * What a phone carries to a lock, end to end: the portal signs a QR code or a credential update,
 * and a simulated lock (packages/locksim) checks it offline with the key its credential set named.
 */

describe('phone tokens', () => {
  let t: TestApp;
  let admin: { token: string; portalId: string };
  let member: { token: string; userId: string };
  let deviceId: string;
  let lock: SimulatedLock;
  let lockClockOffsetMs = 0;

  const as = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url: `/api3/${url}`, token, portal: admin.portalId, ...(payload && { payload }) });

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
    const owner = await t.signUp();
    admin = { token: owner.token, portalId: owner.portalId };
    const person = await t.signUp();
    await t.addMember(admin.portalId, person.userId, 'user');
    member = { token: person.token, userId: person.userId };
    const created = await as(admin.token, 'POST', 'portal/device/new', {
      name: 'Side door',
      model: 'latchkey-sim',
      timeZone: 'UTC',
    });
    deviceId = created.json().device._id;
    expect(
      (await as(admin.token, 'PUT', `user/${member.userId}/device/${deviceId}`)).statusCode,
    ).toBeLessThan(300);
    expect(
      (await as(admin.token, 'POST', 'user/accessCode', { userId: member.userId, code: '246810' }))
        .statusCode,
    ).toBe(200);
    lock = new SimulatedLock({
      url: t.app.deviceLink.transport.url,
      deviceId,
      secret: created.json().deviceSecret,
      heartbeatSeconds: 0,
      now: () => new Date(Date.now() + lockClockOffsetMs),
    });
    await lock.start();
    await t.app.deviceLink.flushScheduledSyncs();
    await waitFor(
      () => lock.credentialSet?.entries.some((entry) => entry.secret === '246810'),
      'the set with the code',
    );
  });
  afterAll(async () => {
    await lock?.stop();
    await t?.close();
  });

  it("names the portal's public key in every credential set", () => {
    expect(lock.credentialSet?.qrKey).toBe(t.app.deviceLink.signingKeys.publicKeyOf(admin.portalId));
  });

  it('issues a QR code that opens the lock once, as the person, and is stored as their QR event', async () => {
    const issued = await as(member.token, 'POST', 'user/qr');
    expect(issued.statusCode).toBe(200);
    const qr = issued.json<QrToken>();
    expect(qr.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(Date.parse(qr.expiresAt) - Date.now()).toBeLessThanOrEqual(QR_TOKEN_TTL_SECONDS * 1000);

    const first = lock.scanQr(qr.token);
    expect(first.decision).toEqual({
      granted: true,
      credentialId: `remote:${member.userId}`,
      userId: member.userId,
    });
    // Single use: the same code shown again (a photo of the screen) is refused.
    expect(lock.scanQr(qr.token).decision).toEqual({ granted: false, reason: 'unknown_credential' });

    const history = await waitFor(async () => {
      const response = await as(admin.token, 'GET', `device/${deviceId}/events`);
      const items = response.json().items as {
        eventId: string;
        method: string;
        user: { _id: string } | null;
      }[];
      return items.find((item) => item.eventId === first.event.eventId);
    }, 'the QR unlock in history');
    expect(history).toMatchObject({ method: 'qr', user: { _id: member.userId } });
  });

  it('refuses an expired QR code, one of another portal and one for a person without access', async () => {
    const qr = (await as(member.token, 'POST', 'user/qr')).json<QrToken>();
    lockClockOffsetMs = (QR_TOKEN_TTL_SECONDS + 1) * 1000;
    expect(lock.scanQr(qr.token).decision).toEqual({ granted: false, reason: 'expired' });
    lockClockOffsetMs = 0;

    // The admin's own portal is the one they act in by default; an outsider's portal signs with another key.
    const outsider = await t.signUp();
    const foreign = await t.request({ method: 'POST', url: '/api3/user/qr', token: outsider.token });
    expect(foreign.statusCode).toBe(200);
    expect(lock.scanQr(foreign.json<QrToken>().token).decision).toEqual({
      granted: false,
      reason: 'unknown_credential',
    });

    // The admin holds no access at this lock: their genuine code does not open it.
    const adminQr = (await as(admin.token, 'POST', 'user/qr')).json<QrToken>();
    expect(lock.scanQr(adminQr.token).decision).toMatchObject({
      granted: false,
      reason: 'unknown_credential',
    });
    expect((await t.request({ method: 'POST', url: '/api3/user/qr' })).statusCode).toBe(401);
  });

  it('is verified by an independent Ed25519 implementation (PyNaCl)', async (context) => {
    if (!fs.existsSync('/usr/lib/python3/dist-packages/nacl')) return context.skip();
    const qr = (await as(member.token, 'POST', 'user/qr')).json<QrToken>();
    const script = `
import base64, json, sys
from nacl.signing import VerifyKey
token, key = sys.argv[1], sys.argv[2]
prefix, claims, signature = token.split('.')
pad = lambda s: s + '=' * (-len(s) % 4)
VerifyKey(base64.b64decode(key)).verify(f'{prefix}.{claims}'.encode(), base64.urlsafe_b64decode(pad(signature)))
print(json.loads(base64.urlsafe_b64decode(pad(claims)))['u'])
`;
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [
      '-c',
      script,
      qr.token,
      t.app.deviceLink.signingKeys.publicKeyOf(admin.portalId),
    ]);
    expect(stdout.trim()).toBe(member.userId);
  });

  it("carries a person's new code to an offline lock, and records where the phone asked", async () => {
    await lock.goOffline('drop');
    expect(
      (await as(admin.token, 'POST', 'user/accessCode', { userId: member.userId, code: '135791' }))
        .statusCode,
    ).toBe(200);
    const asked = await as(member.token, 'POST', `device/${deviceId}/synclock/user/token`, {
      location: { latitude: 52.52, longitude: 13.405, accuracy: 12 },
    });
    expect(asked.statusCode).toBe(200);
    const carried = asked.json<SyncToken>();
    expect(carried.entries).toBeGreaterThanOrEqual(2); // the code and opening from the app

    expect(lock.enterCode('135791').decision).toMatchObject({ granted: false });
    expect(lock.carryCredentials(carried.token)).toEqual({
      applied: true,
      userId: member.userId,
      entries: carried.entries,
    });
    expect(lock.enterCode('135791').decision).toMatchObject({ granted: true, userId: member.userId });
    expect(lock.enterCode('246810').decision).toMatchObject({ granted: false, reason: 'unknown_credential' });

    const log = await as(
      admin.token,
      'GET',
      'portal/audit?filterBy=action&filterValue=device.synclock.token',
    );
    expect(log.statusCode).toBe(200);
    const entry = (log.json().items as { action: string; after: { location: unknown } }[]).find(
      (item) => item.action === 'device.synclock.token',
    );
    expect(entry?.after.location).toEqual({ latitude: 52.52, longitude: 13.405, accuracy: 12 });

    // Back online, the lock takes the full set and confirms it; the carried entries were the same.
    await lock.comeBack();
    await t.app.deviceLink.flushScheduledSyncs();
    await waitFor(async () => {
      const sync = (await as(admin.token, 'GET', `device/${deviceId}/sync`)).json();
      return sync.inSync === true && sync.confirmedVersion === lock.snapshot().credentialsVersion;
    }, 'the lock in sync again');
    expect(lock.enterCode('135791').decision).toMatchObject({ granted: true });
  });

  it('refuses a carried update for another lock or tampered with, and answers 404/403/400 as it should', async () => {
    const other = await as(admin.token, 'POST', 'portal/device/new', {
      name: 'Back door',
      model: 'latchkey-sim',
      timeZone: 'UTC',
    });
    const otherId = other.json().device._id as string;
    await as(admin.token, 'PUT', `user/${member.userId}/device/${otherId}`);
    const forOther = (
      await as(member.token, 'POST', `device/${otherId}/synclock/user/token`, {})
    ).json<SyncToken>();
    expect(lock.carryCredentials(forOther.token)).toMatchObject({ applied: false });
    const [prefix, claims, signature] = forOther.token.split('.');
    const altered = JSON.parse(Buffer.from(claims!, 'base64url').toString());
    altered.d = deviceId;
    const forged = `${prefix}.${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`;
    expect(lock.carryCredentials(forged)).toEqual({ applied: false, reason: 'bad_signature' });

    const noAccess = await as(admin.token, 'POST', `device/${deviceId}/synclock/user/token`, {});
    expect(noAccess.statusCode).toBe(403);
    expect(noAccess.json().error.message).toBe('You have no access to this lock');
    expect((await as(member.token, 'POST', 'device/no-such-lock/synclock/user/token', {})).statusCode).toBe(
      404,
    );
    const badPlace = await as(member.token, 'POST', `device/${deviceId}/synclock/user/token`, {
      location: { latitude: 123, longitude: 0 },
    });
    expect(badPlace.statusCode).toBe(400);
    expect(badPlace.json().error.message).toMatch(/latitude/);
  });
});
