import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect, type MqttClient } from 'mqtt';
import {
  commandAckSchema,
  credentialsAckSchema,
  credentialsMessageSchema,
  deviceCommandSchema,
  deviceStatusSchema,
  deviceTopic,
  eventsAckSchema,
  applySyncClaims,
  evaluateAccess,
  evaluateQrScan,
  lockEventSchema,
  parseDeviceTopic,
  type AccessDecision,
  type CommandAck,
  type CredentialKind,
  type CredentialsAck,
  type CredentialSet,
  type DeviceCommand,
  type DeviceEventType,
  type DeviceStatus,
  type DeviceTopic,
  type LockEvent,
  type LockState,
  type PresentedCredential,
  verifySyncToken,
} from '@latchkey/shared';
import { LockMemory } from './lock-memory';
import { applyCredentialSet, DEFAULT_LOCK_MODEL, type LockModel } from './lock-model';

/** The most events one `events` message may carry (lockEventsMessageSchema). */
const MAX_EVENTS_PER_MESSAGE = 500;
/** Remembered command ids, so a redelivered command is answered again but not carried out twice. */
const REMEMBERED_COMMANDS = 100;

export interface SimulatedLockOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1883. */
  url: string;
  deviceId: string;
  secret: string;
  model?: LockModel;
  firmware?: string;
  /** Starting battery level, 0–100. */
  battery?: number;
  /** A battery_low event is sent when the level drops to or below this. */
  lowBatteryPercent?: number;
  /** Status heartbeat while connected; 0 turns it off (a LockFleet sends heartbeats itself). */
  heartbeatSeconds?: number;
  /** Lock again this long after an unlock by credential or command; null keeps it unlocked. */
  autoRelockSeconds?: number | null;
  /** JSON file keeping the credential set and unacknowledged events across simulator restarts. */
  stateFile?: string | null;
  /** The lock's clock: decisions and event times use it, so tests can fix the instant. */
  now?: () => Date;
  /** Delay between reconnect attempts after the connection is lost (not after goOffline). */
  reconnectPeriodMs?: number;
  keepaliveSeconds?: number;
}

/** One presentation at a reader and what the lock made of it. */
export interface AccessAttempt {
  deviceId: string;
  presented: PresentedCredential;
  decision: AccessDecision;
  event: LockEvent;
}

/** What carryCredentials did: applied, or why not. */
export type CarriedUpdate =
  { applied: true; userId: string; entries: number } | { applied: false; reason: string };

export interface CredentialsApplied {
  deviceId: string;
  version: number;
  entries: number;
  rejected: CredentialsAck['rejected'];
}

export interface CommandHandled {
  deviceId: string;
  command: DeviceCommand;
  ack: CommandAck;
  /** True when the command was a redelivery, answered again without acting twice. */
  repeated: boolean;
}

export interface IgnoredMessage {
  deviceId: string;
  topic: string;
  reason: string;
}

export interface LockSnapshot {
  deviceId: string;
  online: boolean;
  battery: number;
  lockState: LockState;
  doorOpen: boolean;
  credentialsVersion: number;
  entries: number;
  pendingEvents: number;
}

/** What a SimulatedLock reports to whoever drives it (the CLI prints these). */
export interface SimulatedLockEvents {
  connected: [deviceId: string];
  disconnected: [deviceId: string];
  status: [deviceId: string, status: DeviceStatus];
  event: [deviceId: string, event: LockEvent];
  access: [attempt: AccessAttempt];
  eventsAcked: [ack: { deviceId: string; dropped: string[]; pending: number }];
  credentialsApplied: [applied: CredentialsApplied];
  command: [handled: CommandHandled];
  /** An incoming payload that failed validation or was not meant for this lock. */
  ignored: [ignored: IgnoredMessage];
  /** A connection problem (refused login, broker error); the lock keeps running. */
  connectionError: [error: Error];
}

export type OfflineMode = 'drop' | 'clean';

/**
 * One virtual lock speaking device protocol v1 over its own MQTT connection. It decides access from
 * its retained credential set alone, so it keeps working while the server or broker is away.
 */
