import { personName as sharedPersonName } from '@latchkey/shared';
import crypto from 'node:crypto';
import type {
  AlertRule,
  AlertRuleInput,
  Device,
  DeviceEvent,
  LiveNotification,
  NotificationsPage,
  NotificationsQuery,
} from '@latchkey/shared';
import { formatDateTime } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { AlertRuleRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevices } from '../devices/devices.repository';
import { alertMail } from '../../base/mail/mail.templates';
import { sendMail } from '../../base/mail/send-mail';
import { findMember, findMembers } from '../../base/tenancy/memberships.repository';
import {
  countDenialsSince,
  countNotificationsSince,
  deleteRule,
  findCommandAction,
  findReadAt,
  findRule,
  insertNotificationOnce,
  insertRule,
  listAdminEmails,
  listCommandsExpiredUnanswered,
  listCredentialNames,
  listEnabledRules,
  listEnabledRulesOfKinds,
  listLocksOfflineSince,
  listNotifications,
  listRules,
  saveReadAt,
  updateRule,
} from './alerts.repository';
import { storeNotice, subjectOf, type LockRefusal, type Notice } from './notices';

/**
 * "Nov 24, 2026, 16:17 Europe/Rome": a time in an alert's text and mail, on the lock's clock and
 * labelled with its zone (issue 19, item 4: a lock's times on the lock's clock).
 */
const lockMinute = (iso: string, timeZone: string) => formatDateTime(iso, timeZone, { zone: true });

/** How a person opened a lock, after "Opened". */
const HOW_OPENED: Record<string, string> = {
  remote: 'from the app',
  qr: 'with their QR code',
  code: 'with their code',
  rfid: 'with their card',
  fingerprint: 'with their fingerprint',
  key: 'with a key',
};

const deviceIdsOf = (row: AlertRuleRow) => JSON.parse(row.device_ids_json) as string[];
const personName = (m: { first_name: string; last_name: string; email: string }) =>
  sharedPersonName(m.first_name, m.last_name, m.email);

async function toRules(db: Database, portalId: string, rows: AlertRuleRow[]): Promise<AlertRule[]> {
  const deviceIds = [...new Set(rows.flatMap(deviceIdsOf))];
  const userIds = [...new Set(rows.flatMap((row) => (row.user_id ? [row.user_id] : [])))];
  const [devices, members] = await Promise.all([
    deviceIds.length > 0 ? findDevices(db, portalId, deviceIds) : [],
    userIds.length > 0 ? findMembers(db, portalId, userIds) : [],
  ]);
  const deviceById = new Map(devices.map((d) => [d.id, { _id: d.id, name: d.name }]));
  const memberById = new Map(members.map((m) => [m.id, { _id: m.id, name: personName(m) }]));
  return rows.map((row) => ({
    _id: row.id,
    kind: row.kind,
    name: row.name,
    enabled: Number(row.enabled) === 1,
    email: Number(row.email) === 1,
    // A lock deleted since drops out of the rule; the rest stay.
    devices: deviceIdsOf(row).flatMap((id) => deviceById.get(id) ?? []),
    minutes: row.minutes,
    count: row.count,
    user: row.user_id ? (memberById.get(row.user_id) ?? { _id: row.user_id, name: 'A former member' }) : null,
    createdAt: toIso(row.created_at)!,
  }));
}

/** GET portal/alerts/rules: the portal's rules, oldest first. */
export async function getAlertRules(db: Database, portalId: string): Promise<AlertRule[]> {
  return toRules(db, portalId, await listRules(db, portalId));
}

/** Checks what a rule names against the portal, and gives the columns to store. */
async function columnsOf(db: Database, portalId: string, input: AlertRuleInput) {
  const deviceIds = [...new Set(input.deviceIds)];
  // Ids of another portal are unknown here, as everywhere (404).
  if (deviceIds.length > 0 && (await findDevices(db, portalId, deviceIds)).length !== deviceIds.length) {
    throw AppError.notFound('Lock');
  }
  const userId = input.kind === 'user_access' ? input.userId : null;
  if (userId && !(await findMember(db, portalId, userId))) throw AppError.notFound('Person');
  // Each kind keeps only the settings it uses.
  return {
    kind: input.kind,
    name: input.name,
    enabled: input.enabled ? 1 : 0,
    email: input.email ? 1 : 0,
    device_ids_json: JSON.stringify(deviceIds),
    minutes: input.kind === 'offline' || input.kind === 'denied_attempts' ? input.minutes : null,
    count: input.kind === 'denied_attempts' ? input.count : null,
    user_id: userId,
    updated_at: nowIso(),
  };
}

