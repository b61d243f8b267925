import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FREQUENCIES, REPORT_KINDS, REPORT_SCHEDULES_PER_PORTAL, type Report } from '@latchkey/shared';
import { setPortalFlag } from '../src/base/feature-flags/feature-flags';
import { PeriodicJob } from '../src/base/jobs/periodic-job';
import { runReportSchedules } from '../src/features/reports/report-schedules';
import { makeMember, makeOwner } from './factories';
import { TestApp } from './test-app';

// Reports (issue 20, item 5) on a known fixture: two portals, locks in New York and Berlin, events
// inserted where the device link would store them.

/** The week the fixture's events fall in (Monday to Sunday; the portals are in UTC). */
const WEEK = { from: '2026-11-16', to: '2026-11-22' };

let t: TestApp;
let a: Awaited<ReturnType<typeof makePortal>>;
let b: Awaited<ReturnType<typeof makePortal>>;

async function makePortal(name: string) {
  const owner = await makeOwner(t, { portalName: name, firstName: 'Olga', lastName: name });
  const ada = await makeMember(t, owner.portalId, { firstName: 'Ada', lastName: 'Opener' });
  const ben = await makeMember(t, owner.portalId, { firstName: 'Ben', lastName: 'Without' });
  const post = async (url: string, payload: object) => {
    const response = await t.request({ method: 'POST', url, token: owner.token, payload });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.body}`);
    return response.json();
  };
  const newYork = (
    await post('/api3/portal/device/new', {
      name: `${name} door`,
      model: 'latchkey-sim',
      timeZone: 'America/New_York',
    })
  ).device._id as string;
  const berlin = (
    await post('/api3/portal/device/new', {
      name: `${name} gate`,
      model: 'latchkey-sim',
      timeZone: 'Europe/Berlin',
    })
  ).device._id as string;
  const group = (await post('/api3/portal/group', { name: 'Openers' }))._id as string;
  await t.request({ method: 'PUT', url: `/api3/user/${ada.userId}/device/${newYork}`, token: owner.token });
  return { owner, ada, ben, newYork, berlin, group, name };
}

/** Stores lock events as the device link does (device_events), in batches. */
async function insertEvents(
  portal: { owner: { portalId: string } },
  events: {
    deviceId: string;
    at: string;
    type: 'unlock' | 'denied' | 'battery_low';
    userId?: string | null;
    method?: string;
    reason?: string;
  }[],
) {
  const rows = events.map((event) => ({
    id: crypto.randomUUID(),
    portal_id: portal.owner.portalId,
    device_id: event.deviceId,
    event_id: crypto.randomUUID(),
    type: event.type,
    method: event.method ?? (event.type === 'battery_low' ? null : 'code'),
    credential_id: null,
    user_id: event.userId ?? null,
    reason: (event.reason ?? (event.type === 'denied' ? 'outside_schedule' : null)) as never,
    occurred_at: event.at,
    received_at: event.at,
  }));
  await t.app.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('device_events')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  });
}

const report = (token: string, body: object) =>
  t.request({ method: 'POST', url: '/api3/portal/report', token, payload: body });

beforeAll(async () => {
  t = await TestApp.start();
  a = await makePortal('Alpha');
  b = await makePortal('Bravo');
  await insertEvents(a, [
    // 15:30 UTC is 10:30 in New York; 15:31 UTC is 16:31 in Berlin.
    { deviceId: a.newYork, at: '2026-11-18T15:30:00.000Z', type: 'unlock', userId: a.ada.userId },
    { deviceId: a.berlin, at: '2026-11-18T15:31:00.000Z', type: 'denied', userId: a.ben.userId },
    {
      deviceId: a.newYork,
      at: '2026-11-20T08:00:00.000Z',
      type: 'unlock',
      userId: a.ada.userId,
      method: 'rfid',
    },
    // Outside the week, and not an entry.
    { deviceId: a.newYork, at: '2026-11-23T08:00:00.000Z', type: 'unlock', userId: a.ada.userId },
    { deviceId: a.berlin, at: '2026-11-19T08:00:00.000Z', type: 'battery_low' },
  ]);
  await insertEvents(b, [
    { deviceId: b.newYork, at: '2026-11-18T12:00:00.000Z', type: 'unlock', userId: b.ada.userId },
  ]);
});
afterAll(() => t.close());

describe('POST portal/report: entries', () => {
  it('lists the week’s openings and refusals on each lock’s clock, with the zone stated, and counts them per lock, person and day', async () => {
    const response = await report(a.owner.token, { kind: 'entries', period: WEEK });
    expect(response.statusCode).toBe(200);
    const body = response.json<Report>();
    expect(body.total).toBe(3);
    expect(body.period).toMatchObject({ from: WEEK.from, to: WEEK.to, timeZone: 'UTC' });
    expect(body.zones).toEqual(['America/New_York', 'Europe/Berlin']);
    expect(
      body.rows.map((row) => [row.time, row.zone, row.lock, row.person, row.result, row.method, row.reason]),
    ).toEqual([
      ['Nov 18, 2026, 10:30', 'America/New_York', 'Alpha door', 'Ada Opener', 'Opened', 'Access code', ''],
      [
        'Nov 18, 2026, 16:31',
        'Europe/Berlin',
        'Alpha gate',
        'Ben Without',
        'Refused',
        'Access code',
        'Outside schedule',
      ],
      ['Nov 20, 2026, 03:00', 'America/New_York', 'Alpha door', 'Ada Opener', 'Opened', 'Card', ''],
    ]);
    const [perLock, perPerson] = body.summaries;
    expect(perLock!.rows).toEqual([
      { lock: 'Alpha door', opened: 2, refused: 0 },
      { lock: 'Alpha gate', opened: 0, refused: 1 },
    ]);
    expect(perPerson!.rows).toEqual([
      { person: 'Ada Opener', opened: 2, refused: 0 },
      { person: 'Ben Without', opened: 0, refused: 1 },
    ]);
    expect(body.charts.entriesPerDay).toHaveLength(7);
    expect(body.charts.entriesPerDay.find((day) => day.day === '2026-11-18')).toEqual({
      day: '2026-11-18',
      opened: 1,
      denied: 1,
    });
    expect(JSON.stringify(body)).not.toContain('Bravo');
  });

  it('narrows to a lock, a person and a group (its locks and its people), and pages', async () => {
    const byLock = (
      await report(a.owner.token, { kind: 'entries', period: WEEK, filters: { deviceIds: [a.berlin] } })
    ).json<Report>();
    expect(byLock.rows.map((row) => row.lock)).toEqual(['Alpha gate']);
    expect(byLock.filters.locks).toEqual([{ _id: a.berlin, name: 'Alpha gate' }]);
    const byPerson = (
      await report(a.owner.token, { kind: 'entries', period: WEEK, filters: { userIds: [a.ada.userId] } })
    ).json<Report>();
    expect(byPerson.total).toBe(2);
    const paged = (
      await report(a.owner.token, { kind: 'entries', period: WEEK, skip: 2, limit: 1 })
    ).json<Report>();
    expect(paged.rows.map((row) => row.time)).toEqual(['Nov 20, 2026, 03:00']);
    expect(paged.total).toBe(3);
    // An empty group reaches no lock and nobody.
    const byGroup = (
      await report(a.owner.token, { kind: 'entries', period: WEEK, filters: { groupIds: [a.group] } })
    ).json<Report>();
    expect(byGroup.total).toBe(0);
  });

  it("refuses another portal's lock, group or person (404) and ids of nothing alike, before reading a row", async () => {
    for (const filters of [
      { deviceIds: [b.newYork] },
      { groupIds: [b.group] },
      { userIds: [b.ada.userId] },
      { deviceIds: [a.newYork, b.newYork] },
      { deviceIds: [crypto.randomUUID()] },
    ]) {
      for (const format of ['json', 'csv', 'pdf']) {
        const response = await report(a.owner.token, { kind: 'entries', period: WEEK, filters, format });
        expect(response.statusCode, JSON.stringify({ filters, format })).toBe(404);
        expect(response.body).not.toContain('Bravo');
      }
    }
  });

  it('refuses a basic user (403), a bad period (400) and a period over a year (400)', async () => {
    expect((await report(a.ada.token, { kind: 'entries' })).statusCode).toBe(403);
    expect(
      (await report(a.owner.token, { kind: 'entries', period: { from: '2026-11-22', to: '2026-11-16' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await report(a.owner.token, { kind: 'entries', period: { from: '2024-01-01', to: '2026-01-01' } }))
        .statusCode,
    ).toBe(400);
    expect((await report(a.owner.token, { kind: 'nope' })).statusCode).toBe(400);
  });

  it('is refused (403 feature_disabled) while platform staff have reports switched off for the portal', async () => {
    await setPortalFlag(t.app.db, a.owner.portalId, 'reports', false, a.owner.userId);
    try {
      const refused = await report(a.owner.token, { kind: 'entries', period: WEEK, format: 'csv' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('feature_disabled');
      // Another portal's reports are not affected.
      expect((await report(b.owner.token, { kind: 'entries', period: WEEK })).statusCode).toBe(200);
    } finally {
      await setPortalFlag(t.app.db, a.owner.portalId, 'reports', null, a.owner.userId);
    }
  });

  it('writes the CSV with formula-safe cells and only the portal’s rows', async () => {
    await t.app.db
      .updateTable('devices')
      .set({ name: '=HYPERLINK("x")' })
      .where('id', '=', a.berlin)
      .execute();
    try {
      const response = await report(a.owner.token, { kind: 'entries', period: WEEK, format: 'csv' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/csv');
      expect(response.headers['content-disposition']).toContain('entries-2026-11-16-to-2026-11-22.csv');
      const lines = response.body.trim().split('\r\n');
      expect(lines[0]).toBe('Time (lock clock),Time zone,Lock,Person,Result,How,Why refused,Instant (UTC)');
      expect(lines).toHaveLength(4);
      expect(lines[1]).toBe(
        '"Nov 18, 2026, 10:30",America/New_York,Alpha door,Ada Opener,Opened,Access code,,2026-11-18T15:30:00.000Z',
      );
      expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);
      expect(response.body).not.toContain('Bravo');
    } finally {
      await t.app.db.updateTable('devices').set({ name: 'Alpha gate' }).where('id', '=', a.berlin).execute();
    }
  });

  it('writes the PDF with its title, portal, period, zone, filters and rows (read back with pdftotext)', async () => {
    const response = await report(a.owner.token, {
      kind: 'entries',
      period: WEEK,
      format: 'pdf',
      filters: { deviceIds: [a.newYork] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const text = pdfText(response.rawPayload);
    if (text === null) return; // pdftotext (poppler-utils) not installed here; CI installs it
    expect(text).toContain('Entries per lock and person');
    expect(text).toContain('Portal: Alpha');
    expect(text).toContain('Period: Nov 16, 2026 – Nov 22, 2026');
    expect(text).toContain('UTC');
    expect(text).toContain('Locks: Alpha door');
    expect(text).toContain('Nov 18, 2026, 10:30');
    expect(text).toContain("Times are on each lock's clock: America/New_York");
    expect(text).not.toContain('Alpha gate');
    expect(text).not.toContain('Bravo');
  });
});

describe('POST portal/report: the other reports', () => {
  it('access matrix: who can open each lock now, by the access engine', async () => {
    const body = (await report(a.owner.token, { kind: 'access' })).json<Report>();
    const ada = body.rows.find((row) => row.holder === 'Ada Opener');
    expect(ada).toMatchObject({
      lock: 'Alpha door',
      zone: 'America/New_York',
      canOpenNow: 'Yes',
      credentials: 'App',
    });
    expect(body.rows.some((row) => row.holder === 'Ben Without')).toBe(false);
    expect(JSON.stringify(body)).not.toContain('Bravo');
  });

  it('lock health: battery, last seen, hours offline from last seen, sync failures', async () => {
    await t.app.db
      .updateTable('devices')
      .set({ battery: 12, online: 0, last_seen_at: '2026-11-21T00:00:00.000Z' })
      .where('id', '=', a.berlin)
      .execute();
    const body = (await report(a.owner.token, { kind: 'health', period: WEEK })).json<Report>();
    const gate = body.rows.find((row) => row.lock === 'Alpha gate');
    expect(gate).toMatchObject({
      zone: 'Europe/Berlin',
      status: 'Offline',
      battery: 12,
      lowBattery: 'Yes',
      lastSeen: 'Nov 21, 2026, 01:00',
      // From Nov 21 00:00 UTC to the week's end (Nov 23 00:00 UTC): 48 hours.
      offlineHours: 48,
      batteryWarnings: 1,
    });
    expect(body.notes.join(' ')).toContain('no history of online and offline is stored');
    expect(body.charts.syncFailuresPerLock.map((x) => x.lock)).toEqual(['Alpha door', 'Alpha gate']);
  });

  it('people without access or with expired credentials', async () => {
    const card = await t.request({
      method: 'POST',
      url: '/api3/portal/rfid',
      token: a.owner.token,
      payload: { uid: 'AB12CD34', userId: a.ada.userId, name: 'Old card' },
    });
    expect(card.statusCode).toBe(201);
    await t.app.db
      .updateTable('credentials')
      .set({ valid_until: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', card.json()._id)
      .execute();
    const body = (await report(a.owner.token, { kind: 'people' })).json<Report>();
    const byName = new Map(body.rows.map((row) => [row.person, row]));
    expect(byName.get('Ben Without')).toMatchObject({ problem: 'No access', locks: 0 });
    expect(byName.get('Ada Opener')).toMatchObject({ problem: 'Expired credentials', locks: 1 });
    expect(String(byName.get('Ada Opener')!.expired)).toContain('ended Jan 1, 2026, 00:00 UTC');
    expect(JSON.stringify(body)).not.toContain('Bravo');
  });
});

describe('scheduled reports', () => {
  it('mails each schedule once per period, with two servers running the job, to the portal’s admins only', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api3/portal/report/schedules',
      token: a.owner.token,
      payload: { kind: 'entries', frequency: 'weekly' },
    });
    expect(created.statusCode).toBe(201);
    const schedule = created.json();
    expect(schedule.recipients.map((r: { email: string }) => r.email)).toEqual([a.owner.email]);
    // A basic user, or another portal's person, is no recipient.
    for (const recipientIds of [[a.ada.userId], [b.owner.userId]]) {
      const refused = await t.request({
        method: 'POST',
        url: '/api3/portal/report/schedules',
        token: a.owner.token,
        payload: { kind: 'entries', frequency: 'weekly', recipientIds },
      });
      expect(refused.statusCode).toBe(404);
    }
    // The change log has it.
    const log = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', schedule._id)
      .execute();
    expect(log.map((row) => row.action)).toEqual(['report.schedule.create']);
    // Pretend it was made in the week before the fixture's week: the fixture's week is the next one due.
    await t.app.db
      .updateTable('report_schedules')
      .set({ last_period: 'week of 2026-11-09' })
      .where('id', '=', schedule._id)
      .execute();

    const mailsTo = () =>
      t.app.db
        .selectFrom('mail_outbox')
        .select(['subject', 'attachments_json', 'text_body'])
        .where('template', '=', 'scheduled_report')
        .where('to_address', '=', a.owner.email)
        .execute();
    const monday = new Date('2026-11-23T09:00:00.000Z');
    // Two servers on one database: each ticks its own PeriodicJob over the same rows.
    const jobs = [1, 2].map(
      () =>
        new PeriodicJob(t.app.db, t.app.log, {
          name: 'reports.schedules.test',
          everyMs: 60_000,
          run: ({ now }) => runReportSchedules(t.app.db, 'http://portal.test', now),
        }),
    );
    const ran = await Promise.all(jobs.map((job) => job.runIfDue(monday)));
    expect(ran.filter(Boolean)).toHaveLength(1);
    // A second run in the same week (another period of the job) sends nothing again.
    expect(
      await runReportSchedules(t.app.db, 'http://portal.test', new Date('2026-11-25T09:00:00.000Z')),
    ).toBe(0);
    const mails = await mailsTo();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Entries per lock and person');
    const files = JSON.parse(mails[0]!.attachments_json!) as { filename: string; base64: string }[];
    expect(files.map((file) => file.filename)).toEqual([
      'entries-2026-11-16-to-2026-11-22.csv',
      'entries-2026-11-16-to-2026-11-22.pdf',
    ]);
    const csv = Buffer.from(files[0]!.base64, 'base64').toString('utf8');
    expect(csv.trim().split('\r\n')).toHaveLength(4);
    expect(csv).not.toContain('Bravo');
    // The next week is sent the next Monday.
    expect(
      await runReportSchedules(t.app.db, 'http://portal.test', new Date('2026-11-30T09:00:00.000Z')),
    ).toBe(1);
    expect(await mailsTo()).toHaveLength(2);

    // Listed, and another portal can neither see nor delete it.
    const listed = await t.request({
      method: 'GET',
      url: '/api3/portal/report/schedules',
      token: a.owner.token,
    });
    expect(listed.json().items.map((item: { _id: string }) => item._id)).toContain(schedule._id);
    const foreign = await t.request({
      method: 'GET',
      url: '/api3/portal/report/schedules',
      token: b.owner.token,
    });
    expect(foreign.json().items.map((item: { _id: string }) => item._id)).not.toContain(schedule._id);
    const foreignDelete = await t.request({
      method: 'DELETE',
      url: `/api3/portal/report/schedules/${schedule._id}`,
      token: b.owner.token,
    });
    expect(foreignDelete.statusCode).toBe(404);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api3/portal/report/schedules/${schedule._id}`,
      token: a.owner.token,
    });
    expect(deleted.statusCode).toBe(204);
  });

  it(`keeps at most ${REPORT_SCHEDULES_PER_PORTAL} a portal, the same report to the same admins once, and lets an API key schedule one for named admins`, async () => {
    const schedule = (payload: object, token: string = b.owner.token) =>
      t.request({ method: 'POST', url: '/api3/portal/report/schedules', token, payload });
    const lockSets = [[b.berlin, b.newYork], [], [b.newYork], [b.berlin]];
    const made: string[] = [];
    outer: for (const deviceIds of lockSets) {
      for (const kind of REPORT_KINDS) {
        for (const frequency of REPORT_FREQUENCIES) {
          if (made.length === REPORT_SCHEDULES_PER_PORTAL - 1) break outer;
          const created = await schedule({ kind, frequency, filters: { deviceIds } });
          expect(created.statusCode, created.body).toBe(201);
          made.push(created.json()._id);
        }
      }
    }
    // The same report to the same admin, the locks named in another order: refused, nothing stored.
    const same = await schedule({
      kind: REPORT_KINDS[0],
      frequency: REPORT_FREQUENCIES[0],
      filters: { deviceIds: [b.newYork, b.berlin] },
      recipientIds: [b.owner.userId],
    });
    expect(same.statusCode, same.body).toBe(409);
    expect(same.json().error.message).toBe('This report is already scheduled for these admins');

    // An API key has no mailbox: it names the admins (400 without), and the schedule is no one's.
    const key = await t.request({
      method: 'POST',
      url: '/api3/portal/apikeys',
      token: b.owner.token,
      payload: { name: 'Reports', scopes: ['reports:write'] },
    });
    const secret = key.json().secret as string;
    const unnamed = await schedule(
      { kind: 'health', frequency: 'monthly', filters: { userIds: [b.ada.userId] } },
      secret,
    );
    expect(unnamed.statusCode, unnamed.body).toBe(400);
    const byKey = await schedule(
      {
        kind: 'health',
        frequency: 'monthly',
        filters: { userIds: [b.ada.userId] },
        recipientIds: [b.owner.userId],
      },
      secret,
    );
    expect(byKey.statusCode, byKey.body).toBe(201);
    made.push(byKey.json()._id);
    const row = await t.app.db
      .selectFrom('report_schedules')
      .select('created_by')
      .where('id', '=', byKey.json()._id)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBeNull();

    // The portal is full now.
    const over = await schedule({
      kind: 'people',
      frequency: 'monthly',
      filters: { userIds: [b.ben.userId] },
    });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json().error.message).toContain(`at most ${REPORT_SCHEDULES_PER_PORTAL}`);
    const listed = await t.request({
      method: 'GET',
      url: '/api3/portal/report/schedules',
      token: b.owner.token,
    });
    expect(listed.json().items).toHaveLength(REPORT_SCHEDULES_PER_PORTAL);

    for (const id of made) {
      const stopped = await t.request({
        method: 'DELETE',
        url: `/api3/portal/report/schedules/${id}`,
        token: b.owner.token,
      });
      expect(stopped.statusCode).toBe(204);
    }
  });
});