export class SimulatedLock extends EventEmitter<SimulatedLockEvents> {
  readonly deviceId: string;
  private readonly options: SimulatedLockOptions;
  private readonly model: LockModel;
  private readonly memory: LockMemory;
  private readonly now: () => Date;
  private client: MqttClient | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private relockTimer: NodeJS.Timeout | null = null;
  private readonly handledCommands = new Map<string, CommandAck>();
  /** QR token nonces already used, with when their token expires (ms). */
  private readonly usedQrNonces = new Map<string, number>();
  /** Per person, the issue time (s) of the last carried update applied: older ones are refused. */
  private readonly carriedAt = new Map<string, number>();
  private batteryLevel: number;
  private lockStateValue: LockState = 'locked';
  private doorOpen = false;
  private connectedBefore = false;

  constructor(options: SimulatedLockOptions) {
    super();
    this.options = options;
    this.deviceId = options.deviceId;
    this.model = options.model ?? DEFAULT_LOCK_MODEL;
    this.memory = new LockMemory(options.stateFile ?? null);
    this.now = options.now ?? (() => new Date());
    this.batteryLevel = clampPercent(options.battery ?? 100);
  }

  get online(): boolean {
    return this.client?.connected ?? false;
  }

  get battery(): number {
    return this.batteryLevel;
  }

  get lockState(): LockState {
    return this.lockStateValue;
  }

  get credentialSet(): CredentialSet | null {
    return this.memory.credentialSet;
  }

  /** Events not yet acknowledged by the server, oldest first. */
  pendingEvents(): LockEvent[] {
    return this.memory.pendingEvents();
  }

  snapshot(): LockSnapshot {
    return {
      deviceId: this.deviceId,
      online: this.online,
      battery: this.batteryLevel,
      lockState: this.lockStateValue,
      doorOpen: this.doorOpen,
      credentialsVersion: this.memory.credentialSet?.version ?? 0,
      entries: this.memory.credentialSet?.entries.length ?? 0,
      pendingEvents: this.memory.pendingCount,
    };
  }

  /** Connects; resolves on the first CONNACK, rejects if the broker refuses the login. */
  start(): Promise<void> {
    return this.comeBack();
  }