async function requireRule(db: Database, portalId: string, id: string) {
  const row = await findRule(db, portalId, id);
  if (!row) throw AppError.notFound('Alert rule');
  return row;
}

/** POST portal/alerts/rules (create, id null) and POST portal/alerts/rules/{id} (save). */
export async function putAlertRule(
  db: Database,
  context: ChangeContext,
  id: string | null,
  input: AlertRuleInput,
): Promise<AlertRule> {
  return db.transaction().execute(async (trx) => {
    const before = id
      ? (await toRules(trx, context.portalId, [await requireRule(trx, context.portalId, id)]))[0]
      : null;
    const columns = await columnsOf(trx, context.portalId, input);
    const ruleId = id ?? crypto.randomUUID();
    if (id) await updateRule(trx, context.portalId, id, columns);
    else
      await insertRule(trx, {
        id: ruleId,
        portal_id: context.portalId,
        created_at: columns.updated_at,
        ...columns,
      });
    const [after] = await toRules(trx, context.portalId, [await requireRule(trx, context.portalId, ruleId)]);
    await recordChange(trx, context, {
      action: id ? 'alert_rule.update' : 'alert_rule.create',
      entityType: 'alert_rule',
      entityId: ruleId,
      before,
      after,
    });
    return after!;
  });
}

/** DELETE portal/alerts/rules/{id}: the rule stops; the notifications it made stay. */
export async function removeAlertRule(db: Database, context: ChangeContext, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const [before] = await toRules(trx, context.portalId, [await requireRule(trx, context.portalId, id)]);
    await deleteRule(trx, context.portalId, id);
    await recordChange(trx, context, {
      action: 'alert_rule.delete',
      entityType: 'alert_rule',
      entityId: id,
      before,
    });
  });
}

/** GET portal/notifications: newest first, each marked unread when newer than the reader's last read. */
export async function getNotifications(
  db: Database,
  portalId: string,
  userId: string,
  query: NotificationsQuery,
): Promise<NotificationsPage> {
  const readAt = await findReadAt(db, portalId, userId);
  const [{ rows, total }, unread] = await Promise.all([
    listNotifications(db, portalId, {
      skip: query.skip,
      limit: query.limit,
      descending: query.sortBy ? query.descending : true,
      kind: query.filterBy === 'kind' ? query.filterValue : undefined,
    }),
    countNotificationsSince(db, portalId, readAt),
  ]);
  return {
    items: rows.map((row) => {
      const createdAt = toIso(row.created_at)!;
      return {
        _id: row.id,
        kind: row.kind,
        ruleId: row.rule_id,
        device: row.device_id ? { _id: row.device_id, name: row.device_name ?? 'A deleted lock' } : null,
        subject: subjectOf(row.subject_json),
        title: row.title,
        message: row.message,
        createdAt,
        unread: readAt === null || createdAt > readAt,
      };
    }),
    total: toCount(total),
    unread: toCount(unread),
  };
}

/** POST portal/notifications/read: everything up to now counts as read for this person here. */
export async function markNotificationsRead(db: Database, portalId: string, userId: string) {
  const readAt = nowIso();
  await saveReadAt(db, portalId, userId, readAt);
  return { readAt };
}

/** What the monitor tells the rest of the app: the live channel, and where links in mail point. */
export interface AlertDelivery {
  live: (portalId: string, notification: LiveNotification) => Promise<void>;
  link: string;
}

interface Alert {
  deviceId: string | null;
  userId: string | null;
  title: string;
  message: string;
  /** What this alert is about, unique per portal: the same happening is told once. */
  onceKey: string;
}

/** Why a lock refused an entry of a credential set, after the entry's name. */
const REJECTION_WORDS: Record<
  Extract<LockRefusal, { kind: 'credentials' }>['rejected'][number]['reason'],
  string
> = {
  unsupported_kind: 'the lock does not take this kind of credential',
  invalid_secret: 'the lock cannot use its code or secret',
  storage_full: "the lock's memory is full",
};

/** Why a lock did not carry out a remote command. */
const COMMAND_WORDS: Record<string, string> = {
  expired: 'it arrived after it had expired',
  jammed: 'the lock is jammed',
  busy: 'the lock was busy',
  unsupported: 'the lock does not support it',
};

