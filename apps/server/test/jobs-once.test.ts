import crypto from 'node:crypto';
import { deviceTopic, type LiveServerMessage } from '@latchkey/shared';
import mqtt from 'mqtt';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../src/base/mail/mail.repository';
import { claimDue } from '../src/base/jobs/claim-due';
import { LiveClient, listen } from './live-client';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * Scale-out without double work: two servers on one database (PostgreSQL with TEST_DATABASE_URL,
 * else one SQLite file), as behind a load balancer, run every background job at the same moments.
 * Each due item is handled once: every queued mail reaches a real SMTP server once, a silent lock is
 * marked offline (and shown so on the live channel) once, an offline alert is stored and mailed once.
 */

/** Mail as the SMTP server received it, by recipient. */
const received = new Map<string, number>();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    stream.resume();
    stream.on('end', () => {
      for (const to of session.envelope.rcptTo) received.set(to.address, (received.get(to.address) ?? 0) + 1);
      // A slow server, so the two senders' runs overlap.
      setTimeout(callback, 5);
    });
  },
});

let first: TestApp;
let second: TestApp;
let firstLive: string;
let secondLive: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as { port: number };
  const env = { SMTP_URL: `smtp://127.0.0.1:${port}` };
  first = await TestApp.start(env);
  second = await TestApp.start({
    ...env,
    DATA_DIR: first.app.config.DATA_DIR,
    ...(first.app.config.DATABASE_URL && { DATABASE_URL: first.app.config.DATABASE_URL }),
  });
  firstLive = await listen(first);
  secondLive = await listen(second);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

const both = () => [first, second];

/**
 * Runs work on both servers at once. On SQLite both servers live in this one process and
 * better-sqlite3 waits for the file lock synchronously, so a transaction waiting on one connection
 * would stall the other's: there (one writer anyway) they take turns.
 */
async function atOnce<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  if (first.app.dialect === 'postgres') return Promise.all(tasks.map((task) => task()));
  const results: T[] = [];
  for (const task of tasks) results.push(await task());
  return results;
}
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

