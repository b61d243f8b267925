import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { IcalFeed, IcalSyncResult, ListingCalendar, ListingIcal, Stay } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFeed, FeedFetchError, isPrivateAddress } from '../src/features/calendars/feed-fetch';
import {
  addListing,
  addLock,
  dayIn,
  desiredSet,
  rentalPortal,
  requestStay,
  type RentalPortal,
} from './rental-helpers';
import { TestApp } from './test-app';

const LISBON = 'Europe/Lisbon';

/** A platform's calendar served by a local HTTP server the test controls, with ETag support. */
class FeedServer {
  body = '';
  status = 200;
  requests: http.IncomingHttpHeaders[] = [];
  private server = http.createServer((request, response) => {
    this.requests.push(request.headers);
    if (request.url === '/slow') return; // never answers
    if (request.url === '/redirect') {
      response.writeHead(302, { location: this.redirectTo });
      return response.end();
    }
    if (request.url === '/gzip') {
      response.writeHead(200, { 'content-type': 'text/calendar', 'content-encoding': 'gzip' });
      return response.end(zlib.gzipSync(this.body));
    }
    const etag = `"${crypto.createHash('sha1').update(this.body).digest('hex')}"`;
    if (this.status === 200 && request.headers['if-none-match'] === etag) {
      response.writeHead(304);
      return response.end();
    }
    response.writeHead(this.status, { 'content-type': 'text/calendar; charset=utf-8', etag });
    response.end(this.body);
  });
  redirectTo = '';

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** An Airbnb-style feed: all-day events, a "Reserved" summary, reservation details in the description. */
function feedOf(events: { uid: string; start: string; end: string; summary?: string; status?: string }[]) {
  const date = (d: string) => d.replace(/-/g, '');
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN',
    'CALSCALE:GREGORIAN',
    'VERSION:2.0',
  ];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `DTEND;VALUE=DATE:${date(e.end)}`,
      `DTSTART;VALUE=DATE:${date(e.start)}`,
      `UID:${e.uid}`,
      'DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HM4K2Q\\nPhone Number (Last 4 Digits): 4711',
      `SUMMARY:${e.summary ?? 'Reserved'}`,
      ...(e.status ? [`STATUS:${e.status}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/** Debian's python3-icalendar, an independent reader of the export feed; absent: those checks skip. */
const PYTHON = '/usr/bin/python3';
const hasPythonIcalendar = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import icalendar'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The events of a feed as python3-icalendar reads them. */
function readWithPython(
  feed: string,
): Promise<{ uid: string; start: string; end: string; summary: string; allDay: boolean }[]> {
  const script = `
import sys, json, datetime, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
assert cal.get('VERSION') == '2.0', 'version'
assert cal.get('PRODID'), 'prodid'
out = []
for e in cal.walk('VEVENT'):
    s = e.decoded('DTSTART'); t = e.decoded('DTEND')
    out.append({'uid': str(e.get('UID')), 'start': s.isoformat(), 'end': t.isoformat(),
                'summary': str(e.get('SUMMARY')), 'allDay': type(s) is datetime.date and type(t) is datetime.date,
                'stamp': bool(e.get('DTSTAMP'))})
    assert e.get('DTSTAMP'), 'dtstamp'
print(json.dumps(out))
`;
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON, ['-c', script], (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
    child.stdin!.end(feed);
  });
}

let t: TestApp;
let owner: RentalPortal;
let stranger: RentalPortal;
let feeds: FeedServer;
let base: string;

beforeAll(async () => {
  t = await TestApp.start({
    STAY_ACCESS_CHECK_MS: '0',
    ICAL_SYNC_MINUTES: '0',
    // "Sync now" is limited to once a minute per feed; these tests read the same feed back to back
    // (ical-import-safety.test.ts checks the limit).
    ICAL_SYNC_NOW_SECONDS: '0',
    ICAL_ALLOW_PRIVATE_HOSTS: 'true',
    ICAL_FETCH_TIMEOUT_MS: '1500',
  });
  owner = await rentalPortal(t);
  stranger = await rentalPortal(t);
  feeds = new FeedServer();
  base = await feeds.start();
});
afterAll(async () => {
  await feeds.stop();
  await t.close();
});

const get = (url: string, token = owner.token) => t.request({ method: 'GET', url, token });
const post = (url: string, payload: object, token = owner.token) =>
  t.request({ method: 'POST', url, token, payload });

async function approved(listingId: string, from: number, to: number, name = 'Ana Guest') {
  const request = await requestStay(t, listingId, {
    name,
    startDate: dayIn(LISBON, from),
    endDate: dayIn(LISBON, to),
  });
  expect(request.statusCode, request.body).toBe(201);
  const response = await post(`/api3/device/${listingId}/request/${request.json()._id}`, {
    action: 'approve',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Stay;
}

describe('the export feed (GET ical/{token}.ics)', () => {
  let listingId: string;
  let ical: ListingIcal;
  let stay: Stay;

  beforeAll(async () => {
    const lock = (await addLock(t, owner)).id;
    listingId = await addListing(t, owner, [lock]);
    stay = await approved(listingId, 10, 13, 'Zoe Secretname');
    expect(
      (
        await post(`/api3/device/${listingId}/calendar`, {
          action: 'block',
          startDate: dayIn(LISBON, 20),
          endDate: dayIn(LISBON, 22),
          note: 'Family visit',
        })
      ).statusCode,
    ).toBe(200);
    // A pending request is not exported.
    await requestStay(t, listingId, {
      name: 'Pending Person',
      startDate: dayIn(LISBON, 30),
      endDate: dayIn(LISBON, 32),
    });
    ical = (await get(`/api3/listing/${listingId}/ical`)).json();
  });

  const fetchExport = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: new URL(url).pathname, headers });

  it('is an absolute private address whose feed carries dates only', async () => {
    expect(ical.exportUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/api3\/ical\/C1\.[\w-]+\.\d+\.[\w-]{22}\.ics$/,
    );
    const response = await fetchExport(ical.exportUrl);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const text = response.body;
    expect(text).toContain('BEGIN:VCALENDAR');
    for (const secret of [
      'Zoe',
      'Secretname',
      'Family visit',
      'Pending',
      '@example.com',
      stay.access[0]!.code,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it.skipIf(!hasPythonIcalendar)(
    'parses with python3-icalendar: a reserved stay and a blocked stretch, all-day',
    async () => {
      const events = await readWithPython((await fetchExport(ical.exportUrl)).body);
      expect(events).toHaveLength(2);
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            start: dayIn(LISBON, 10),
            end: dayIn(LISBON, 13),
            summary: 'Reserved',
            allDay: true,
            uid: `stay-${stay._id}@latchkey`,
          }),
          expect.objectContaining({
            start: dayIn(LISBON, 20),
            end: dayIn(LISBON, 22),
            summary: 'Not available',
            allDay: true,
          }),
        ]),
      );
    },
  );

  it('answers 304 to its ETag, and follows a cancellation', async () => {
    const first = await fetchExport(ical.exportUrl);
    const again = await fetchExport(ical.exportUrl, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    await post(`/api3/device/${listingId}/request/${stay._id}`, { action: 'cancel' });
    const after = await fetchExport(ical.exportUrl, { 'if-none-match': String(first.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain(`stay-${stay._id}`);
  });

  it('stops at its old address once rotated; forged, other and unknown tokens are 404', async () => {
    const rotated = await post(`/api3/listing/${listingId}/ical/rotate`, {});
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh: ListingIcal = rotated.json();
    expect(fresh.exportUrl).not.toBe(ical.exportUrl);
    expect(fresh.exportRotatedAt).not.toBeNull();
    expect((await fetchExport(ical.exportUrl)).statusCode).toBe(404);
    expect((await fetchExport(fresh.exportUrl)).statusCode).toBe(200);
    const token = new URL(fresh.exportUrl).pathname
      .split('/')
      .pop()!
      .replace(/\.ics$/, '');
    const forged = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const path of [
      `/api3/ical/${forged}.ics`,
      `/api3/ical/${token.replace('C1.', 'L1.')}.ics`,
      `/api3/ical/${token}`,
      '/api3/ical/nothing.ics',
    ]) {
      const response = await t.request({ method: 'GET', url: path });
      expect([400, 404], path).toContain(response.statusCode);
    }
    const log = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'listing.ical.rotate')
      .execute();
    expect(log).toHaveLength(1);
  });
});

describe('importing a platform calendar', () => {
  let lock: string;
  let listingId: string;
  let feedId: string;
  const reservation = () => ({ uid: 'HM4K2Q@airbnb.com', start: dayIn(LISBON, 40), end: dayIn(LISBON, 43) });

  beforeAll(async () => {
    lock = (await addLock(t, owner, { name: 'Harbour flat' })).id;
    listingId = await addListing(t, owner, [lock], { title: 'Harbour flat' });
  });

  /** "Sync now": queued (202, the feed syncing), then read by the import job, run to its end here. */
  const sync = async (acceptEmpty = false) => {
    const response = await post(`/api3/listing/${listingId}/ical/feed/${feedId}/sync`, { acceptEmpty });
    expect(response.statusCode, response.body).toBe(202);
    expect((response.json() as IcalFeed).syncing).toBe(true);
    await t.app.ical.importer.flush();
    const feed = (await get(`/api3/listing/${listingId}/ical`))
      .json()
      .feeds.find((f: IcalFeed) => f._id === feedId) as IcalFeed;
    expect(feed.syncing).toBe(false);
    return { ...feed.lastResult!, feed } as IcalSyncResult;
  };
  const feedStay = async (uid: string) => {
    const row = await t.app.db
      .selectFrom('stays')
      .selectAll()
      .where('portal_id', '=', owner.portalId)
      .where('external_ref', '=', uid)
      .executeTakeFirstOrThrow();
    return (await get(`/api3/device/${listingId}/request/${row.id}`)).json() as Stay;
  };

  it('adds a feed (400 for an address that is not http(s), 404 for another portal) and reads it: a new reservation gets a code on the lock', async () => {
    for (const url of [
      'ftp://example.com/a.ics',
      'not a url',
      'https://user:pw@example.com/a.ics',
      'file:///etc/passwd',
    ]) {
      expect(
        (await post(`/api3/listing/${listingId}/ical/feed/new`, { name: 'Bad', url })).statusCode,
        url,
      ).toBe(400);
    }
    expect(
      (
        await post(
          `/api3/listing/${listingId}/ical/feed/new`,
          { name: 'Airbnb', url: `${base}/airbnb.ics` },
          stranger.token,
        )
      ).statusCode,
    ).toBe(404);
    feeds.body = feedOf([
      reservation(),
      {
        uid: 'block-1@airbnb.com',
        start: dayIn(LISBON, 60),
        end: dayIn(LISBON, 65),
        summary: 'Airbnb (Not available)',
      },
    ]);
    const created = await post(`/api3/listing/${listingId}/ical/feed/new`, {
      name: 'Airbnb',
      url: `${base}/airbnb.ics`,
    });
    expect(created.statusCode, created.body).toBe(201);
    feedId = created.json()._id;
    expect(created.json()).toMatchObject({ name: 'Airbnb', mode: 'auto', lastSuccessAt: null, events: 0 });

    const result = await sync();
    expect(result).toMatchObject({ ok: true, added: 1, changed: 0, cancelled: 0, blocks: 1, flagged: 0 });
    expect(result.feed).toMatchObject({ events: 2, stays: 1, lastError: null });
    expect(result.feed.lastSuccessAt).not.toBeNull();

    const stay = await feedStay('HM4K2Q@airbnb.com');
    expect(stay).toMatchObject({
      source: 'ical',
      state: 'approved',
      guestName: 'Airbnb guest',
      guestEmail: '',
      startDate: dayIn(LISBON, 40),
      endDate: dayIn(LISBON, 43),
      accessState: 'waiting',
    });
    // The owner sees the code (the platform gave no address: they pass it on) and the guest link.
    const code = stay.access.find((a) => a.holder === 'guest')!.code;
    expect(code).toMatch(/^\d{6}$/);
    expect(stay.landingPath).toMatch(/^\/s\?t=S1\./);
    expect(stay.note).toContain('Reservation URL');
    const set = await desiredSet(t, lock);
    expect(set?.entries.some((e) => e.kind === 'code' && e.secret === code)).toBe(true);

    const calendar: ListingCalendar = (
      await get(`/api3/device/${listingId}/calendar?from=${dayIn(LISBON, 0)}&to=${dayIn(LISBON, 90)}`)
    ).json();
    expect(calendar.bookings.find((b) => b._id === stay._id)).toMatchObject({
      feedName: 'Airbnb',
      source: 'ical',
      overlaps: [],
    });
    expect(calendar.blocks).toEqual([
      expect.objectContaining({ source: 'ical', feedName: 'Airbnb', startDate: dayIn(LISBON, 60) }),
    ]);
    // Nights an imported calendar marks are taken on the public page too.
    const page = (await t.request({ method: 'GET', url: `/api3/listing/${listingId}/public` })).json();
    expect(page.taken).toEqual(
      expect.arrayContaining([{ startDate: dayIn(LISBON, 60), endDate: dayIn(LISBON, 65) }]),
    );
  });

  it('asks with the ETag next time; a 304 changes nothing', async () => {
    const result = await sync();
    expect(result).toMatchObject({ ok: true, notModified: true, added: 0 });
    expect(feeds.requests.at(-1)!['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
  });

  it('moves a changed reservation on the lock at once, keeping the code', async () => {
    const before = await feedStay('HM4K2Q@airbnb.com');
    feeds.body = feedOf([{ ...reservation(), start: dayIn(LISBON, 41), end: dayIn(LISBON, 45) }]);
    const result = await sync();
    expect(result).toMatchObject({ ok: true, added: 0, changed: 1, cancelled: 0, blocks: 0 });
    const after = await feedStay('HM4K2Q@airbnb.com');
    expect(after).toMatchObject({
      startDate: dayIn(LISBON, 41),
      endDate: dayIn(LISBON, 45),
      state: 'approved',
    });
    const code = after.access.find((a) => a.holder === 'guest' && !a.removed)!;
    expect(code.code).toBe(before.access.find((a) => a.holder === 'guest')!.code);
    const entry = (await desiredSet(t, lock))!.entries.find(
      (e) => e.kind === 'code' && e.secret === code.code,
    )!;
    expect(entry.validUntil).toBe(after.accessUntil);
    // The feed's block went with it.
    const calendar: ListingCalendar = (
      await get(`/api3/device/${listingId}/calendar?from=${dayIn(LISBON, 0)}&to=${dayIn(LISBON, 90)}`)
    ).json();
    expect(calendar.blocks).toEqual([]);
  });

  it('flags a reservation that double-books an approved stay, and keeps it', async () => {
    const mine = await approved(listingId, 50, 53, 'Direct Dan');
    feeds.body = feedOf([
      { ...reservation(), start: dayIn(LISBON, 41), end: dayIn(LISBON, 45) },
      {
        uid: 'HM9ZZZ@airbnb.com',
        start: dayIn(LISBON, 52),
        end: dayIn(LISBON, 55),
        summary: 'Reserved - Olga',
      },
    ]);
    const result = await sync();
    expect(result).toMatchObject({ ok: true, added: 1, flagged: 1 });
    expect(result.feed.lastWarning).toContain('Direct Dan');
    const olga = await feedStay('HM9ZZZ@airbnb.com');
    expect(olga).toMatchObject({ guestName: 'Olga', state: 'approved' });
    const calendar: ListingCalendar = (
      await get(`/api3/device/${listingId}/calendar?from=${dayIn(LISBON, 0)}&to=${dayIn(LISBON, 90)}`)
    ).json();
    expect(calendar.bookings.find((b) => b._id === olga._id)!.overlaps).toEqual([mine._id]);
    expect(calendar.bookings.find((b) => b._id === mine._id)!.overlaps).toEqual([olga._id]);
  });

  it('treats an empty read after events as an error: nothing changes and every code stays', async () => {
    const before = await feedStay('HM4K2Q@airbnb.com');
    const setBefore = await desiredSet(t, lock);
    feeds.body = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Airbnb Inc//EN\r\nEND:VCALENDAR\r\n';
    const result = await sync();
    expect(result.ok).toBe(false);
    expect(result.feed.lastError).toContain('came back empty');
    expect(result.feed.lastError).toContain('keeps their code');
    expect(result.feed.lastSuccessAt).not.toBeNull();
    expect(await feedStay('HM4K2Q@airbnb.com')).toMatchObject({
      state: 'approved',
      startDate: before.startDate,
    });
    expect((await desiredSet(t, lock))!.entries).toEqual(setBefore!.entries);
    // The owner is alerted once, however often it fails.
    await sync();
    const alerts = await t.app.db
      .selectFrom('notifications')
      .select('title')
      .where('portal_id', '=', owner.portalId)
      .where('title', 'like', '%Airbnb calendar%')
      .execute();
    expect(alerts).toHaveLength(1);
  });

  it('treats a malformed read, a web page and an HTTP error as errors too', async () => {
    for (const [body, status, words] of [
      ['BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:garbage\r\n', 200, 'cannot be read'],
      ['<!doctype html><title>Log in</title>', 200, 'web page'],
      ['', 503, 'HTTP 503'],
    ] as const) {
      feeds.body = body;
      feeds.status = status;
      const result = await sync();
      expect(result.ok, body).toBe(false);
      expect(result.feed.lastError).toContain(words);
      expect((await feedStay('HM4K2Q@airbnb.com')).state).toBe('approved');
    }
    feeds.status = 200;
  });

  it('cancels a reservation the platform cancels or drops, at once on the lock', async () => {
    const olga = await feedStay('HM9ZZZ@airbnb.com');
    const olgaCode = olga.access.find((a) => a.holder === 'guest')!.code;
    feeds.body = feedOf([
      { ...reservation(), start: dayIn(LISBON, 41), end: dayIn(LISBON, 45) },
      { uid: 'HM9ZZZ@airbnb.com', start: dayIn(LISBON, 52), end: dayIn(LISBON, 55), status: 'CANCELLED' },
    ]);
    const result = await sync();
    expect(result).toMatchObject({ ok: true, cancelled: 1, added: 0 });
    expect(await feedStay('HM9ZZZ@airbnb.com')).toMatchObject({
      state: 'cancelled',
      reason: 'Cancelled on Airbnb',
    });
    expect((await desiredSet(t, lock))!.entries.some((e) => e.secret === olgaCode)).toBe(false);
    // Listed again: booked again.
    feeds.body = feedOf([
      { ...reservation(), start: dayIn(LISBON, 41), end: dayIn(LISBON, 45) },
      { uid: 'HM9ZZZ@airbnb.com', start: dayIn(LISBON, 52), end: dayIn(LISBON, 55) },
    ]);
    expect(await sync()).toMatchObject({ ok: true, changed: 1 });
    expect((await feedStay('HM9ZZZ@airbnb.com')).state).toBe('approved');
  });

  it('applies a truly empty calendar only when the owner accepts it', async () => {
    feeds.body = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Airbnb Inc//EN\r\nEND:VCALENDAR\r\n';
    expect((await sync()).ok).toBe(false);
    const accepted = await sync(true);
    expect(accepted).toMatchObject({ ok: true, cancelled: 2 });
    expect(accepted.feed).toMatchObject({ events: 0, stays: 0, lastError: null });
    expect(await feedStay('HM4K2Q@airbnb.com')).toMatchObject({
      state: 'cancelled',
      reason: 'No longer on the Airbnb calendar',
    });
    const log = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', owner.portalId)
      .where('action', 'like', 'stay.import.%')
      .execute();
    expect(new Set(log.map((l) => l.action))).toEqual(
      new Set(['stay.import.add', 'stay.import.change', 'stay.import.cancel']),
    );
  });

  it('leaves a reservation the owner cancelled cancelled', async () => {
    feeds.body = feedOf([{ uid: 'OWNED@airbnb.com', start: dayIn(LISBON, 70), end: dayIn(LISBON, 72) }]);
    expect(await sync()).toMatchObject({ ok: true, added: 1 });
    const stay = await feedStay('OWNED@airbnb.com');
    expect(
      (
        await post(`/api3/device/${listingId}/request/${stay._id}`, {
          action: 'cancel',
          reason: 'Guest moved',
        })
      ).statusCode,
    ).toBe(200);
    feeds.body = feedOf([{ uid: 'OWNED@airbnb.com', start: dayIn(LISBON, 70), end: dayIn(LISBON, 73) }]);
    expect(await sync()).toMatchObject({ ok: true, added: 0, changed: 0 });
    expect((await feedStay('OWNED@airbnb.com')).state).toBe('cancelled');
  });

  it('reads due feeds in the periodic job, and refuses a second read of a feed being read (409)', async () => {
    feeds.body = feedOf([{ uid: 'JOB@airbnb.com', start: dayIn(LISBON, 80), end: dayIn(LISBON, 82) }]);
    const second = await post(`/api3/listing/${listingId}/ical/feed/new`, {
      name: 'Vrbo',
      url: `${base}/vrbo.ics`,
    });
    expect(second.statusCode).toBe(201);
    const importer = t.app.ical.importer;
    expect(await importer.runDue()).toBe(1);
    expect((await feedStay('JOB@airbnb.com')).state).toBe('approved');
    expect(await importer.runDue()).toBe(0);
    const held = await importer.hold(feedId, new Date());
    expect(held).not.toBeNull();
    const busy = await post(`/api3/listing/${listingId}/ical/feed/${feedId}/sync`, {});
    expect(busy.statusCode).toBe(409);
    await importer.release(feedId);
  });

  it('lists, edits and removes feeds; the removed feed’s stays stay', async () => {
    const listed: ListingIcal = (await get(`/api3/listing/${listingId}/ical`)).json();
    expect(listed.feeds.map((f) => f.name)).toEqual(['Airbnb', 'Vrbo']);
    const vrbo = listed.feeds[1]!;
    const edited = await post(`/api3/listing/${listingId}/ical/feed/${vrbo._id}`, {
      name: 'Vrbo (main)',
      url: `${base}/vrbo.ics`,
      mode: 'blocks',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Vrbo (main)', mode: 'blocks' });
    expect(
      (await post(`/api3/listing/${listingId}/ical/feed/${vrbo._id}`, { name: '', url: `${base}/vrbo.ics` }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await post(`/api3/listing/${listingId}/ical/feed/${crypto.randomUUID()}`, {
          name: 'X',
          url: `${base}/x.ics`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'DELETE',
          url: `/api3/listing/${listingId}/ical/feed/${vrbo._id}`,
          token: stranger.token,
        })
      ).statusCode,
    ).toBe(404);
    const removed = await t.request({
      method: 'DELETE',
      url: `/api3/listing/${listingId}/ical/feed/${vrbo._id}`,
      token: owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect((await feedStay('JOB@airbnb.com')).state).toBe('approved');
    expect((await get(`/api3/listing/${listingId}/ical`)).json().feeds).toHaveLength(1);
    expect((await get(`/api3/listing/${listingId}/ical`, stranger.token)).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api3/listing/${listingId}/ical` })).statusCode).toBe(401);
  });
});