describe('a CSV of 100,000 rows', () => {
  it('streams in bounded memory: the heap grows far less than the file', async () => {
    const lock = a.newYork;
    const start = Date.parse('2026-10-01T00:00:00.000Z');
    const events = Array.from({ length: 100_000 }, (_, i) => ({
      deviceId: lock,
      at: new Date(start + i * 20_000).toISOString(),
      type: 'unlock' as const,
      userId: a.ada.userId,
    }));
    await insertEvents(a, events);
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let bytes = 0;
    let chunks = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api3/portal/report',
          headers: { authorization: `Bearer ${a.owner.token}`, 'content-type': 'application/json' },
        },
        (response) => {
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (++chunks % 50 === 0) {
              gc();
              peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
            }
          });
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(
        JSON.stringify({
          kind: 'entries',
          format: 'csv',
          period: { from: '2026-10-01', to: '2026-10-31' },
          filters: { deviceIds: [lock] },
        }),
      );
    });
    expect(status).toBe(200);
    // 100,000 rows and the header (at 20 s apart from Oct 1, all inside October).
    expect(bytes).toBeGreaterThan(100_000 * 80);
    expect(chunks).toBeGreaterThan(20);
    // A page of 1,000 rows in flight, not the file: well under a fifth of its size.
    expect(peak).toBeLessThan(bytes / 5);
  }, 120_000);
});

/** The text of a PDF through pdftotext (poppler-utils), or null when it is not installed. */
function pdfText(pdf: Buffer): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-report-'));
  try {
    const file = path.join(dir, 'report.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
