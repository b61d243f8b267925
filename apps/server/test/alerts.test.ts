import crypto from 'node:crypto';
import type { AlertRule, NotificationsPage } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * Alert rules end to end: lock messages go through the device link exactly as they come from the
 * broker (`deviceLink.handle`), the rules fire, and the notification list, the outbox and the read
 * state show it.
 */

describe('alerts', () => {
  let t: TestApp;
  let admin: { token: string; email: string; portalId: string };
  let member: { token: string; userId: string };
  let lockId: string;

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, token = admin.token) =>
    t.request({ method, url: `/api3/${url}`, token, portal: admin.portalId, ...(payload && { payload }) });

  /** A message from the lock, handled as the broker hands it over. */
  const fromLock = (topic: 'events' | 'status', body: object) =>
    t.app.deviceLink.handle({ deviceId: lockId, topic, payload: Buffer.from(JSON.stringify(body)) });
  const lockEvent = (type: string, extra: object = {}) =>
    fromLock('events', {
      eventId: crypto.randomUUID(),
      ts: new Date().toISOString(),
      type,
      method: type === 'tamper' ? null : 'code',
      credentialId: null,
      reason: type === 'denied' ? 'unknown_credential' : null,
      commandId: null,
      ...extra,
    });
  const status = (battery: number) =>
    fromLock('status', {
      online: true,
      battery,
      lockState: 'locked',
      firmware: 't-1',
      credentialsVersion: 0,
      ts: new Date().toISOString(),
    });
  const notifications = async () => (await api('GET', 'portal/notifications')).json<NotificationsPage>();
  const rules = async () => (await api('GET', 'portal/alerts/rules')).json<AlertRule[]>();

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
    const owner = await t.signUp();
    admin = { token: owner.token, email: owner.email, portalId: owner.portalId };
    const person = await t.signUp({ firstName: 'Mia', lastName: 'Stone' });
    await t.addMember(admin.portalId, person.userId, 'user');
    member = { token: person.token, userId: person.userId };
    const created = await api('POST', 'portal/device/new', {
      name: 'Gate',
      model: 'latchkey-sim',
      // Not UTC: alert texts give times on the lock's clock, labelled with its zone.
      timeZone: 'Europe/Rome',
    });
    lockId = created.json().device._id;
  });
  afterAll(() => t.close());

  it('gives a new portal the low-battery, tamper and offline rules, mailed to the admins', async () => {
    const defaults = (await rules()).map((r) => [r.kind, r.enabled, r.email, r.minutes]);
    expect(defaults.sort()).toEqual([
      ['low_battery', true, true, null],
      ['offline', true, true, 30],
      ['tamper', true, true, null],
    ]);
  });

  it('answers 401 without a session, 403 to a basic user, 400 with the rule that failed, 404 for ids not in the portal', async () => {
    expect((await t.request({ method: 'GET', url: '/api3/portal/alerts/rules' })).statusCode).toBe(401);
    expect((await api('GET', 'portal/alerts/rules', undefined, member.token)).statusCode).toBe(403);
    expect((await api('GET', 'portal/notifications', undefined, member.token)).statusCode).toBe(403);

    const noMinutes = await api('POST', 'portal/alerts/rules', { kind: 'offline', name: 'Gone' });
    expect(noMinutes.statusCode).toBe(400);
    expect(noMinutes.json().error.message).toMatch(/minutes.*required for an offline rule/);
    const tooMany = await api('POST', 'portal/alerts/rules', {
      kind: 'denied_attempts',
      name: 'Guessing',
      count: 0,
      minutes: 5,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/count.*at least 1/);
    const foreignLock = await api('POST', 'portal/alerts/rules', {
      kind: 'tamper',
      name: 'Elsewhere',
      deviceIds: ['no-such-lock'],
    });
    expect(foreignLock.statusCode).toBe(404);
    expect(foreignLock.json().error.message).toMatch(/Lock not found/);
    const stranger = await t.signUp();
    const notMember = await api('POST', 'portal/alerts/rules', {
      kind: 'user_access',
      name: 'Watch',
      userId: stranger.userId,
    });
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json().error.message).toMatch(/Person not found/);
    const before = await rules();
    expect(before).toHaveLength(3);

    // Another portal's rule is not found here.
    const theirs = (
      await t.request({ method: 'GET', url: '/api3/portal/alerts/rules', token: stranger.token })
    ).json<AlertRule[]>()[0]!;
    expect(
      (await api('POST', `portal/alerts/rules/${theirs._id}`, { kind: 'tamper', name: 'x' })).statusCode,
    ).toBe(404);
    expect((await api('DELETE', `portal/alerts/rules/${theirs._id}`)).statusCode).toBe(404);
  });

  it('adds, saves and deletes a rule, each in the change log', async () => {
    const created = await api('POST', 'portal/alerts/rules', {
      kind: 'tamper',
      name: 'Gate forced',
      deviceIds: [lockId],
      minutes: 99, // not used by a tamper rule: dropped
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      kind: 'tamper',
      devices: [{ _id: lockId, name: 'Gate' }],
      minutes: null,
    });
    const id = created.json()._id as string;
    const saved = await api('POST', `portal/alerts/rules/${id}`, {
      kind: 'tamper',
      name: 'Gate forced!',
      enabled: false,
    });
    expect(saved.json()).toMatchObject({ name: 'Gate forced!', enabled: false, devices: [] });
    expect((await api('DELETE', `portal/alerts/rules/${id}`)).statusCode).toBe(204);
    const log = (await api('GET', `portal/audit?filterBy=entityId&filterValue=${id}`)).json();
    // Newest first; the three changes may share a millisecond, whose entries have no order among them.
    const entries = log.items as { action: string; createdAt: string }[];
    expect(entries.map((e) => e.action).sort()).toEqual([
      'alert_rule.create',
      'alert_rule.delete',
      'alert_rule.update',
    ]);
    const times = entries.map((e) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('stores a tamper alert once, marks it unread, and mails the admins', async () => {
    await lockEvent('tamper');
    // The page's rows, total and unread count are separate reads: on PostgreSQL one can see the
    // alert's commit and another not yet, so wait until all three do.
    const page = await waitFor(async () => {
      const answer = await notifications();
      return answer.items.length > 0 && answer.total > 0 && answer.unread > 0 ? answer : undefined;
    }, 'the tamper alert');
    expect(page.items[0]).toMatchObject({
      kind: 'tamper',
      title: 'Tamper alarm at Gate',
      device: { _id: lockId, name: 'Gate' },
      unread: true,
    });
    expect(page.unread).toBe(1);
    const mail = await listMailTo(t.app.db, admin.email);
    expect(mail.find((m) => m.template === 'alert')).toMatchObject({
      subject: 'Latchkey alert: Tamper alarm at Gate',
    });
    expect(mail.find((m) => m.template === 'alert')!.text_body).toContain('/app/notificationAndAlert');

    const read = await api('POST', 'portal/notifications/read');
    expect(read.statusCode).toBe(200);
    const after = await notifications();
    expect(after.unread).toBe(0);
    expect(after.items[0]!.unread).toBe(false);
  });

  it('alerts once when refusals at a lock reach the count within the minutes', async () => {
    const rule = (
      await api('POST', 'portal/alerts/rules', {
        kind: 'denied_attempts',
        name: 'Guessing',
        count: 3,
        minutes: 10,
      })
    ).json<AlertRule>();
    const denied = async () => (await notifications()).items.filter((n) => n.ruleId === rule._id);
    await lockEvent('denied');
    await lockEvent('denied');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await denied()).toHaveLength(0);
    await lockEvent('denied');
    await waitFor(async () => (await denied()).length === 1, 'the denied-attempts alert');
    await lockEvent('denied');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await denied()).toHaveLength(1);
    expect((await denied())[0]!.title).toBe('3 refused attempts at Gate');
  });

  it("tells when a chosen person opens a lock, and no one else's openings", async () => {
    const rule = (
      await api('POST', 'portal/alerts/rules', { kind: 'user_access', name: 'Mia', userId: member.userId })
    ).json<AlertRule>();
    expect(rule.user).toEqual({ _id: member.userId, name: 'Mia Stone' });
    await lockEvent('unlock', { method: 'remote', credentialId: `remote:${crypto.randomUUID()}` });
    await lockEvent('unlock', { method: 'remote', credentialId: `remote:${member.userId}` });
    const alert = await waitFor(
      async () => (await notifications()).items.find((n) => n.ruleId === rule._id),
      'the person alert',
    );
    expect(alert.title).toBe('Mia Stone opened Gate');
    expect(alert.message).toMatch(
      /^Opened from the app at \w{3} \d{1,2}, \d{4}, \d{2}:\d{2} Europe\/Rome\.$/,
    );
    expect((await notifications()).items.filter((n) => n.ruleId === rule._id)).toHaveLength(1);
  });

  it("alerts when the battery falls to the lock's level, not again while it stays low", async () => {
    const lowBattery = async () => (await notifications()).items.filter((n) => n.kind === 'low_battery');
    await status(80);
    await status(15);
    await waitFor(async () => (await lowBattery()).length === 1, 'the low-battery alert');
    await status(12);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lowBattery()).toHaveLength(1);
    expect((await lowBattery())[0]!.message).toMatch(/Battery at 15%/);
  });

  it('alerts once per offline period when a lock stays offline longer than the rule says', async () => {
    await status(90);
    await fromLock('status', { online: false });
    const offline = async () => (await notifications()).items.filter((n) => n.kind === 'offline');
    expect(await t.app.alerts.sweepOffline(new Date(Date.now() + 10 * 60_000))).toBe(0);
    expect(await t.app.alerts.sweepOffline(new Date(Date.now() + 31 * 60_000))).toBe(1);
    expect(await t.app.alerts.sweepOffline(new Date(Date.now() + 45 * 60_000))).toBe(0);
    expect((await offline())[0]!.title).toBe('Gate has been offline for over 30 minutes');
    expect((await offline())[0]!.message).toMatch(/^Last heard from at .+, \d{2}:\d{2} Europe\/Rome\.$/);
    // Back, then gone again: a new period, a new alert.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await status(90);
    await fromLock('status', { online: false });
    expect(await t.app.alerts.sweepOffline(new Date(Date.now() + 31 * 60_000))).toBe(1);
    expect(await offline()).toHaveLength(2);
  });
});
