import crypto from 'node:crypto';
import {
  commandAckSchema,
  credentialsAckSchema,
  deviceStatusSchema,
  lockEventSchema,
  LOCK_OFFLINE,
  MAX_EVENTS_PER_MESSAGE,
  type DeviceEvent,
  type DeviceCommand,
  type DeviceCommandRecord,
  type DeviceCommandRequest,
  type LockEvent,
} from '@latchkey/shared';
import DataLoader from 'dataloader';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { DeviceCommandRow, DeviceRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevice } from '../devices/devices.repository';
import { CredentialRecompute } from './credential-recompute';
import { sweepUnusedSetBodies } from './credential-set-bodies';
import { LockReports } from './lock-reports';
import { bringLockUpToDate, SyncStateReader, type CredentialChannel } from './credential-sync.service';
import type { PortalSigningKeys } from './portal-signing-keys';
import {
  answerCommand,
  findCommand,
  findLocksByIds,
  insertCommand,
  markLockOffline,
  markSilentLocksOffline,
  saveLockCapabilities,
} from './device-link.repository';
import { EventIngest, refusedByDatabase, type EventIngestOptions } from './event-ingest';
import type { DeviceTransport, LockMessage } from './device-transport';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import type { LockRefusal } from '../alerts/notices';
import { isHeartbeatOnly, SeenLocks } from './seen-locks';
import { emitDomainEvent } from '../../base/events/domain-events';
import './device-link-events';

/** How often the recompute outbox is checked for locks a stopped server left (credential-recompute.ts). */
const RECOMPUTE_SWEEP_MS = 5_000;
/** How often credential set bodies no lock names are deleted, and how long one is kept after use. */
const SET_BODIES_SWEEP_MS = 60 * 60_000;
/** A row this old was not recomputed by the server that wrote it. */
const RECOMPUTE_ORPHAN_MS = 10_000;

export interface DeviceLinkOptions {
  /** A lock with no status for this long is marked offline. */
  heartbeatSeconds: number;
  /** How long a remote command stays valid. */
  commandTtlSeconds: number;
  /** Each portal's key for QR codes and carried updates; its public half goes in every set. */
  signingKeys: PortalSigningKeys;
  /** Group commit of lock events (event-ingest.ts). */
  eventIngest: EventIngestOptions;
}

/**
 * Who else hears what locks report (the live channel): told after the fact, never able to fail
 * the handling of the lock's message.
 */
export interface LockActivityListener {
  /** A batch of events stored (each once), as the logs show them, from one or several portals. */
  eventsStored(events: { portalId: string; event: DeviceEvent }[]): Promise<void>;
  /** The lock's record changed; `previous` is what it was before this report. */
  statusChanged(
    portalId: string,
    deviceId: string,
    previous: { online: boolean; battery: number | null },
  ): Promise<void>;
  /** The lock refused credentials of a set, or a remote command failed or expired (the host's inbox). */
  lockRefused?(portalId: string, refusal: LockRefusal): Promise<void>;
}

