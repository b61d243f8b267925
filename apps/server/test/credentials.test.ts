import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDeviceEvent } from '../src/features/events/events.repository';
import { listMailTo } from '../src/base/mail/mail.repository';
import { TestApp } from './test-app';

// Company codes, code locks, fingerprints, keys, guest invites (with mail to a real SMTP server),
// lock events and the activity feed, the people picker and export.

interface ReceivedMail {
  to: string[];
  raw: string;
}
const received: ReceivedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as { port: number };
  t = await TestApp.start({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  admin = await t.signUp({ email: 'keeper@example.com', firstName: 'Kim' });
  await t.app.mail.sendDue(); // the sign-up's verification mail, so the tests count only their own
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token: admin.token, ...(payload && { payload }) });

async function addLock(name: string, model = 'latchkey-sim', timeZone = 'Europe/Berlin') {
  const response = await api('POST', 'portal/device/new', { name, model, timeZone });
  expect(response.statusCode).toBe(201);
  return response.json().device._id as string;
}

/** Adds a person (an invitation) who then joins through the mailed link. */
async function addPerson(email: string) {
  const { userId } = await t.addPerson(admin.token, { email, firstName: email.split('@')[0] });
  await t.app.mail.sendDue(); // the invitation went out; later checks count only their own mail
  return userId;
}

/** Who can open a lock at an instant; `others` leaves out the portal's company codes. */
async function whoCanOpen(deviceId: string, at = new Date().toISOString()) {
  const response = await api('GET', `portal/device/${deviceId}/access?at=${encodeURIComponent(at)}`);
  expect(response.statusCode).toBe(200);
  const access = response.json() as {
    people: { _id: string; canOpen: boolean; reason: string | null; credentials: string[] }[];
    others: { _id: string; holderType: string; name: string; canOpen: boolean; reason: string | null }[];
  };
  return {
    ...access,
    allOthers: access.others,
    others: access.others.filter((o) => o.holderType !== 'company'),
  };
}

function detailsOf(response: { json(): { error: { details?: { path: string; message: string }[] } } }) {
  return response.json().error.details ?? [];
}