  /** Reconnects after goOffline (or starts); resolves once connected. */
  comeBack(): Promise<void> {
    if (this.client) {
      return this.client.connected
        ? Promise.resolve()
        : waitForConnect(this.client, (this.options.reconnectPeriodMs ?? 1000) > 0);
    }
    const client = connect(this.options.url, {
      clientId: this.deviceId,
      username: this.deviceId,
      password: this.options.secret,
      // A clean session: the retained credential set is all a lock needs on reconnect, and stale
      // commands queued by the broker while it was away would only be refused as expired.
      clean: true,
      // Subscriptions are made on every connect (onConnect), in a known order before publishing.
      resubscribe: false,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 1000,
      keepalive: this.options.keepaliveSeconds ?? 30,
      will: {
        topic: this.topic('status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    client.on('connect', () => void this.onConnect(client));
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
    client.on('close', () => this.onClose());
    client.on('error', (error) => this.emit('connectionError', error));
    return waitForConnect(client, (this.options.reconnectPeriodMs ?? 1000) > 0);
  }

  /**
   * Leaves the network. 'drop' cuts the TCP connection without DISCONNECT, as a lock losing power or
   * Wi-Fi does, so the broker publishes the last will; 'clean' says goodbye with status online:false.
   */
  async goOffline(mode: OfflineMode = 'drop'): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    this.stopHeartbeat();
    if (mode === 'clean' && client.connected) {
      const goodbye: DeviceStatus = { online: false, ts: this.now().toISOString() };
      await client.publishAsync(this.topic('status'), JSON.stringify(goodbye), { qos: 1, retain: true });
    }
    await client.endAsync(mode === 'drop');
  }

  /** Stops timers and leaves cleanly; the lock object can be started again. */
  async stop(): Promise<void> {
    this.cancelRelock();
    await this.goOffline('clean');
  }

  enterCode(pin: string): AccessAttempt {
    return this.present({ kind: 'code', secret: pin });
  }

  tapCard(uid: string): AccessAttempt {
    return this.present({ kind: 'rfid', secret: uid });
  }

  presentFingerprint(templateId: string): AccessAttempt {
    return this.present({ kind: 'fingerprint', secret: templateId });
  }

  /**
   * The QR reader: a portal-signed token opens like the person's app, once (phone-tokens.ts). The
   * nonces of used tokens are kept until the token expires; a reboot forgets them, which a
   * two-minute token makes harmless.
   */
  scanQr(scanned: string): AccessAttempt {
    const now = this.now();
    for (const [nonce, expiresAtMs] of this.usedQrNonces) {
      if (expiresAtMs <= now.getTime()) this.usedQrNonces.delete(nonce);
    }
    const scan = evaluateQrScan(this.memory.credentialSet ?? emptyCredentialSet(this.deviceId), scanned, now);
    let decision = scan.decision;
    if (scan.claims) {
      if (this.usedQrNonces.has(scan.claims.n)) decision = { granted: false, reason: 'unknown_credential' };
      else this.usedQrNonces.set(scan.claims.n, scan.claims.exp * 1000);
    }
    return this.act({ kind: 'qr', secret: scanned }, decision);
  }

  /**
   * A person's phone hands over their current credentials while the lock is offline
   * (POST device/{id}/synclock/user/token): checked with the portal key of the last set received,
   * their entries replaced, everyone else's kept, the version unchanged until the next full set.
   */
  carryCredentials(token: string): CarriedUpdate {
    const set = this.memory.credentialSet;
    if (!set) return { applied: false, reason: 'the lock has never received a credential set' };
    const check = verifySyncToken(token, set.qrKey, this.now());
    if (!check.ok) return { applied: false, reason: check.problem };
    const { claims } = check;
    if (claims.iat < (this.carriedAt.get(claims.u) ?? 0)) {
      return { applied: false, reason: 'older than an update already applied' };
    }
    const merged = applySyncClaims(set, claims);
    if (!merged) return { applied: false, reason: 'not for this lock, or older than the set it holds' };
    this.memory.credentialSet = applyCredentialSet(this.model, merged).kept;
    this.carriedAt.set(claims.u, claims.iat);
    return { applied: true, userId: claims.u, entries: claims.e.length };
  }

  presentKey(keyId: string): AccessAttempt {
    return this.present({ kind: 'key', secret: keyId });
  }

  /** The thumb turn inside: no credential needed, it toggles the bolt. */
  turnManually(): LockEvent {
    this.cancelRelock();
    const next: LockState = this.lockStateValue === 'locked' ? 'unlocked' : 'locked';
    this.setLockState(next);
    return this.record({ type: next === 'unlocked' ? 'unlock' : 'lock', method: 'manual' });
  }

  doorAjar(): LockEvent {
    this.doorOpen = true;
    return this.record({ type: 'door_ajar' });
  }

  doorClosed(): LockEvent {
    this.doorOpen = false;
    return this.record({ type: 'door_closed' });
  }

  tamper(): LockEvent {
    return this.record({ type: 'tamper' });
  }

  /**
   * Takes `percent` points off the battery. Crossing the low threshold sends battery_low once;
   * the status (with the new level) goes out either way.
   */
  drainBattery(percent: number): LockEvent | null {
    const before = this.batteryLevel;
    this.batteryLevel = clampPercent(before - percent);
    const threshold = this.options.lowBatteryPercent ?? 20;
    const event =
      before > threshold && this.batteryLevel <= threshold ? this.record({ type: 'battery_low' }) : null;
    if (this.batteryLevel !== before) this.publishStatus();
    return event;
  }

  /** A fresh battery: sets the level (a later drain below the threshold warns again). */
  replaceBattery(level = 100): void {
    this.batteryLevel = clampPercent(level);
    this.publishStatus();
  }

  /** Publishes the current status (retained); also the heartbeat. A no-op while offline. */
  publishStatus(): void {
    const status: DeviceStatus = {
      online: true,
      battery: this.batteryLevel,
      lockState: this.lockStateValue,
      firmware: this.options.firmware ?? 'locksim-0.1.0',
      credentialsVersion: this.memory.credentialSet?.version ?? 0,
      ts: this.now().toISOString(),
    };
    if (this.publish('status', deviceStatusSchema.parse(status), { retain: true }))
      this.emit('status', this.deviceId, status);
  }

  private present(presented: PresentedCredential): AccessAttempt {
    const credentialSet = this.memory.credentialSet ?? emptyCredentialSet(this.deviceId);
    return this.act(presented, evaluateAccess(credentialSet, presented, this.now()));
  }

  /** Opens or refuses as decided, and records the event. */
  private act(presented: PresentedCredential, decision: AccessDecision): AccessAttempt {
    let event: LockEvent;
    if (decision.granted) {
      this.setLockState('unlocked');
      this.scheduleRelock();
      event = this.record({ type: 'unlock', method: presented.kind, credentialId: decision.credentialId });
    } else {
      event = this.record({
        type: 'denied',
        method: presented.kind,
        credentialId: decision.credentialId ?? null,
        reason: decision.reason,
      });
    }
    const attempt: AccessAttempt = { deviceId: this.deviceId, presented, decision, event };
    this.emit('access', attempt);
    return attempt;
  }

  /** Makes an event, keeps it until acknowledged, and sends it now if connected. */
  private record(fields: {
    type: DeviceEventType;
    method?: CredentialKind | 'manual' | null;
    credentialId?: string | null;
    reason?: LockEvent['reason'];
    commandId?: string | null;
  }): LockEvent {
    const event = lockEventSchema.parse({
      eventId: randomUUID(),
      ts: this.now().toISOString(),
      type: fields.type,
      method: fields.method ?? null,
      credentialId: fields.credentialId ?? null,
      reason: fields.reason ?? null,
      commandId: fields.commandId ?? null,
    });
    this.memory.keep(event);
    this.emit('event', this.deviceId, event);
    this.publish('events', event);
    return event;
  }

  private setLockState(next: LockState): void {
    if (next === this.lockStateValue) return;
    this.lockStateValue = next;
    this.publishStatus();
  }

  private scheduleRelock(): void {
    const seconds = this.options.autoRelockSeconds ?? null;
    if (seconds === null) return;
    this.cancelRelock();
    this.relockTimer = setTimeout(() => {
      this.relockTimer = null;
      if (this.lockStateValue !== 'unlocked') return;
      this.setLockState('locked');
      this.record({ type: 'lock' });
    }, seconds * 1000);
  }

  private cancelRelock(): void {
    if (this.relockTimer) clearTimeout(this.relockTimer);
    this.relockTimer = null;
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.connectedBefore = true;
    this.emit('connected', this.deviceId);
    try {
      // Subscribe before announcing ourselves, so a server reacting to the status finds us listening.
      await client.subscribeAsync(
        [this.topic('credentials'), this.topic('events/ack'), this.topic('commands')],
        { qos: 1 },
      );
    } catch (error) {
      this.emit('connectionError', error as Error);
      return;
    }
    if (client !== this.client) return;
    this.publishStatus();
    this.resendPendingEvents();
    this.startHeartbeat();
  }

  private onClose(): void {
    this.stopHeartbeat();
    // 'close' also ends every failed reconnect attempt; report only the loss of a live connection.
    if (!this.connectedBefore) return;
    this.connectedBefore = false;
    this.emit('disconnected', this.deviceId);
  }

  /** After a reconnect: everything not yet acknowledged, in order, in batches. */
  private resendPendingEvents(): void {
    const pending = this.memory.pendingEvents();
    for (let start = 0; start < pending.length; start += MAX_EVENTS_PER_MESSAGE) {
      this.publish('events', pending.slice(start, start + MAX_EVENTS_PER_MESSAGE));
    }
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    const seconds = this.options.heartbeatSeconds ?? 30;
    if (seconds > 0) this.heartbeat = setInterval(() => this.publishStatus(), seconds * 1000);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private onMessage(topic: string, payload: Buffer): void {
    const parsed = parseDeviceTopic(topic);
    if (!parsed || parsed.deviceId !== this.deviceId) return this.ignore(topic, 'not a topic of this lock');
    // An empty retained message is how a broker's retained value is cleared; nothing to apply.
    if (payload.length === 0) return this.ignore(topic, 'empty payload');
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return this.ignore(topic, 'payload is not JSON');
    }
    if (parsed.topic === 'credentials') return this.onCredentials(topic, body);
    if (parsed.topic === 'events/ack') return this.onEventsAck(topic, body);
    if (parsed.topic === 'commands') return this.onCommand(topic, body);
    this.ignore(topic, `a lock does not consume ${parsed.topic}`);
  }

  private onCredentials(topic: string, body: unknown): void {
    const result = credentialsMessageSchema.safeParse(body);
    if (!result.success) return this.ignore(topic, `invalid credential set: ${summarize(result.error)}`);
    // Acknowledging another lock's set would tell the server the wrong lock holds it.
    if (result.data.deviceId !== this.deviceId) {
      return this.ignore(topic, `credential set is for ${result.data.deviceId}`);
    }
    const { kept, rejected } = applyCredentialSet(this.model, result.data);
    this.memory.credentialSet = kept;
    const ack = credentialsAckSchema.parse({ version: kept.version, rejected });
    this.publish('credentials/ack', ack);
    this.emit('credentialsApplied', {
      deviceId: this.deviceId,
      version: kept.version,
      entries: kept.entries.length,
      rejected,
    });
    this.publishStatus();
  }

  private onEventsAck(topic: string, body: unknown): void {
    const result = eventsAckSchema.safeParse(body);
    if (!result.success) return this.ignore(topic, `invalid events ack: ${summarize(result.error)}`);
    const dropped = this.memory.acknowledge(result.data.eventIds);
    this.emit('eventsAcked', { deviceId: this.deviceId, dropped, pending: this.memory.pendingCount });
  }

  private onCommand(topic: string, body: unknown): void {
    const result = deviceCommandSchema.safeParse(body);
    if (!result.success) return this.ignore(topic, `invalid command: ${summarize(result.error)}`);
    const command = result.data;
    const earlier = this.handledCommands.get(command.commandId);
    if (earlier) {
      this.publish('commands/ack', earlier);
      this.emit('command', { deviceId: this.deviceId, command, ack: earlier, repeated: true });
      return;
    }
    const ack = commandAckSchema.parse(this.carryOut(command));
    this.handledCommands.set(command.commandId, ack);
    if (this.handledCommands.size > REMEMBERED_COMMANDS) {
      const oldest = this.handledCommands.keys().next().value;
      if (oldest !== undefined) this.handledCommands.delete(oldest);
    }
    this.publish('commands/ack', ack);
    this.emit('command', { deviceId: this.deviceId, command, ack, repeated: false });
  }

  private carryOut(command: DeviceCommand): CommandAck {
    const { commandId } = command;
    if (Date.parse(command.expiresAt) <= this.now().getTime())
      return { commandId, ok: false, error: 'expired' };
    if (this.lockStateValue === 'jammed') return { commandId, ok: false, error: 'jammed' };
    if (command.action === 'unlock') {
      this.setLockState('unlocked');
      this.scheduleRelock();
    } else {
      this.cancelRelock();
      this.setLockState('locked');
    }
    this.record({
      type: command.action,
      method: 'remote',
      credentialId: this.remoteCredentialOf(command.userId),
      commandId,
    });
    return { commandId, ok: true };
  }

  /** The 'remote' entry (secret = userId) the command was sent under, to name it in the event. */
  private remoteCredentialOf(userId: string | null): string | null {
    if (userId === null) return null;
    const entry = this.memory.credentialSet?.entries.find(
      (candidate) => candidate.kind === 'remote' && candidate.secret === userId,
    );
    return entry?.credentialId ?? null;
  }

  private ignore(topic: string, reason: string): void {
    this.emit('ignored', { deviceId: this.deviceId, topic, reason });
  }

  /** QoS 1 publish under this lock's prefix; returns false (and sends nothing) while offline. */
  private publish(topic: DeviceTopic, payload: unknown, { retain = false } = {}): boolean {
    const client = this.client;
    if (!client?.connected) return false;
    client.publish(this.topic(topic), JSON.stringify(payload), { qos: 1, retain }, (error) => {
      // Unsent events stay in the outbox and go again on reconnect; other messages are re-sent on
      // the next change or heartbeat, so reporting is all there is to do.
      if (error) this.emit('connectionError', error);
    });
    return true;
  }

  private topic(topic: DeviceTopic): string {
    return deviceTopic(this.deviceId, topic);
  }
}

/**
 * Resolves on CONNACK. Rejects when the broker refuses the login (a numeric reason code), and on a
 * network error only if no retry follows: an unreachable broker is waited for, as a real lock does.
 */
function waitForConnect(client: MqttClient, retries: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      client.off('connect', onConnect);
      client.off('error', onError);
    };
    const onConnect = () => {
      settle();
      resolve();
    };
    const onError = (error: Error & { code?: unknown }) => {
      if (retries && typeof error.code !== 'number') return;
      settle();
      reject(error);
    };
    client.on('connect', onConnect);
    client.on('error', onError);
  });
}

function emptyCredentialSet(deviceId: string): CredentialSet {
  return { deviceId, version: 0, timeZone: 'UTC', entries: [], lockouts: [] };
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, Math.round(value)));
}

function summarize(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}