/** 409 lock_offline: the lock's name, and since when it is offline or that it never connected. */
function lockOffline(device: Pick<DeviceRow, 'name' | 'last_seen_at'>): AppError {
  const lastSeen = toIso(device.last_seen_at);
  const message = lastSeen
    ? `${device.name} is offline (last seen ${lastSeen.slice(0, 16).replace('T', ' ')} UTC): it cannot be opened or locked remotely until it connects again`
    : `${device.name} has never connected: it cannot be opened or locked remotely until it connects`;
  return new AppError(LOCK_OFFLINE, message, 409);
}

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
  /**
   * The heartbeat sweep, one run per period across all servers: every few seconds (a quarter of
   * the heartbeat timeout, at most 5 s), so a lock is shown offline at most 5 s after the timeout.
   */
  private readonly offlineSweep: PeriodicJob;
  private readonly setBodiesSweep: PeriodicJob;
  /** Heartbeats that change nothing, written once a second for all locks (seen-locks.ts). */
  private readonly seenLocks: SeenLocks;
  /** One chain of sync work per portal, so two recomputations never race for a version. */
  private readonly portalQueues = new Map<string, Promise<void>>();
  private closed = false;
  private listener: LockActivityListener | null = null;
  /** Lock events go through group commit: many locks' events per transaction. */
  private readonly events: EventIngest;
  /**
   * The lock behind each status and ack, looked up for all messages of one turn of the event loop
   * in one query: a change reaching 10,000 locks brings 20,000 of them at once, and one round trip
   * each queued behind PostgreSQL's pool. No cache: every batch reads the rows afresh.
   */
  private readonly lockById = new DataLoader<string, DeviceRow | undefined>(
    async (ids) => {
      const rows = new Map((await findLocksByIds(this.db, ids)).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id));
    },
    { cache: false, maxBatchSize: 256, batchScheduleFn: (run) => setImmediate(run) },
  );

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    readonly transport: DeviceTransport,
    private readonly options: DeviceLinkOptions,
  ) {
    this.seenLocks = new SeenLocks(db, log);
    this.offlineSweep = new PeriodicJob(db, log, {
      name: 'device-link.offline-sweep',
      everyMs: Math.min(5_000, Math.max(250, (options.heartbeatSeconds * 1000) / 4)),
      // This server's heartbeats of the last second go in first: none is taken for silence.
      run: async ({ now }) => {
        await this.seenLocks.flush();
        await this.markSilentLocksOffline(now);
      },
    });
    // Set bodies no lock names any more (credential-set-bodies.ts), kept an hour after last use.
    this.setBodiesSweep = new PeriodicJob(db, log, {
      name: 'device-link.set-bodies-sweep',
      everyMs: SET_BODIES_SWEEP_MS,
      run: ({ now }) => sweepUnusedSetBodies(db, new Date(now.getTime() - SET_BODIES_SWEEP_MS).toISOString()),
    });
    this.events = new EventIngest(
      db,
      log,
      options.eventIngest,
      (stored) => this.notify((listener) => listener.eventsStored(stored)),
      (deviceIds) => {
        for (const deviceId of deviceIds) this.seenLocks.add(deviceId);
      },
    );
  }

  async start(): Promise<void> {
    await this.transport.start((message) => this.handle(message));
    this.seenLocks.start();
    this.offlineSweep.start();
    this.setBodiesSweep.start();
    this.recompute.start();
  }

  /** Tells `listener` about stored events and status changes from now on. */
  listen(listener: LockActivityListener): void {
    this.listener = listener;
  }

  /** Listener work under way, which closing waits for (the live channel closes after the locks). */
  private readonly notifying = new Set<Promise<void>>();

  private notify(work: (listener: LockActivityListener) => Promise<void>): void {
    const listener = this.listener;
    if (!listener) return;
    const running = work(listener).catch((error: unknown) =>
      this.log.error({ err: error }, 'device link: a listener failed; the lock is not affected'),
    );
    this.notifying.add(running);
    void running.finally(() => this.notifying.delete(running));
  }

  /** Closes once, however often asked (the app asks before the live channel closes, and at the end). */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }
  private closing: Promise<void> | null = null;

  private async closeOnce(): Promise<void> {
    await this.offlineSweep.stop();
    await this.setBodiesSweep.stop();
    await this.seenLocks.stop();
    // A change made just before shutdown is still published (the database is open until this ends).
    await this.recompute.stop();
    await Promise.all(this.portalQueues.values());
    this.closed = true;
    // Events already taken are stored and acknowledged while the broker still runs; from now on
    // none are taken (their locks send them again to the next server).
    await this.events.drain();
    await this.transport.close();
    await this.reports.drain();
    await Promise.all(this.notifying);
  }

  /**
   * Recomputes the locks that changes to access touched (credential-recompute.ts): woken by each
   * committed change, it recomputes only the locks in the recompute outbox.
   */
  private recomputeInstance: CredentialRecompute | null = null;
  private get recompute(): CredentialRecompute {
    return (this.recomputeInstance ??= new CredentialRecompute(
      this.db,
      this.log,
      this.channel,
      (portalId, work) => this.enqueue(portalId, work),
      { sweepEveryMs: RECOMPUTE_SWEEP_MS, orphanAfterMs: RECOMPUTE_ORPHAN_MS },
    ));
  }

  /** What status reports compare the lock's version with, read for many locks at once. */
  private syncStatesInstance: SyncStateReader | null = null;
  private get syncStates(): SyncStateReader {
    return (this.syncStatesInstance ??= new SyncStateReader(this.db));
  }

  /** Status reports that change something and credentials/ack, written in groups (lock-reports.ts). */
  private reportsInstance: LockReports | null = null;
  private get reports(): LockReports {
    return (this.reportsInstance ??= new LockReports(this.db));
  }

  /** Resolves once every lock touched by a committed change has been recomputed (tests, shutdown). */
  async flushScheduledSyncs(): Promise<void> {
    await this.recompute.flush();
    await Promise.all(this.portalQueues.values());
  }

  /** A deleted lock: its connections end and its retained credential set is withdrawn. */
  async deviceDeleted(deviceId: string): Promise<void> {
    this.transport.disconnect(deviceId);
    await this.transport.clearRetained(deviceId, 'credentials');
  }

  /**
   * POST device/{id}/command: stores a remote unlock/lock and sends it with its expiry. A lock that
   * is not connected now is refused at once (409 lock_offline), storing and sending nothing: the
   * command would only wait out its expiry (nobody receives it, and it is not retained).
   */
  async sendCommand(
    context: ChangeContext,
    deviceId: string,
    request: DeviceCommandRequest,
  ): Promise<DeviceCommandRecord> {
    const device = await findDevice(this.db, context.portalId, deviceId);
    if (!device) throw AppError.notFound('Lock');
    // The devices row is what every server shares about a lock's connection (one server or
    // several behind one broker): whichever server hears its status writes online and last seen,
    // its last will or the heartbeat sweep takes it offline. A lock that drops after this check is
    // not told in time: its command expires unanswered, as the screen says.
    if (Number(device.online) !== 1) throw lockOffline(device);
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
    publish: (deviceId: string, setJson: string) =>
      this.transport.publish(deviceId, 'credentials', setJson, { retain: true }),
    qrKeyOf: (portalId: string) => this.options.signingKeys.publicKeyOf(portalId),
  };

  get signingKeys(): PortalSigningKeys {
    return this.options.signingKeys;
  }

  /**
   * Marks offline the locks silent for longer than the heartbeat timeout, and tells the listener
   * about each (the live channel shows it offline), one after another so that a whole fleet going
   * silent at once does not flood the database. Public for tests, which sweep at a chosen moment.
   */
  async markSilentLocksOffline(now = new Date()): Promise<number> {
    if (this.closed) return 0;
    const cutoff = new Date(now.getTime() - this.options.heartbeatSeconds * 1000).toISOString();
    const marked = await markSilentLocksOffline(this.db, cutoff);
    if (marked.length > 0) {
      this.log.info({ count: marked.length }, 'device link: silent locks marked offline');
    }
    const listener = this.listener;
    for (const lock of marked) {
      this.announceStatus(lock.portal_id, lock.id, { online: true, battery: lock.battery });
      if (!listener) continue;
      await listener
        .statusChanged(lock.portal_id, lock.id, { online: true, battery: lock.battery })
        .catch((error: unknown) =>
          this.log.error({ err: error }, 'device link: a listener failed; the lock is not affected'),
        );
    }
    return marked.length;
  }

  /** Tells the features that stand on the device link (webhooks) that a lock's record changed; never fails the report. */
  private announceStatus(
    portalId: string,
    deviceId: string,
    previous: { online: boolean; battery: number | null },
  ) {
    void emitDomainEvent(this.db, 'LockStatusChanged', {
      portalId,
      deviceId,
      previous,
      now: new Date(),
    }).catch((error: unknown) =>
      this.log.error({ err: error }, 'device link: a status listener failed; the lock is not affected'),
    );
  }

  /** One message from a lock. Bad payloads are logged and dropped; they never stop the link. */
  async handle(message: LockMessage): Promise<void> {
    // Lock events are routed by their batch, which finds all its locks with one query
    // (event-ingest.ts); the other topics look their lock up here.
    if (message.topic === 'events') return this.handleEvents(message.deviceId, message.payload);
    const device = await this.lockById.load(message.deviceId);
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
    try {
      switch (message.topic) {
        case 'status':
          return await this.handleStatus(device, json, message.otherLiveConnection === true);
        case 'credentials/ack':
          return await this.handleCredentialsAck(device, json);
        case 'commands/ack':
          return await this.handleCommandAck(device, json);
      }
    } catch (error) {
      // Dropped, not retried: the lock would only send the same value again, forever.
      if (!refusedByDatabase(error)) throw error;
      this.log.warn(
        { deviceId: device.id, topic: message.topic, err: error },
        'device link: the database refused a value of this message; dropped as invalid',
      );
    }
  }

  /** One line per message, however many of its events were invalid (`count`; the first's issues). */
  private invalid(device: Pick<DeviceRow, 'id'>, topic: string, error: z.ZodError, count = 1): void {
    this.log.warn(
      { deviceId: device.id, topic, ...(count > 1 && { dropped: count }), issues: error.issues.slice(0, 5) },
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
        if (previous.online) this.announceStatus(device.portal_id, device.id, previous);
      }
      return;
    }
    // A lock that says what it holds (a Z-Wave node's slots): stored when it differs, rarely.
    if (status.capabilities) {
      const capabilities = JSON.stringify(status.capabilities);
      if (capabilities !== device.capabilities_json)
        await saveLockCapabilities(this.db, device.portal_id, device.id, capabilities);
    }
    // A heartbeat that changes nothing but the time is written with the others of its second, and
    // told to no one: the live channel sent each one to every browser watching the portal, which
    // read all their lock screens again (a lock's every 30 s, whichever lock was on screen).
    if (isHeartbeatOnly(device, status)) this.seenLocks.add(device.id);
    else {
      await this.reports.saveStatus(device, status);
      if (!previous.online || previous.battery !== status.battery)
        this.announceStatus(device.portal_id, device.id, previous);
      this.notify((listener) => listener.statusChanged(device.portal_id, device.id, previous));
    }
    const upToDate = await bringLockUpToDate(this.db, device, status.credentialsVersion, {
      channel: this.channel,
      states: this.syncStates,
      inPortalQueue: (work) => this.enqueue(device.portal_id, work),
    });
    // A lock a change touched is recomputed with the others that change reached.
    if (upToDate === 'in the outbox') this.recompute.wake();
  }

  /**
   * A lock's `events` message: each valid event is stored once (group commit, event-ingest.ts) and
   * the lock acknowledged for those durable now or before, in one `events/ack` per message.
   */
  private async handleEvents(deviceId: string, payload: Buffer) {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log.warn({ deviceId, topic: 'events' }, 'device link: payload is not JSON; dropped');
      return;
    }
    const items = Array.isArray(json) ? json : [json];
    if (items.length > MAX_EVENTS_PER_MESSAGE) {
      // Taken in part rather than refused whole: the lock keeps what is not acknowledged and sends
      // it again, so nothing is lost, whereas a refused batch would come back refused forever.
      this.log.warn(
        { deviceId, events: items.length, notTaken: items.length - MAX_EVENTS_PER_MESSAGE },
        `device link: more than ${MAX_EVENTS_PER_MESSAGE} events in one message; the first ${MAX_EVENTS_PER_MESSAGE} are taken, the rest are not acknowledged (the lock sends them again)`,
      );
    }
    // Each event of a batch stands alone: one bad event must not hold back the others' ack.
    const events: LockEvent[] = [];
    let firstInvalid: z.ZodError | null = null;
    let invalidCount = 0;
    for (const item of items.slice(0, MAX_EVENTS_PER_MESSAGE)) {
      const parsed = lockEventSchema.safeParse(item);
      if (parsed.success) events.push(parsed.data);
      else {
        firstInvalid ??= parsed.error;
        invalidCount++;
      }
    }
    if (firstInvalid) this.invalid({ id: deviceId }, 'events', firstInvalid, invalidCount);
    if (events.length === 0 || this.closed) return;
    const outcomes = await this.events.submit(deviceId, events);
    if (outcomes === null) {
      this.log.warn({ deviceId }, 'device link: message from an unknown or deleted lock');
      return;
    }
    const taken: string[] = [];
    outcomes.forEach((outcome, index) => {
      const eventId = events[index]!.eventId;
      // An event the database cannot hold is invalid: it is dropped (never acknowledged) and the
      // rest of the message still is; the connection stays.
      if (outcome === 'refused') {
        this.log.warn(
          { deviceId, eventId },
          'device link: the database refused an event; dropped as invalid',
        );
        return;
      }
      if (outcome === 'duplicate') this.log.debug({ deviceId, eventId }, 'device link: duplicate event');
      taken.push(eventId);
    });
    if (taken.length === 0) return;
    // Stored now or before, durably: either way the lock may forget them.
    await this.transport.publish(deviceId, 'events/ack', JSON.stringify({ eventIds: taken }), {
      retain: false,
    });
  }

  private async handleCredentialsAck(device: DeviceRow, json: unknown) {
    const parsed = credentialsAckSchema.safeParse(json);
    if (!parsed.success) return this.invalid(device, 'credentials/ack', parsed.error);
    const recorded = await this.reports.recordAck(device, parsed.data);
    if (recorded && parsed.data.rejected.length > 0) {
      const refusal: LockRefusal = {
        kind: 'credentials',
        device: { id: device.id, name: device.name },
        version: parsed.data.version,
        rejected: parsed.data.rejected,
      };
      this.notify((listener) => listener.lockRefused?.(device.portal_id, refusal) ?? Promise.resolve());
    }
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
    if (answered && status !== 'ok') {
      const refusal: LockRefusal = {
        kind: 'command',
        device: { id: device.id, name: device.name },
        commandId: ack.commandId,
        status,
        error: ack.error ?? null,
      };
      this.notify((listener) => listener.lockRefused?.(device.portal_id, refusal) ?? Promise.resolve());
    }
    if (!answered) {
      this.log.warn(
        { deviceId: device.id, commandId: ack.commandId },
        'device link: ack for no pending command',
      );
    }
  }
}