describe('the guarded fetch', () => {
  const options = { timeoutMs: 1000, maxBytes: 5000, allowPrivateHosts: false };

  it('knows private, loopback, link-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '224.0.0.1',
      // Issue 16: IPv4-compatible (::/96), IPv4-mapped however spelled (::ffff:0:0/96: the IPv4
      // address decides), 6to4 (2002::/16), local-use NAT64 (64:ff9b:1::/48), Teredo (2001::/32).
      '::',
      '::7f00:1',
      '::127.0.0.1',
      '::a00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::ffff:0:a9fe:a9fe',
      '::ffff:10.0.0.1',
      '2002:7f00:1::1',
      '2002:808:808::1',
      '64:ff9b:1::a00:1',
      '64:ff9b:1:ffff::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses loopback and private addresses, named or literal, and redirects to them, unless allowed', async () => {
    const port = new URL(base).port;
    feeds.body = feedOf([]);
    for (const url of [
      `${base}/a.ics`,
      `http://localhost:${port}/a.ics`,
      `http://[::1]:${port}/a.ics`,
      'http://169.254.169.254/latest/meta-data/',
      'gopher://example.com/',
    ]) {
      await expect(fetchFeed(url, options), url).rejects.toBeInstanceOf(FeedFetchError);
    }
    expect((await fetchFeed(`${base}/a.ics`, { ...options, allowPrivateHosts: true })).status).toBe(200);
    // A redirect is checked again: from an allowed server to the metadata address.
    feeds.redirectTo = 'http://169.254.169.254/latest/';
    await expect(
      fetchFeed(`${base}/redirect`, { ...options, allowPrivateHosts: true, timeoutMs: 300 }),
    ).rejects.toBeInstanceOf(FeedFetchError);
  });

  it('stops at the deadline and at the size cap, and reads gzip', async () => {
    const allowed = { ...options, allowPrivateHosts: true };
    await expect(fetchFeed(`${base}/slow`, { ...allowed, timeoutMs: 200 })).rejects.toThrow(
      'No answer within',
    );
    feeds.body = feedOf(
      Array.from({ length: 100 }, (_, i) => ({ uid: `u${i}`, start: '2030-01-01', end: '2030-01-02' })),
    );
    await expect(fetchFeed(`${base}/big.ics`, allowed)).rejects.toThrow('larger than');
    const small = feedOf([{ uid: 'g', start: '2030-01-01', end: '2030-01-02' }]);
    feeds.body = small;
    const gz = await fetchFeed(`${base}/gzip`, allowed);
    expect(gz.status === 200 && gz.body).toBe(small);
    // Compressed small, large once inflated: the cap counts what it inflates to.
    feeds.body = 'A'.repeat(50_000);
    await expect(fetchFeed(`${base}/gzip`, allowed)).rejects.toThrow('larger than');
  });
});
