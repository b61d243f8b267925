import crypto from 'node:crypto';
import {
  commandAckSchema,
  credentialsAckSchema,
  deviceStatusSchema,
  lockEventSchema,
  type CredentialSet,
  type DeviceCommand,
  type DeviceCommandRecord,
  type DeviceCommandRequest,
  type LockEvent,
} from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { DeviceCommandRow, DeviceRow } from '../../db/schema';
import type { ChangeContext } from '../../http/access';
import { AppError } from '../../http/errors';
import { recordChange } from '../audit/audit.repository';
import { findDevice, listAllDevices } from '../devices/devices.repository';
import { recordDeviceEvent } from '../events/events.repository';
import {
  bringLockUpToDate,
  recordCredentialsAck,
  syncLockCredentials,
  type CredentialChannel,
} from './credential-sync.service';
import type { PortalSigningKeys } from './portal-signing-keys';
import {
  answerCommand,
  findCommand,
  findCredentialHolder,
  findLockById,
  insertCommand,
  isMemberOf,
  markLockOffline,
  markSilentLocksOffline,
  saveLockStatus,
  touchLock,
} from './device-link.repository';
import type { DeviceTransport, LockMessage } from './device-transport';

export interface DeviceLinkOptions {
  /** A lock with no status for this long is marked offline. */
  heartbeatSeconds: number;
  /** How long a remote command stays valid. */
  commandTtlSeconds: number;
  /** Changes arriving within this window are folded into one recomputation per portal. */
  syncDebounceMs: number;
  /** Each portal's key for QR codes and carried updates; its public half goes in every set. */
  signingKeys: PortalSigningKeys;
}

/**
 * Who else hears what locks report (the live channel): told after the fact, never able to fail
 * the handling of the lock's message.
 */
export interface LockActivityListener {
  eventStored(portalId: string, deviceId: string, eventId: string): Promise<void>;
  /** The lock's record changed; `previous` is what it was before this report. */
  statusChanged(
    portalId: string,
    deviceId: string,
    previous: { online: boolean; battery: number | null },
  ): Promise<void>;
}

/** The `remote:` entries of a credential set carry the person's id (access.service). */
const REMOTE_PREFIX = 'remote:';

function toCommandRecord(row: DeviceCommandRow, now = new Date()): DeviceCommandRecord {
  const expiresAt = toIso(row.expires_at);
  const expired = row.status === 'pending' && new Date(expiresAt) <= now;
  return {
    commandId: row.id,
    deviceId: row.device_id,
    userId: row.user_id,
    action: row.action,
    status: expired ? 'expired' : row.status,
    error: (row.error as DeviceCommandRecord['error']) ?? null,
    createdAt: toIso(row.created_at),
    expiresAt,
    answeredAt: toIso(row.answered_at),
  };
}

/**
 * The server's side of device protocol v1 (docs/device-protocol.md), over any transport: stores
 * status, events and acknowledgements, keeps every lock's credential set current, sends commands
 * and marks silent locks offline.
 */