/** A portal admin (their sign-up mail already sent) and a lock that reported once, then went silent. */
async function portalWithSilentLocks(count: number) {
  const admin = await first.signUp();
  await first.app.mail.sendDue();
  const locks: string[] = [];
  for (let i = 0; i < count; i++) {
    const added = await first.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: `Door ${i}`, model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(added.statusCode).toBe(201);
    const { device, deviceSecret } = added.json();
    // A real lock on the first server's broker, with no last will: it reports, then its connection
    // ends and the broker tells nobody. Only the heartbeat sweep can find it gone.
    const lock = await mqtt.connectAsync(first.app.deviceLink.transport.url, {
      clientId: device._id,
      username: device._id,
      password: deviceSecret,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    await lock.publishAsync(
      deviceTopic(device._id, 'status'),
      JSON.stringify({
        online: true,
        battery: 80,
        lockState: 'locked',
        firmware: 'test-1.0',
        credentialsVersion: 0,
        ts: new Date().toISOString(),
      }),
      { qos: 1 },
    );
    await lock.endAsync(true);
    locks.push(device._id as string);
  }
  await waitFor(async () => (await onlineLocks(admin)).length === count, 'the locks online');
  return { admin, locks };
}

async function onlineLocks(admin: { token: string }) {
  const response = await first.request({
    method: 'GET',
    url: '/api3/portal/devices?limit=100',
    token: admin.token,
  });
  return (response.json().items as { _id: string; online: boolean }[]).filter((d) => d.online);
}

/**
 * What each live socket received up to now: a marker published after the work on each server
 * arrives after everything published before it, so nothing is still on its way.
 */
async function settled(clients: LiveClient[], servers: TestApp[], portalId: string) {
  const markers = servers.map(() => crypto.randomUUID());
  await Promise.all(
    servers.map((server, i) =>
      server.app.live.publish(portalId, {
        type: 'notification',
        notification: {
          _id: markers[i]!,
          at: new Date().toISOString(),
          kind: 'alert',
          title: 'marker',
          message: '',
          deviceId: null,
        },
      }),
    ),
  );
  for (const [i, client] of clients.entries()) {
    await client.waitFor(
      (m) => m.type === 'notification' && m.notification._id === markers[i],
      'the marker',
      { timeoutMs: 10_000 },
    );
  }
}

const wentOffline = (m: LiveServerMessage, deviceId: string) =>
  m.type === 'device.status' && m.device._id === deviceId && m.device.online === false;

describe('two servers, one database', () => {
  it('sends every queued mail once, to a real SMTP server', async () => {
    const addresses = Array.from(
      { length: 45 },
      (_, i) => `once-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`,
    );
    for (const to of addresses) {
      await enqueueMail(first.app.db, {
        portalId: null,
        template: 'test',
        to,
        subject: 'Once',
        text: 'Once.',
        html: '<p>Once.</p>',
      });
    }
    const sent = await Promise.all([
      first.app.mail.sendDue(),
      second.app.mail.sendDue(),
      second.app.mail.sendDue(),
      first.app.mail.sendDue(),
    ]);
    // Calls on one server share its run; the two runs split the mail between them.
    expect(sent[0]! + sent[1]!).toBe(addresses.length);
    expect(addresses.map((to) => received.get(to))).toEqual(addresses.map(() => 1));
    const rows = await first.app.db
      .selectFrom('mail_outbox')
      .select(['sent_at', 'attempts'])
      .where('to_address', 'in', addresses)
      .execute();
    expect(rows.every((row) => row.sent_at !== null && row.attempts === 1)).toBe(true);
    // Nothing is left for a later run.
    expect(await Promise.all(both().map((server) => server.app.mail.sendDue()))).toEqual([0, 0]);
  });

  it('gives a claimed item to nobody else until its lease ends, then to one claimer', async () => {
    const to = `lease-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const id = await enqueueMail(first.app.db, {
      portalId: null,
      template: 'test',
      to,
      subject: 'Lease',
      text: '.',
      html: '.',
    });
    const claim = (server: TestApp, now: Date) =>
      claimDue(server.app.db, {
        table: 'mail_outbox',
        key: 'id',
        dueAt: 'next_attempt_at',
        where: (eb) => eb('to_address', '=', to),
        limit: 10,
        leaseMs: 60_000,
        now,
      });
    // The first server claims it and, say, dies before sending.
    expect((await claim(first, new Date())).map((row) => row.id)).toEqual([id]);
    expect(await claim(second, new Date())).toEqual([]);
    expect(await second.app.mail.sendDue()).toBe(0);
    // After the lease, exactly one of the servers claiming at once gets it.
    const later = minutesFromNow(2);
    const claims = await Promise.all([claim(first, later), claim(second, later)]);
    expect(claims.flat().map((row) => row.id)).toEqual([id]);
  });

  it('marks each silent lock offline once, and shows it once on the live channel', async () => {
    const { admin, locks } = await portalWithSilentLocks(6);
    const clients = [await LiveClient.open(firstLive), await LiveClient.open(secondLive)];
    try {
      for (const client of clients) await client.join(admin.token, admin.portalId);
      // Both servers sweep at the same moment, past the heartbeat timeout, several times over.
      const later = minutesFromNow(5);
      const marked = await Promise.all(
        [first, second, first, second].map((server) => server.app.deviceLink.markSilentLocksOffline(later)),
      );
      expect(marked.reduce((sum, n) => sum + n, 0)).toBe(locks.length);
      expect(await onlineLocks(admin)).toEqual([]);
      await settled(clients, both(), admin.portalId);
      for (const deviceId of locks) {
        const shown = clients.flatMap((client) => client.messages.filter((m) => wentOffline(m, deviceId)));
        expect(shown, deviceId).toHaveLength(1);
      }
    } finally {
      for (const client of clients) client.close();
    }
  });

  it('runs a periodic job on one server per period', async () => {
    const now = minutesFromNow(60);
    const ran = await atOnce(both().map((server) => () => server.app.alerts.runOfflineSweep(now)));
    expect(ran.filter(Boolean)).toHaveLength(1);
    // Within the period nobody runs it again; the next period, one server does.
    expect(await second.app.alerts.runOfflineSweep(new Date(now.getTime() + 1000))).toBe(false);
    const next = new Date(now.getTime() + 61_000);
    const ranNext = await atOnce(both().map((server) => () => server.app.alerts.runOfflineSweep(next)));
    expect(ranNext.filter(Boolean)).toHaveLength(1);
  });

  it('stores and mails an offline alert once, whichever servers sweep', async () => {
    const { admin, locks } = await portalWithSilentLocks(2);
    const mailedBefore = received.get(admin.email) ?? 0;
    // The heartbeat sweep finds them gone (on either server); the default rule: offline 30 minutes.
    await Promise.all(
      both().map((server) => server.app.deviceLink.markSilentLocksOffline(minutesFromNow(5))),
    );
    const later = minutesFromNow(31);
    await atOnce([first, second, second, first].map((server) => () => server.app.alerts.sweepOffline(later)));
    const alerts = await first.app.db
      .selectFrom('notifications')
      .select(['device_id'])
      .where('portal_id', '=', admin.portalId)
      .where('kind', '=', 'offline')
      .execute();
    expect(alerts.map((a) => a.device_id).sort()).toEqual([...locks].sort());
    await Promise.all(both().map((server) => server.app.mail.sendDue()));
    expect(received.get(admin.email)).toBe(mailedBefore + locks.length);
  });
});

describe('the offline alert sweep as a job', () => {
  it('takes what became due since its last run: locks that crossed the rule, rules made since', async () => {
    const { admin, locks } = await portalWithSilentLocks(3);
    const [early, late, marked] = locks as [string, string, string];
    const alerted = async () =>
      (
        await first.app.db
          .selectFrom('notifications')
          .select('device_id')
          .where('portal_id', '=', admin.portalId)
          .where('kind', '=', 'offline')
          .execute()
      ).map((n) => n.device_id);
    // A job timeline of its own, a day ahead of the other tests' periods.
    const base = Date.now() + 24 * 60 * 60_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const lastSeen = (
      deviceId: string,
      seenAt: string,
      online: 0 | 1,
      changedAt = new Date().toISOString(),
    ) =>
      first.app.db
        .updateTable('devices')
        .set({ last_seen_at: seenAt, online, updated_at: changedAt })
        .where('id', '=', deviceId)
        .execute();
    const run = (server: TestApp, minutes: number) =>
      server.app.alerts.runOfflineSweep(new Date(base + minutes * 60_000));
    expect(await run(first, 0)).toBe(true);
    // After that run: one lock crosses the rule's 30 minutes; one still shows online, as if the
    // heartbeat sweep had not run for a while; one goes silent later.
    await lastSeen(early, at(-29), 0);
    await lastSeen(marked, at(-40), 1);
    await lastSeen(late, at(10), 0);
    expect(await run(second, 2)).toBe(true);
    expect(await alerted()).toEqual([early]);
    // The heartbeat sweep marks the lock offline long after it crossed: the next run takes it.
    await lastSeen(marked, at(-40), 0, at(3));
    expect(await run(first, 4)).toBe(true);
    expect((await alerted()).sort()).toEqual([early, marked].sort());
    // The last one crosses before the next run.
    expect(await run(second, 45)).toBe(true);
    expect((await alerted()).sort()).toEqual([...locks].sort());
  });
});