/** The rule kind that watches each kind of lock event (user_access: unlocks by a known person). */
const RULE_KIND_OF_EVENT: Partial<Record<DeviceEvent['type'], AlertRuleRow['kind']>> = {
  tamper: 'tamper',
  denied: 'denied_attempts',
  unlock: 'user_access',
};

const watches = (rule: AlertRuleRow, deviceId: string) => {
  const ids = deviceIdsOf(rule);
  return ids.length === 0 || ids.includes(deviceId);
};

/**
 * Turns what locks report into alerts by the portal's rules: stores each as a notification (once,
 * whichever server sees it first), sends it on the live channel and, when the rule says so, mails
 * the portal's admins through the outbox. Answers whether a rule fired, so the live channel's
 * built-in alert for the same happening is not shown twice.
 */
export class AlertMonitor {
  private readonly offlineSweep: PeriodicJob;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly delivery: AlertDelivery,
    sweepEveryMs = 60_000,
  ) {
    this.offlineSweep = new PeriodicJob(db, log, {
      name: 'alerts.offline-sweep',
      everyMs: sweepEveryMs,
      run: async ({ now, lastDoneAt }) => {
        await this.sweepOffline(now, lastDoneAt);
        await this.sweepExpiredCommands(now, lastDoneAt);
      },
    });
  }

  /** One stored lock event; answers whether a rule fired on it. */
  async eventStored(portalId: string, event: DeviceEvent): Promise<boolean> {
    return (await this.eventsStored(portalId, [event])).has(event._id);
  }

  /**
   * A batch of stored lock events of one portal: the rules they may concern are read once for the
   * batch (none at all when no event is of a kind a rule watches). Answers the ids of the events a
   * rule fired on.
   */
  async eventsStored(portalId: string, events: DeviceEvent[]): Promise<Set<string>> {
    const kinds = new Set<AlertRuleRow['kind']>();
    for (const event of events) {
      const kind = RULE_KIND_OF_EVENT[event.type];
      if (kind && (kind !== 'user_access' || event.user)) kinds.add(kind);
    }
    const alerted = new Set<string>();
    if (kinds.size === 0) return alerted;
    const rules = await listEnabledRulesOfKinds(this.db, portalId, [...kinds]);
    for (const event of events) {
      if (await this.eventWithRules(rules, event)) alerted.add(event._id);
    }
    return alerted;
  }

  private async eventWithRules(portalRules: AlertRuleRow[], event: DeviceEvent): Promise<boolean> {
    const lock = event.device;
    const rulesFor = (kind: AlertRuleRow['kind']) =>
      portalRules.filter((rule) => rule.kind === kind && watches(rule, lock._id));
    const fired: boolean[] = [];
    if (event.type === 'tamper') {
      for (const rule of rulesFor('tamper')) {
        fired.push(
          await this.fire(rule, {
            deviceId: lock._id,
            userId: null,
            title: `Tamper alarm at ${lock.name}`,
            message: 'The lock reported that someone forced it.',
            onceKey: `event:${rule.id}:${event._id}`,
          }),
        );
      }
    }
    if (event.type === 'denied') {
      for (const rule of rulesFor('denied_attempts')) {
        const windowMs = rule.minutes! * 60_000;
        const since = new Date(Date.parse(event.occurredAt) - windowMs).toISOString();
        const denials = await countDenialsSince(this.db, rule.portal_id, lock._id, since);
        if (denials < rule.count!) continue;
        // Once per window of the rule's length, however many refusals follow in it.
        const window = Math.floor(Date.parse(event.occurredAt) / windowMs);
        fired.push(
          await this.fire(rule, {
            deviceId: lock._id,
            userId: null,
            title: `${denials} refused attempts at ${lock.name}`,
            message: `At least ${rule.count} refusals within ${rule.minutes} minutes.`,
            onceKey: `denied:${rule.id}:${lock._id}:${window}`,
          }),
        );
      }
    }
    if (event.type === 'unlock' && event.user) {
      let lockZone: string | null = null;
      for (const rule of rulesFor('user_access')) {
        if (rule.user_id !== event.user._id) continue;
        // The event names the lock without its zone: read once, only when a rule is to fire.
        lockZone ??= (await findDevices(this.db, rule.portal_id, [lock._id]))[0]?.time_zone ?? 'UTC';
        fired.push(
          await this.fire(rule, {
            deviceId: lock._id,
            userId: event.user._id,
            title: `${event.user.name} opened ${lock.name}`,
            message: [
              'Opened',
              event.method && HOW_OPENED[event.method],
              `at ${lockMinute(event.occurredAt, lockZone)}.`,
            ]
              .filter(Boolean)
              .join(' '),
            onceKey: `event:${rule.id}:${event._id}`,
          }),
        );
      }
    }
    return fired.includes(true);
  }

  /** A status change: the battery falling to the lock's low level. */
  async statusChanged(
    portalId: string,
    device: Device,
    previous: Pick<Device, 'online' | 'battery'> | null,
  ): Promise<boolean> {
    const fellToLow =
      previous !== null &&
      device.battery !== null &&
      device.battery <= device.lowBatteryLevel &&
      (previous.battery === null || previous.battery > device.lowBatteryLevel);
    if (!fellToLow) return false;
    const fired: boolean[] = [];
    for (const rule of await this.rulesFor(portalId, 'low_battery', device._id)) {
      fired.push(
        await this.fire(rule, {
          deviceId: device._id,
          userId: null,
          title: `Low battery at ${device.name}`,
          message: `Battery at ${device.battery}% (the lock's alert level is ${device.lowBatteryLevel}%).`,
          onceKey: `battery:${rule.id}:${device._id}:${device.lastSeenAt ?? nowIso()}`,
        }),
      );
    }
    return fired.includes(true);
  }

  /**
   * Offline rules: every lock offline and silent for longer than a rule's minutes is told once per
   * offline period (its last-seen time names the period, and the notification's key makes it once
   * even if two sweeps overlap). With `since` (the start of the last completed sweep), only the locks
   * that became due after it are looked at, unless the rule changed since; without, every lock.
   */
  async sweepOffline(now = new Date(), since: Date | null = null): Promise<number> {
    let count = 0;
    for (const rule of await listEnabledRules(this.db, 'offline')) {
      const minutesMs = rule.minutes! * 60_000;
      const cutoff = new Date(now.getTime() - minutesMs).toISOString();
      const window =
        since && new Date(toIso(rule.updated_at)) < since
          ? {
              seenFrom: new Date(since.getTime() - minutesMs).toISOString(),
              changedFrom: since.toISOString(),
            }
          : null;
      for (const lock of await listLocksOfflineSince(this.db, rule.portal_id, cutoff, window)) {
        if (!watches(rule, lock.id)) continue;
        const lastSeen = toIso(lock.last_seen_at)!;
        const fired = await this.fire(rule, {
          deviceId: lock.id,
          userId: null,
          title: `${lock.name} has been offline for over ${rule.minutes} minutes`,
          message: `Last heard from at ${lockMinute(lastSeen, lock.time_zone)}.`,
          onceKey: `offline:${rule.id}:${lock.id}:${lastSeen}`,
        });
        if (fired) count++;
      }
    }
    return count;
  }

  /**
   * Remote commands that expired without the lock answering (it never carried them out): told once
   * each, as a failed command. With `since` (the last completed sweep), those that expired after it;
   * without, those of the last hour (a first sweep does not dig up old history).
   */
  async sweepExpiredCommands(now = new Date(), since: Date | null = null): Promise<number> {
    const from = since ?? new Date(now.getTime() - 3_600_000);
    let count = 0;
    for (const command of await listCommandsExpiredUnanswered(
      this.db,
      from.toISOString(),
      now.toISOString(),
    )) {
      const told = await this.notice(command.portal_id, {
        kind: 'sync_failed',
        title: `${command.device_name} did not ${command.action}`,
        message: `The remote ${command.action} expired before the lock answered (was it offline?). Nothing was done at the door.`,
        deviceId: command.device_id,
        subject: { type: 'device', _id: command.device_id, name: command.device_name, listingId: null },
        onceKey: `command_failed:${command.id}`,
      });
      if (told) count++;
    }
    return count;
  }

  /**
   * The offline sweep as a background job: once per period across all servers (whichever claims
   * it), each run taking what became due since the last completed one.
   */
  runOfflineSweep(now = new Date()): Promise<boolean> {
    return this.offlineSweep.runIfDue(now);
  }

  /**
   * A notice for the portal's admins without a rule (notices.ts): stored once in its own
   * transaction, then sent on the live channel. Answers whether it was new.
   */
  async notice(portalId: string, notice: Notice): Promise<boolean> {
    const live = await this.db.transaction().execute((trx) => storeNotice(trx, portalId, notice));
    if (!live) return false;
    this.log.info({ portalId, kind: notice.kind }, 'notice raised');
    await this.delivery.live(portalId, live);
    return true;
  }

  /**
   * A lock refused entries of a credential set (once per set version), or failed a remote command
   * (once per command): the admins are told which lock, whose credentials and why.
   */
  async lockRefused(portalId: string, refusal: LockRefusal): Promise<boolean> {
    const lock = refusal.device;
    const subject = { type: 'device' as const, _id: lock.id, name: lock.name, listingId: null };
    if (refusal.kind === 'credentials') {
      const ids = refusal.rejected.map((r) => r.credentialId);
      const rows = await listCredentialNames(this.db, portalId, ids);
      const nameOf = new Map(
        rows.map((row) => [
          row.id,
          row.email
            ? `${personName({ first_name: row.first_name ?? '', last_name: row.last_name ?? '', email: row.email })}'s ${row.kind}`
            : row.name,
        ]),
      );
      const count = refusal.rejected.length;
      const parts = refusal.rejected
        .slice(0, 5)
        .map((r) => `${nameOf.get(r.credentialId) ?? 'A credential'}: ${REJECTION_WORDS[r.reason]}`);
      return this.notice(portalId, {
        kind: 'lock_refused',
        title: `${lock.name} refused ${count === 1 ? 'a credential' : `${count} credentials`}`,
        message: `${parts.join('; ')}${count > 5 ? `; and ${count - 5} more` : ''}. Those people cannot open it that way until this is fixed.`,
        deviceId: lock.id,
        subject,
        onceKey: `lock_refused:${lock.id}:${refusal.version}`,
      });
    }
    const action = (await findCommandAction(this.db, portalId, refusal.commandId)) ?? 'command';
    const why =
      COMMAND_WORDS[refusal.error ?? (refusal.status === 'expired' ? 'expired' : '')] ?? 'it failed';
    return this.notice(portalId, {
      kind: 'sync_failed',
      title: `${lock.name} did not ${action === 'command' ? 'carry out a remote command' : action}`,
      message: `The remote ${action} was not carried out: ${why}.`,
      deviceId: lock.id,
      subject,
      onceKey: `command_failed:${refusal.commandId}`,
    });
  }

  /** Sends a notice stored in a caller's transaction, once that has committed. */
  async announce(portalId: string, live: LiveNotification | null): Promise<void> {
    if (live) await this.delivery.live(portalId, live);
  }

  /** Starts the offline sweep's timer. */
  start(): void {
    this.offlineSweep.start();
  }

  async stop(): Promise<void> {
    await this.offlineSweep.stop();
  }

  private async rulesFor(portalId: string, kind: AlertRuleRow['kind'], deviceId: string) {
    return (await listEnabledRules(this.db, kind, portalId)).filter((rule) => watches(rule, deviceId));
  }

  private async fire(rule: AlertRuleRow, alert: Alert): Promise<boolean> {
    const id = crypto.randomUUID();
    const at = nowIso();
    const stored = await this.db.transaction().execute(async (trx) => {
      const fresh = await insertNotificationOnce(trx, {
        id,
        portal_id: rule.portal_id,
        rule_id: rule.id,
        kind: rule.kind,
        device_id: alert.deviceId,
        user_id: alert.userId,
        title: alert.title,
        message: alert.message,
        once_key: alert.onceKey,
        created_at: at,
      });
      if (fresh && Number(rule.email) === 1) {
        const mail = alertMail({ title: alert.title, message: alert.message, link: this.delivery.link });
        for (const to of await listAdminEmails(trx, rule.portal_id)) {
          await sendMail(trx, 'system', { portalId: rule.portal_id, template: 'alert', to, ...mail });
        }
      }
      return fresh;
    });
    if (!stored) return false;
    this.log.info({ portalId: rule.portal_id, ruleId: rule.id, kind: rule.kind }, 'alert fired');
    await this.delivery.live(rule.portal_id, {
      _id: id,
      at,
      kind: 'alert',
      title: alert.title,
      message: alert.message,
      deviceId: alert.deviceId,
    });
    return true;
  }
}