export class DeviceLink {
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly debounceTimers = new Map<string, NodeJS.Timeout>();
  /** One chain of sync work per portal, so two recomputations never race for a version. */
  private readonly portalQueues = new Map<string, Promise<void>>();
  private closed = false;
  private listener: LockActivityListener | null = null;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    readonly transport: DeviceTransport,
    private readonly options: DeviceLinkOptions,
  ) {}

  async start(): Promise<void> {
    await this.transport.start((message) => this.handle(message));
    const everyMs = Math.min(30_000, Math.max(250, (this.options.heartbeatSeconds * 1000) / 4));
    this.heartbeatTimer = setInterval(() => void this.markSilentLocksOffline(), everyMs);
    this.heartbeatTimer.unref();
  }

  /** Tells `listener` about stored events and status changes from now on. */
  listen(listener: LockActivityListener): void {
    this.listener = listener;
  }

  private notify(work: (listener: LockActivityListener) => Promise<void>): void {
    const listener = this.listener;
    if (!listener) return;
    work(listener).catch((error: unknown) =>
      this.log.error({ err: error }, 'device link: a listener failed; the lock is not affected'),
    );
  }

  async close(): Promise<void> {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    // A change made just before shutdown is still published (the database is open until this ends).
    await this.flushScheduledSyncs();
    this.closed = true;
    await this.transport.close();
  }

  /** Recomputes a portal's credential sets soon (after an admin change); repeated calls fold. */
  scheduleSync(portalId: string): void {
    if (this.closed) return;
    const pending = this.debounceTimers.get(portalId);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      this.debounceTimers.delete(portalId);
      void this.enqueue(portalId, () => this.syncPortal(portalId));
    }, this.options.syncDebounceMs);
    timer.unref();
    this.debounceTimers.set(portalId, timer);
  }

  /** Runs now every recomputation already scheduled (shutdown; tests that need it done). */
  async flushScheduledSyncs(): Promise<void> {
    const portals = [...this.debounceTimers.keys()];
    for (const portalId of portals) {
      clearTimeout(this.debounceTimers.get(portalId));
      this.debounceTimers.delete(portalId);
      void this.enqueue(portalId, () => this.syncPortal(portalId));
    }
    await Promise.all(this.portalQueues.values());
  }

  /** A deleted lock: its connections end and its retained credential set is withdrawn. */
  async deviceDeleted(deviceId: string): Promise<void> {
    this.transport.disconnect(deviceId);
    await this.transport.clearRetained(deviceId, 'credentials');
  }

  /** POST device/{id}/command: stores a remote unlock/lock and sends it with its expiry. */
  async sendCommand(
    context: ChangeContext,
    deviceId: string,
    request: DeviceCommandRequest,
  ): Promise<DeviceCommandRecord> {
    const device = await findDevice(this.db, context.portalId, deviceId);
    if (!device) throw AppError.notFound('Lock');
    const now = new Date();
    const command: DeviceCommand = {
      commandId: crypto.randomUUID(),
      action: request.action,
      expiresAt: new Date(now.getTime() + this.options.commandTtlSeconds * 1000).toISOString(),
      userId: context.actorUserId,
    };
    await this.db.transaction().execute(async (trx) => {
      await insertCommand(trx, {
        id: command.commandId,
        portal_id: context.portalId,
        device_id: deviceId,
        user_id: context.actorUserId,
        action: command.action,
        status: 'pending',
        error: null,
        created_at: now.toISOString(),
        expires_at: command.expiresAt,
      });
      await recordChange(trx, context, {
        action: `device.command.${command.action}`,
        entityType: 'device',
        entityId: deviceId,
        after: { commandId: command.commandId, expiresAt: command.expiresAt },
      });
    });
    // Not retained: a command is for the lock connected now; one that reconnects later must not
    // find it waiting (the lock would refuse it as expired anyway).
    await this.transport.publish(deviceId, 'commands', JSON.stringify(command), { retain: false });
    const row = await findCommand(this.db, context.portalId, deviceId, command.commandId);
    return toCommandRecord(row!);
  }

  /** GET device/{id}/command/{commandId}. */
  async getCommand(portalId: string, deviceId: string, commandId: string): Promise<DeviceCommandRecord> {
    const row = await findCommand(this.db, portalId, deviceId, commandId);
    if (!row) throw AppError.notFound('Command');
    return toCommandRecord(row);
  }

  private enqueue(portalId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.portalQueues.get(portalId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error, portalId }, 'device link: sync failed'))
      .finally(() => {
        if (this.portalQueues.get(portalId) === next) this.portalQueues.delete(portalId);
      });
    this.portalQueues.set(portalId, next);
    return next;
  }

  /** Where credential sets go, and the portal key each one names (see credential-sync.service). */
  private readonly channel: CredentialChannel = {
    publish: (deviceId: string, set: CredentialSet) =>
      this.transport.publish(deviceId, 'credentials', JSON.stringify(set), { retain: true }),
    qrKeyOf: (portalId: string) => this.options.signingKeys.publicKeyOf(portalId),
  };

  get signingKeys(): PortalSigningKeys {
    return this.options.signingKeys;
  }

  /** Recomputes every lock of a portal, publishing only the sets whose content changed. */
  private async syncPortal(portalId: string): Promise<void> {
    if (this.closed) return;
    const devices = await listAllDevices(this.db, portalId);
    for (const device of devices) {
      const version = await syncLockCredentials(this.db, device, this.channel);
      if (version !== null)
        this.log.info({ deviceId: device.id, version }, 'device link: credentials published');
    }
  }

  private async markSilentLocksOffline(): Promise<void> {
    if (this.closed) return;
    const cutoff = new Date(Date.now() - this.options.heartbeatSeconds * 1000).toISOString();
    try {
      const count = await markSilentLocksOffline(this.db, cutoff);
      if (count > 0) this.log.info({ count }, 'device link: silent locks marked offline');
    } catch (error) {
      this.log.error({ err: error }, 'device link: heartbeat check failed');
    }
  }

  /** One message from a lock. Bad payloads are logged and dropped; they never stop the link. */
  async handle(message: LockMessage): Promise<void> {
    const device = await findLockById(this.db, message.deviceId);
    if (!device) {
      this.log.warn({ deviceId: message.deviceId }, 'device link: message from an unknown or deleted lock');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(message.payload.toString('utf8'));
    } catch {
      this.log.warn(
        { deviceId: device.id, topic: message.topic },
        'device link: payload is not JSON; dropped',
      );
      return;
    }
    switch (message.topic) {
      case 'status':
        return this.handleStatus(device, json, message.otherLiveConnection === true);
      case 'events':
        return this.handleEvents(device, json);
      case 'credentials/ack':
        return this.handleCredentialsAck(device, json);
      case 'commands/ack':
        return this.handleCommandAck(device, json);
    }
  }

  private invalid(device: DeviceRow, topic: string, error: z.ZodError): void {
    this.log.warn(
      { deviceId: device.id, topic, issues: error.issues.slice(0, 5) },
      'device link: invalid payload; dropped',
    );
  }

  private async handleStatus(device: DeviceRow, json: unknown, otherLiveConnection: boolean) {
    const parsed = deviceStatusSchema.safeParse(json);
    if (!parsed.success) return this.invalid(device, 'status', parsed.error);
    const status = parsed.data;
    const previous = { online: Number(device.online) === 1, battery: device.battery };
    if (!status.online) {
      // The last will of a connection the lock has already replaced says nothing about the lock.
      if (!otherLiveConnection) {
        await markLockOffline(this.db, device.portal_id, device.id);
        this.notify((listener) => listener.statusChanged(device.portal_id, device.id, previous));
      }
      return;
    }
    await saveLockStatus(this.db, device.portal_id, device.id, status);
    this.notify((listener) => listener.statusChanged(device.portal_id, device.id, previous));
    await this.enqueue(device.portal_id, () =>
      bringLockUpToDate(this.db, device, status.credentialsVersion, this.channel),
    );
  }

  private async handleEvents(device: DeviceRow, json: unknown) {
    // Each event of a batch stands alone: one bad event must not hold back the others' ack.
    const items = Array.isArray(json) ? json.slice(0, 500) : [json];
    const events: LockEvent[] = [];
    for (const item of items) {
      const parsed = lockEventSchema.safeParse(item);
      if (parsed.success) events.push(parsed.data);
      else this.invalid(device, 'events', parsed.error);
    }
    if (events.length === 0) return;
    await touchLock(this.db, device.portal_id, device.id);
    for (const event of events) {
      const stored = await recordDeviceEvent(this.db, {
        portalId: device.portal_id,
        deviceId: device.id,
        eventId: event.eventId,
        type: event.type,
        method: event.method,
        credentialId: event.credentialId,
        userId:
          (await this.holderOf(device, event.credentialId)) ?? (await this.senderOf(device, event.commandId)),
        reason: event.reason,
        occurredAt: event.ts,
      });
      if (stored) this.notify((listener) => listener.eventStored(device.portal_id, device.id, event.eventId));
      else this.log.debug({ deviceId: device.id, eventId: event.eventId }, 'device link: duplicate event');
    }
    // Stored now or before: either way the lock may forget them.
    await this.transport.publish(
      device.id,
      'events/ack',
      JSON.stringify({ eventIds: events.map((e) => e.eventId) }),
      { retain: false },
    );
  }

  /** Who sent the portal command an event carried out (an admin may hold no credential there). */
  private async senderOf(device: DeviceRow, commandId: string | null): Promise<string | null> {
    if (!commandId) return null;
    return (await findCommand(this.db, device.portal_id, device.id, commandId))?.user_id ?? null;
  }

  /** The person behind a credential presented at the lock, when it is a person's. */
  private async holderOf(device: DeviceRow, credentialId: string | null): Promise<string | null> {
    if (!credentialId) return null;
    if (credentialId.startsWith(REMOTE_PREFIX)) {
      const userId = credentialId.slice(REMOTE_PREFIX.length);
      return (await isMemberOf(this.db, device.portal_id, userId)) ? userId : null;
    }
    return findCredentialHolder(this.db, device.portal_id, credentialId);
  }

  private async handleCredentialsAck(device: DeviceRow, json: unknown) {
    const parsed = credentialsAckSchema.safeParse(json);
    if (!parsed.success) return this.invalid(device, 'credentials/ack', parsed.error);
    const recorded = await recordCredentialsAck(this.db, device, parsed.data);
    if (!recorded) {
      this.log.warn(
        { deviceId: device.id, version: parsed.data.version },
        'device link: credentials/ack for a version not sent or already superseded; ignored',
      );
    }
  }

  private async handleCommandAck(device: DeviceRow, json: unknown) {
    const parsed = commandAckSchema.safeParse(json);
    if (!parsed.success) return this.invalid(device, 'commands/ack', parsed.error);
    const ack = parsed.data;
    const status = ack.ok ? 'ok' : ack.error === 'expired' ? 'expired' : 'failed';
    const answered = await answerCommand(this.db, device.portal_id, device.id, ack.commandId, {
      status,
      error: ack.ok ? null : (ack.error ?? null),
    });
    if (!answered) {
      this.log.warn(
        { deviceId: device.id, commandId: ack.commandId },
        'device link: ack for no pending command',
      );
    }
  }
}