describe('company codes', () => {
  it('opens every keypad lock that takes it, follows the code rules, and never logs the code', async () => {
    const front = await addLock('Front gate');
    const vault = await addLock('Vault', 'generic-nokeypad');
    const created = await api('POST', 'portal/code/company', { name: 'Cleaning crew', code: '2468135' });
    expect(created.statusCode).toBe(201);
    const code = created.json();
    expect(code).toMatchObject({ name: 'Cleaning crew', code: '2468135', validUntil: null });

    const atFront = await whoCanOpen(front);
    expect(atFront.allOthers).toContainEqual({
      _id: code._id,
      holderType: 'company',
      name: 'Company code: Cleaning crew',
      kind: 'code',
      stay: null,
      canOpen: true,
      reason: null,
    });
    expect((await whoCanOpen(vault)).allOthers).toEqual([]);

    expect((await api('GET', 'portal/code/company')).json().map((c: { _id: string }) => c._id)).toContain(
      code._id,
    );
    const log = (await api('GET', 'portal/audit?filterBy=entityType&filterValue=company_code')).json();
    expect(log.items[0].action).toBe('company_code.create');
    expect(JSON.stringify(log.items)).not.toContain('2468135');

    const deleted = await api('DELETE', `portal/code/company/${code._id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await whoCanOpen(front)).allOthers).toEqual([]);
    expect((await api('DELETE', `portal/code/company/${code._id}`)).statusCode).toBe(404);
  });

  it('says which rule a code breaks', async () => {
    await addLock('Side door keypad', 'generic-codelock');
    const person = await addPerson('dora@example.com');
    expect((await api('POST', 'user/accessCode', { userId: person, code: '111222' })).statusCode).toBe(200);
    const cases: [string, RegExp][] = [
      ['12ab', /digits only/],
      ['123', /4 to 12 digits/],
      ['1234567890', /4 to 8 digits long for the lock "Side door keypad"/],
      ['111222', /already used/],
    ];
    for (const [code, message] of cases) {
      const response = await api('POST', 'portal/code/company', { name: 'Try', code });
      expect(response.statusCode, code).toBe(400);
      expect(detailsOf(response)[0]).toMatchObject({ path: 'body.code' });
      expect(detailsOf(response)[0]!.message, code).toMatch(message);
    }
    const noName = await api('POST', 'portal/code/company', { name: '', code: '5555' });
    expect(noName.statusCode).toBe(400);
    const backwards = await api('POST', 'portal/code/company', {
      name: 'Backwards',
      code: '5555',
      validFrom: '2030-02-01T00:00:00Z',
      validUntil: '2030-01-01T00:00:00Z',
    });
    expect(backwards.statusCode).toBe(400);
    // And a person cannot take a company code as their own.
    await api('POST', 'portal/code/company', { name: 'Deliveries', code: '909090' });
    const personal = await api('POST', 'user/accessCode', { userId: person, code: '909090' });
    expect(personal.statusCode).toBe(400);
  });
});

describe('code locks', () => {
  it('adds a keypad code lock whose master code opens it, even through an admin-exempt lockout', async () => {
    const created = await api('POST', 'device/codelock/add', { name: 'Bike shed', code: '4711' });
    expect(created.statusCode).toBe(201);
    const { device, deviceSecret } = created.json();
    expect(device).toMatchObject({ name: 'Bike shed', model: 'generic-codelock', timeZone: 'UTC' });
    expect(deviceSecret.length).toBeGreaterThan(20);
    const lockout = await api('POST', 'portal/lockout', {
      name: 'Closed',
      from: '2020-01-01T00:00:00Z',
      exemptAdmins: true,
      deviceIds: [device._id],
    });
    expect(lockout.statusCode).toBe(201);
    // (The company code of the test above opens it too, but not through a lockout.)
    const access = await whoCanOpen(device._id);
    expect(access.allOthers.filter((o) => o.canOpen)).toEqual([
      expect.objectContaining({ holderType: 'master', name: 'Master code', canOpen: true }),
    ]);
  });

  it('refuses a master code the keypad cannot take and adds no lock then', async () => {
    const before = (await api('GET', 'portal/devices?limit=200')).json().total;
    const tooLong = await api('POST', 'device/codelock/add', { name: 'Shed 2', code: '123456789' });
    expect(tooLong.statusCode).toBe(400);
    expect(detailsOf(tooLong)[0]!.message).toMatch(/4 to 8 digits long/);
    expect((await api('POST', 'device/codelock/add', { name: '', code: '1234' })).statusCode).toBe(400);
    expect((await api('GET', 'portal/devices?limit=200')).json().total).toBe(before);
  });
});

describe('fingerprints', () => {
  it('records a finger at a lock for a person who reaches it; it opens that lock only', async () => {
    const hall = await addLock('Hall');
    const lab = await addLock('Lab');
    const finn = await addPerson('finn@example.com');
    const body = { deviceId: hall, userId: finn, templateId: '12', finger: 'right-index', name: 'Finn R2' };

    const noAccess = await api('POST', 'portal/fingerprint', body);
    expect(noAccess.statusCode).toBe(400);
    expect(detailsOf(noAccess)[0]).toMatchObject({ path: 'body.userId' });

    await api('PUT', `user/${finn}/device/${hall}`);
    await api('PUT', `user/${finn}/device/${lab}`);
    const created = await api('POST', 'portal/fingerprint', body);
    expect(created.statusCode).toBe(201);
    const fingerprint = created.json();
    expect(fingerprint).toMatchObject({
      finger: 'right-index',
      templateId: '12',
      // The lock's zone: the clock the fingerprint's times are typed and shown on (issue 19, item 4).
      device: { _id: hall, name: 'Hall', timeZone: 'Europe/Berlin' },
      holder: { _id: finn, email: 'finn@example.com' },
    });
    expect((await api('POST', 'portal/fingerprint', body)).statusCode).toBe(409);
    // The same template id on another lock's reader is another finger.
    expect(
      (await api('POST', 'portal/fingerprint', { ...body, deviceId: lab, finger: 'left-thumb' })).statusCode,
    ).toBe(201);

    const person = (await whoCanOpen(hall)).people.find((p) => p._id === finn)!;
    expect(person.credentials).toContain('fingerprint');
    expect((await api('GET', `user/${finn}/fingerprints`)).json()).toHaveLength(2);
    expect(
      (await api('GET', `device/${hall}/fingerprints`)).json().map((f: { _id: string }) => f._id),
    ).toEqual([fingerprint._id]);
    const page = (await api('GET', `portal/fingerprints?filterBy=deviceId&filterValue=${lab}`)).json();
    expect(page.total).toBe(1);

    const saved = await api('POST', `portal/fingerprint/${fingerprint._id}`, {
      finger: 'right-middle',
      name: 'Fixed',
    });
    expect(saved.json()).toMatchObject({ finger: 'right-middle', name: 'Fixed', templateId: '12' });
    expect((await api('POST', `portal/fingerprint/${fingerprint._id}`, { finger: 'tail' })).statusCode).toBe(
      400,
    );

    const gina = await addPerson('gina@example.com');
    expect((await api('PUT', `portal/fingerprint/${fingerprint._id}/user/${gina}`)).statusCode).toBe(400);
    await api('PUT', `user/${gina}/device/${hall}`);
    const relinked = await api('PUT', `portal/fingerprint/${fingerprint._id}/user/${gina}`);
    expect(relinked.json().holder._id).toBe(gina);

    expect((await api('DELETE', `portal/fingerprint/${fingerprint._id}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/fingerprint/${fingerprint._id}`)).statusCode).toBe(404);
  });
});

describe('keys', () => {
  it('tracks who holds which key; a digital key opens its linked locks for its holder', async () => {
    const store = await addLock('Store room');
    const holly = await addPerson('holly@example.com');
    expect((await api('POST', 'portal/keys', { name: 'Store key', type: 'physical' })).statusCode).toBe(400);
    expect(
      (await api('POST', 'portal/keys', { name: 'App key', type: 'digital', number: 'X' })).statusCode,
    ).toBe(400);

    const physical = await api('POST', 'portal/keys', {
      name: 'Store key',
      type: 'physical',
      number: 'S-12',
      deviceIds: [store],
    });
    expect(physical.statusCode).toBe(201);
    expect(physical.json()).toMatchObject({
      number: 'S-12',
      holder: null,
      devices: [{ _id: store, timeZone: 'Europe/Berlin' }],
    });
    const duplicate = await api('POST', 'portal/keys', { name: 'Copy', type: 'physical', number: 'S-12' });
    expect(duplicate.statusCode).toBe(409);

    const digital = await api('POST', 'portal/keys', {
      name: 'Holly phone key',
      type: 'digital',
      userId: holly,
      deviceIds: [store],
    });
    expect(digital.statusCode).toBe(201);
    const key = digital.json();
    expect(key).toMatchObject({ type: 'digital', number: null, holder: { _id: holly } });
    // Holly opens the store room with it: the lock's event lands in the key's history.
    await recordDeviceEvent(t.app.db, {
      portalId: admin.portalId,
      deviceId: store,
      eventId: 'key-use-1',
      type: 'unlock',
      method: 'key',
      credentialId: key._id,
      userId: holly,
      reason: null,
      occurredAt: new Date().toISOString(),
    });
    // Holly has no grant on the lock, yet her digital key opens it; a physical key is not on the lock.
    const access = await whoCanOpen(store);
    expect(access.people).toEqual([
      expect.objectContaining({ _id: holly, canOpen: true, credentials: ['key'] }),
    ]);

    const other = await addPerson('ivan@example.com');
    expect((await api('DELETE', `keys/${key._id}/user/${other}`)).statusCode).toBe(409);
    expect((await api('PUT', `keys/${key._id}/user/${other}`)).json().holder._id).toBe(other);
    expect((await api('DELETE', `keys/${key._id}/user/${other}`)).json().holder).toBeNull();
    expect((await whoCanOpen(store)).people).toEqual([]);

    await api('PUT', `keys/${physical.json()._id}/user/${holly}`);
    expect((await api('GET', `user/${holly}/keys`)).json().map((k: { name: string }) => k.name)).toEqual([
      'Store key',
    ]);
    expect((await api('DELETE', `keys/${physical.json()._id}/device/${store}`)).json().devices).toEqual([]);
    expect((await api('GET', `keys/${physical.json()._id}/devices`)).json()).toEqual([]);
    expect((await api('PUT', `keys/${physical.json()._id}/device/${store}`)).json().devices).toHaveLength(1);

    const list = (await api('GET', 'portal/keys?filterBy=type&filterValue=physical&sortBy=number')).json();
    expect(list.items.map((k: { number: string }) => k.number)).toContain('S-12');
    expect(list.items.every((k: { type: string }) => k.type === 'physical')).toBe(true);
    const held = (await api('GET', `portal/keys?filterBy=userId&filterValue=${holly}`)).json();
    expect(held.total).toBe(1);

    // Removing Holly from the portal leaves her key without a holder, not destroyed.
    expect((await api('DELETE', `portal/user/${holly}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/keys/${physical.json()._id}`)).json().holder).toBeNull();

    type HistoryItem =
      | { source: 'change'; change: { action: string } }
      | { source: 'event'; event: { eventId: string; user: { _id: string } | null } };
    const history = (await api('GET', `keys/${key._id}/history`)).json().items as HistoryItem[];
    expect(history.map((h) => (h.source === 'change' ? h.change.action : h.event.eventId))).toEqual([
      'key.return',
      'key.hand_over',
      'key-use-1',
      'key.create',
    ]);
    expect(history[2]).toMatchObject({ source: 'event', event: { user: { _id: holly } } });
    const firstTwo = (await api('GET', `keys/${key._id}/history?limit=2`)).json();
    expect(firstTwo.items).toHaveLength(2);
    expect(firstTwo.nextBefore).not.toBeNull();
    expect((await api('DELETE', `portal/keys/${key._id}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/keys/${key._id}`)).statusCode).toBe(404);
    expect((await api('GET', `keys/${key._id}/history`)).json().items[0].change.action).toBe('key.delete');
    expect((await api('GET', 'keys/no-such-key/history')).statusCode).toBe(404);
    // The store room's own history names the changes to keys that open it, the deletion included.
    const storeHistory = (await api('GET', `device/${store}/history?limit=100`)).json()
      .items as HistoryItem[];
    const keyChanges = storeHistory.flatMap((h) =>
      h.source === 'change' && h.change.action.startsWith('key.') ? [h.change.action] : [],
    );
    expect(keyChanges).toEqual(
      expect.arrayContaining(['key.create', 'key.hand_over', 'key.return', 'key.delete']),
    );
  });
});

describe('guest invites', () => {
  const window = {
    name: 'Gail Guest',
    days: [1, 2, 3, 4, 5],
    start: '09:00',
    end: '17:00',
    startDate: '2030-03-01',
    endDate: '2030-03-31',
  };

  it('gives a guest a code for one lock in their window, and mails it to a real SMTP server', async () => {
    const door = await addLock('Studio door', 'latchkey-sim', 'Europe/Berlin');
    const created = await api('POST', `device/${door}/invite`, {
      ...window,
      email: 'gail@example.com',
      phone: '+49 30 1234567',
      send: true,
    });
    expect(created.statusCode).toBe(201);
    const invite = created.json();
    expect(invite).toMatchObject({
      name: 'Gail Guest',
      state: 'upcoming',
      sentCount: 1,
      email: 'gail@example.com',
    });
    expect(invite.code).toMatch(/^\d{6}$/);

    // Monday 2030-03-04 10:00 in Berlin is inside the window; 18:00 is not; April is after it.
    const inside = (await whoCanOpen(door, '2030-03-04T09:00:00Z')).others;
    expect(inside).toEqual([
      {
        _id: expect.any(String),
        holderType: 'guest',
        name: 'Guest: Gail Guest',
        // What it is, and no stay behind it: an invite's code (issue 19, item 5).
        kind: 'code',
        stay: null,
        canOpen: true,
        reason: null,
      },
    ]);
    expect((await whoCanOpen(door, '2030-03-04T17:00:00Z')).others[0]).toMatchObject({
      canOpen: false,
      reason: 'outside_schedule',
    });
    expect((await whoCanOpen(door, '2030-04-01T09:00:00Z')).others[0]!.canOpen).toBe(false);

    expect(await t.app.mail.sendDue()).toBe(1);
    const mail = received.find((m) => m.to.includes('gail@example.com'))!;
    expect(mail.raw).toContain('Subject: Your access code for Studio door');
    expect(mail.raw).toContain(invite.code);
    expect((await listMailTo(t.app.db, 'gail@example.com'))[0]!.sent_at).not.toBeNull();

    const resent = await api('GET', `device/${door}/invite/${invite._id}/resend`);
    expect(resent.json().sentCount).toBe(2);
    expect(await t.app.mail.sendDue()).toBe(1);
    expect(received.filter((m) => m.to.includes('gail@example.com'))).toHaveLength(2);

    const moved = await api('POST', `device/${door}/invite/${invite._id}`, {
      ...window,
      endDate: '2030-04-30',
    });
    expect(moved.json()).toMatchObject({ code: invite.code, endDate: '2030-04-30', email: null });
    expect((await whoCanOpen(door, '2030-04-01T09:00:00Z')).others[0]!.canOpen).toBe(true);
    expect((await api('GET', `device/${door}/invite/${invite._id}/resend`)).statusCode).toBe(400);

    expect((await api('GET', `device/${door}/invite`)).json()).toHaveLength(1);
    expect((await api('DELETE', `device/${door}/invite/${invite._id}`)).statusCode).toBe(204);
    expect((await whoCanOpen(door, '2030-03-04T09:00:00Z')).others).toEqual([]);
    expect((await api('GET', `device/${door}/invite`)).json()).toEqual([]);
  });

  it('refuses bad windows, sending without an email, a taken code and a lock without keypad', async () => {
    const door = await addLock('Guest room');
    const bad = [
      { ...window, endDate: '2030-02-01' },
      { ...window, start: '10:00', end: '10:00' },
      { ...window, days: [] },
      { ...window, send: true },
      { ...window, email: 'not-an-email' },
      { ...window, code: '12x4' },
    ];
    for (const body of bad) {
      expect((await api('POST', `device/${door}/invite`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const first = await api('POST', `device/${door}/invite`, { ...window, code: '777111' });
    expect(first.statusCode).toBe(201);
    const taken = await api('POST', `device/${door}/invite`, { ...window, code: '777111' });
    expect(taken.statusCode).toBe(400);
    expect(detailsOf(taken)[0]!.message).toMatch(/already used/);
    const noKeypad = await addLock('Garage', 'generic-nokeypad');
    expect((await api('POST', `device/${noKeypad}/invite`, window)).statusCode).toBe(400);
    expect((await api('GET', `device/${door}/invite`)).json()).toHaveLength(1);
  });
});

describe('deleting a lock', () => {
  it('ends the fingerprints, guest codes and master code that only worked there; keys lose the link', async () => {
    const shed = await addLock('Old shed');
    const jo = await addPerson('jo@example.com');
    await api('PUT', `user/${jo}/device/${shed}`);
    const fingerprint = (
      await api('POST', 'portal/fingerprint', {
        deviceId: shed,
        userId: jo,
        templateId: '1',
        finger: 'left-index',
      })
    ).json();
    const key = (
      await api('POST', 'portal/keys', { name: 'Shed key', type: 'digital', userId: jo, deviceIds: [shed] })
    ).json();
    const invite = (
      await api('POST', `device/${shed}/invite`, {
        ...{ name: 'G', days: [1], start: '08:00', end: '09:00' },
        startDate: '2030-01-01',
        endDate: '2030-01-02',
        code: '636363',
      })
    ).json();
    expect((await api('DELETE', `portal/device/${shed}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/fingerprint/${fingerprint._id}`)).statusCode).toBe(404);
    expect((await api('GET', `portal/keys/${key._id}`)).json().devices).toEqual([]);
    // The guest's code is free again.
    const door = await addLock('New shed');
    expect(
      (
        await api('POST', `device/${door}/invite`, {
          name: 'H',
          days: [1],
          start: '08:00',
          end: '09:00',
          startDate: '2030-01-01',
          endDate: '2030-01-02',
          code: '636363',
        })
      ).statusCode,
    ).toBe(201);
    expect(invite.code).toBe('636363');
  });
});

describe('lock events and activity', () => {
  it('stores each lock event once, lists them with names, and merges them with changes by time', async () => {
    const gate = await addLock('Events gate');
    const kay = await addPerson('kay@example.com');
    const event = {
      portalId: admin.portalId,
      deviceId: gate,
      eventId: 'evt-1',
      type: 'unlock' as const,
      method: 'code',
      credentialId: null,
      userId: kay,
      reason: null,
      occurredAt: '2030-05-01T10:00:00Z',
    };
    expect(await recordDeviceEvent(t.app.db, event)).toBe(true);
    expect(await recordDeviceEvent(t.app.db, event)).toBe(false);
    await recordDeviceEvent(t.app.db, {
      ...event,
      eventId: 'evt-2',
      type: 'denied',
      userId: null,
      reason: 'outside_schedule',
      occurredAt: '2030-05-01T11:00:00Z',
    });

    const logs = (await api('GET', `portal/device/logs?filterBy=deviceId&filterValue=${gate}`)).json();
    expect(logs.total).toBe(2);
    expect(logs.items[0]).toMatchObject({
      eventId: 'evt-2',
      type: 'denied',
      reason: 'outside_schedule',
      user: null,
    });
    expect(logs.items[1]).toMatchObject({
      device: { _id: gate, name: 'Events gate' },
      user: { _id: kay, name: 'kay' },
    });
    const unlockLogs = (await api('GET', 'portal/device/logs?filterBy=type&filterValue=unlock')).json();
    expect(unlockLogs.items.every((item: { type: string }) => item.type === 'unlock')).toBe(true);
    expect(unlockLogs.items.map((item: { eventId: string }) => item.eventId)).toContain('evt-1');
    expect(unlockLogs.items.map((item: { eventId: string }) => item.eventId)).not.toContain('evt-2');
    expect((await api('GET', 'portal/device/logs?sortBy=battery')).statusCode).toBe(400);

    // The two events lie in the future of every change, so they open the feed; paging goes on by time.
    const first = (await api('GET', 'portal/activity?limit=2')).json();
    expect(first.items.map((i: { source: string }) => i.source)).toEqual(['event', 'event']);
    expect(first.nextBefore).toBe('2030-05-01T10:00:00.000Z');
    const second = (
      await api('GET', `portal/activity?limit=3&before=${encodeURIComponent(first.nextBefore)}`)
    ).json();
    expect(second.items.map((i: { source: string }) => i.source)).toEqual(['change', 'change', 'change']);
    expect(second.items[0].change.action).toBe('member.accept');
    expect(second.items[0].at >= second.items[1].at).toBe(true);

    // The same feed for one lock and for one person: only what concerns them.
    const gateHistory = (await api('GET', `device/${gate}/history?limit=10`)).json();
    expect(
      gateHistory.items.map(
        (i: { source: string; event?: { eventId: string }; change?: { action: string } }) =>
          i.source === 'event' ? i.event!.eventId : i.change!.action,
      ),
    ).toEqual(['evt-2', 'evt-1', 'device.create']);
    const kayHistory = (await api('GET', `user/${kay}/history?limit=10`)).json();
    expect(
      kayHistory.items.map(
        (i: { source: string; event?: { eventId: string }; change?: { action: string } }) =>
          i.source === 'event' ? i.event!.eventId : i.change!.action,
      ),
    ).toEqual(['evt-1', 'member.accept', 'member.invite']);
    const gateEvents = (await api('GET', `device/${gate}/events?limit=1`)).json();
    expect(gateEvents).toMatchObject({ total: 2, items: [{ eventId: 'evt-2' }] });
    const unlocks = (await api('GET', `device/${gate}/events?filterBy=type&filterValue=unlock`)).json();
    expect(unlocks).toMatchObject({ total: 1, items: [{ eventId: 'evt-1' }] });
    expect((await api('GET', `device/${gate}/events?filterBy=userId&filterValue=${kay}`)).statusCode).toBe(
      400,
    );
    expect((await api('GET', 'device/no-such-lock/history')).statusCode).toBe(404);
    expect((await api('GET', 'user/no-such-person/history')).statusCode).toBe(404);
  });
});

describe('people picker and export', () => {
  it('finds people by name or email, and exports everyone with their access as CSV', async () => {
    const lena = await addPerson('lena@example.com');
    await api('POST', `portal/user/${lena}`, { lastName: '=HYPERLINK("x")' });
    await api('POST', 'user/accessCode', { userId: lena, code: '31415926' });
    const found = (await api('GET', 'portal/scopedUsers?search=LENA')).json();
    expect(found).toEqual([expect.objectContaining({ _id: lena, email: 'lena@example.com', role: 'user' })]);
    expect((await api('GET', 'portal/scopedUsers?limit=500')).statusCode).toBe(400);

    const csv = await api('GET', 'portal/user/list');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('people.csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'email,firstName,lastName,role,owner,status,joinedAt,hasAccessCode,locks,cards,keys,fingerprints',
    );
    const row = lines.find((line) => line.startsWith('lena@example.com'))!;
    expect(row).toContain(',user,false,');
    // The portal's owner is an admin, and said to be the owner.
    expect(lines.filter((line) => line.includes(',admin,true,'))).toHaveLength(1);
    // The formula-looking name is defused and quoted; the code is counted, never exported.
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(row).toContain(',true,0,0,0,0');
    expect(csv.body).not.toContain('31415926');
  });
});

describe('offline locks', () => {
  it('filters the lock list by connection', async () => {
    const offline = (await api('GET', 'portal/devices?filterBy=online&filterValue=false&limit=200')).json();
    expect(offline.total).toBeGreaterThan(0);
    expect(offline.items.every((d: { online: boolean }) => !d.online)).toBe(true);
    expect((await api('GET', 'portal/devices?filterBy=online&filterValue=true')).json().total).toBe(0);
  });

  it('orders locks that never reported first when sorting up, last when sorting down, on every database', async () => {
    const seen = await addLock('Seen once');
    await t.app.db
      .updateTable('devices')
      .set({ last_seen_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', seen)
      .execute();
    const sorted = (descending: boolean) =>
      api('GET', `portal/devices?sortBy=lastSeenAt&descending=${descending}&limit=200`).then(
        (r) => r.json().items.map((d: { _id: string }) => d._id) as string[],
      );
    const up = await sorted(false);
    const down = await sorted(true);
    expect(up.at(-1)).toBe(seen);
    expect(down[0]).toBe(seen);
  });
});
