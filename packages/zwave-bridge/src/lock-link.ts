import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect, type MqttClient } from 'mqtt';
import {
  credentialsMessageSchema,
  deviceCommandSchema,
  deviceTopic,
  eventsAckSchema,
  type CommandAck,
  type CredentialsAck,
  type CredentialSet,
  type DeviceCommand,
  type DeviceStatus,
  type LockEvent,
} from '@latchkey/shared';
import { CRC16_CCITT } from '@zwave-js/core';
import { lockScheduleKey, planSlots, wallClockOf, type SlotPlan } from './slots';
import type { BridgeStore } from './store';
import {
  AccessControlEvent,
  type AccessNotification,
  type LockNodeCapabilities,
  type ZWaveLock,
} from './zwave-lock';

export const BRIDGE_VERSION = '0.1.0';

export interface LockLinkOptions {
  mqttUrl: string;
  deviceId: string;
  secret: string;
  lock: ZWaveLock;
  store: BridgeStore;
  /** The bridge's clock (the lock's wall clock is the set's time zone on it). */
  now?: () => Date;
  /** How often the bridge re-plans the slots, so windows open and close at their edges. */
  tickMs?: number;
  heartbeatMs?: number;
  /** A lock's "code added/deleted" report this soon after the bridge wrote the slot is that write's echo. */
  echoMs?: number;
  /** How often a dead node is pinged, so it is back as soon as it answers. */
  pingMs?: number;
  /** Attempts per slot write before the entry is given up as refused by the lock. */
  writeAttempts?: number;
  retryDelayMs?: number;
  reconnectPeriodMs?: number;
}

export interface LockLinkEvents {
  connected: [];
  /** The set was applied and acknowledged. */
  applied: [ack: CredentialsAck];
  /** A slot was found changed at the lock (outside Latchkey). */
  drift: [slot: number];
  event: [event: LockEvent];
  log: [message: string];
  /** The broker closed the connection at once, or refused the login. */
  refused: [reason: string];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One Z-Wave lock towards Latchkey: its own MQTT connection (client id = device id) speaking device
 * protocol v1. Credential sets become user-code slot writes, notifications become events, commands
 * go to the Door Lock CC. Each lock has its own queue: a dead node waits here and blocks no other.
 */
export class LockLink extends EventEmitter<LockLinkEvents> {
  readonly deviceId: string;
  private client: MqttClient | null = null;
  private readonly now: () => Date;
  private set: CredentialSet | null = null;
  private plan: SlotPlan | null = null;
  private capabilities: LockNodeCapabilities;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  /** Slots whose content is unknown until read (first start, or a change at the lock). */
  private unknownSlots = new Set<number>();
  /** RFID slots whose content is unknown until read (first start, or a change at the lock). */
  private unknownCards = new Set<number>();
  /** Slots a notification said were changed at the lock (a masked code cannot be compared). */
  private notifiedSlots = new Set<number>();
  /** When the bridge last wrote each slot: a lock's own "code added/deleted" report of it is ours. */
  private readonly recentWrites = new Map<number, number>();
  /** Until when RF lock/unlock notifications are ours (a command we sent), not someone else's. */
  private ownRfUntil = 0;
  private lastStatus = '';
  /** Set by a "lock jammed" notification, until the lock next moves. */
  private jammed = false;
  /** Whether the lock's slots must be checked against what the bridge wrote (start, node back). */
  private checkDrift = true;

  constructor(private readonly options: LockLinkOptions) {
    super();
    this.deviceId = options.deviceId;
    this.now = options.now ?? (() => new Date());
    this.capabilities = options.lock.capabilities();
    const memory = options.store.memory(this.deviceId);
    for (let slot = 1; slot <= this.capabilities.userCodes; slot++) {
      if (!(String(slot) in memory.written)) this.unknownSlots.add(slot);
    }
    for (let slot = 1; slot <= this.capabilities.rfidSlots; slot++) {
      if (!(String(slot) in (memory.cardsWritten ?? {}))) this.unknownCards.add(slot);
    }
  }

  get appliedVersion(): number {
    return this.options.store.memory(this.deviceId).appliedVersion;
  }

  start(): void {
    const { lock } = this.options;
    lock.on('dead', () => {
      this.log(`node ${lock.nodeId} is dead: offline until it answers again`);
      this.publishStatus();
    });
    lock.on('alive', () => {
      this.log(`node ${lock.nodeId} is alive again`);
      this.publishStatus();
      this.checkDrift = true;
      this.kick();
    });
    lock.on('changed', () => this.publishStatus());
    lock.on('access', (n) => void this.onAccess(n));

    const client = connect(this.options.mqttUrl, {
      clientId: this.deviceId,
      username: this.deviceId,
      password: this.options.secret,
      protocolVersion: 4,
      clean: true,
      keepalive: 30,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
      connectTimeout: 5000,
      will: {
        topic: deviceTopic(this.deviceId, 'status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    let connectedAt = 0;
    client.on('connect', () => {
      connectedAt = Date.now();
      void (async () => {
        await client.subscribeAsync(
          [this.topic('credentials'), this.topic('events/ack'), this.topic('commands')],
          { qos: 1 },
        );
        this.lastStatus = '';
        this.publishStatus();
        this.resendEvents();
        this.emit('connected');
      })().catch((error: unknown) => this.log(`subscribing failed: ${String(error)}`));
    });
    client.on('close', () => {
      // A connection closed within a moment of opening is the broker refusing it: most often more
      // locks behind this address than MQTT_MAX_CONNECTIONS_PER_IP allows (docs/bridges/zwave.md).
      if (connectedAt === 0 || Date.now() - connectedAt < 1000) {
        this.emit('refused', 'the broker closed the connection at once');
      }
      connectedAt = 0;
    });
    client.on('error', (error) => {
      this.log(`MQTT: ${error.message}`);
      this.emit('refused', error.message);
    });
    client.on('message', (topic, payload) => this.onMessage(topic, payload));

    this.timers.push(setInterval(() => this.kick(), this.options.tickMs ?? 15_000));
    this.timers.push(setInterval(() => this.publishStatus(true), this.options.heartbeatMs ?? 30_000));
    this.timers.push(
      setInterval(() => {
        if (!lock.alive && !this.stopped) void lock.ping();
      }, this.options.pingMs ?? 30_000),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.options.lock.detach();
    await this.running?.catch(() => undefined);
    const client = this.client;
    if (client?.connected) {
      await client
        .publishAsync(this.topic('status'), JSON.stringify({ online: false, ts: this.now().toISOString() }), {
          qos: 1,
          retain: true,
        })
        .catch(() => undefined);
    }
    await client?.endAsync().catch(() => undefined);
  }

  /** Re-plans now (the bridge's clock moved, or a window edge passed). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.reconcile();
        } catch (error) {
          this.log(`sync failed: ${String(error)}`);
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Compares the lock's user-code checksum with what the bridge wrote, on the next sync (now). */
  checkDriftNow(): void {
    this.checkDrift = true;
    this.kick();
  }

  /** Resolves once no sync is running (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private topic(name: Parameters<typeof deviceTopic>[1]) {
    return deviceTopic(this.deviceId, name);
  }

  private log(message: string) {
    this.emit('log', `[${this.deviceId.slice(0, 8)} node ${this.options.lock.nodeId}] ${message}`);
  }

  private onMessage(topic: string, payload: Buffer) {
    if (payload.length === 0) return;
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log(`dropped a payload that is not JSON on ${topic}`);
      return;
    }
    if (topic === this.topic('credentials')) {
      const parsed = credentialsMessageSchema.safeParse(body);
      if (!parsed.success || parsed.data.deviceId !== this.deviceId) {
        this.log('dropped an invalid credential set');
        return;
      }
      this.set = parsed.data;
      this.kick();
    } else if (topic === this.topic('events/ack')) {
      const parsed = eventsAckSchema.safeParse(body);
      if (!parsed.success) return;
      const acked = new Set(parsed.data.eventIds);
      this.options.store.update(this.deviceId, (m) => {
        m.pendingEvents = m.pendingEvents.filter((e) => !acked.has(e.eventId));
      });
    } else if (topic === this.topic('commands')) {
      const parsed = deviceCommandSchema.safeParse(body);
      if (parsed.success) void this.onCommand(parsed.data);
    }
  }

  // ---- status -------------------------------------------------------------------------------

  private status(): DeviceStatus {
    const { lock } = this.options;
    if (!lock.alive) return { online: false, ts: this.now().toISOString() };
    return {
      online: true,
      battery: lock.battery() ?? 100,
      lockState: this.jammed ? 'jammed' : lock.lockState(),
      firmware: `${lock.firmware} (Z-Wave node ${lock.nodeId}, bridge ${BRIDGE_VERSION})`.slice(0, 64),
      credentialsVersion: this.appliedVersion,
      // The node's own slots, not the zwave-lock model's figure: the portal counts codes against them.
      capabilities: {
        codeSlots: this.capabilities.userCodes,
        codeLength:
          this.capabilities.userCodes > 0
            ? { min: this.capabilities.minLength, max: this.capabilities.maxLength }
            : null,
        kinds: this.capabilities.kinds,
      },
      ts: this.now().toISOString(),
    };
  }

  /** Publishes the status when it changed (or always, as the heartbeat). */
  private publishStatus(heartbeat = false) {
    const client = this.client;
    if (!client?.connected) return;
    const status = this.status();
    const { ts: _ts, ...withoutTs } = status as DeviceStatus & { ts?: string };
    void _ts;
    const key = JSON.stringify(withoutTs);
    if (!heartbeat && key === this.lastStatus) return;
    if (heartbeat && !status.online) return;
    this.lastStatus = key;
    void client
      .publishAsync(this.topic('status'), JSON.stringify(status), { qos: 1, retain: true })
      .catch(() => undefined);
  }

  // ---- events -------------------------------------------------------------------------------

  private sendEvent(event: Omit<LockEvent, 'eventId' | 'ts'> & { ts?: string }) {
    const full: LockEvent = { eventId: randomUUID(), ts: this.now().toISOString(), ...event } as LockEvent;
    this.options.store.update(this.deviceId, (m) => {
      m.pendingEvents.push(full);
      // A bounded buffer: the oldest go first if the server stays away for very long.
      if (m.pendingEvents.length > 5000) m.pendingEvents.splice(0, m.pendingEvents.length - 5000);
    });
    this.emit('event', full);
    if (this.client?.connected) {
      void this.client
        .publishAsync(this.topic('events'), JSON.stringify(full), { qos: 1 })
        .catch(() => undefined);
    }
  }

  private resendEvents() {
    const pending = this.options.store.memory(this.deviceId).pendingEvents;
    for (let i = 0; i < pending.length; i += 500) {
      void this.client
        ?.publishAsync(this.topic('events'), JSON.stringify(pending.slice(i, i + 500)), { qos: 1 })
        .catch(() => undefined);
    }
  }

  /** The credential that holds a slot (from the stable assignment), or null. */
  private credentialOfSlot(slot: number | null): string | null {
    return slot === null ? null : holderOf(this.options.store.memory(this.deviceId).assignment, slot);
  }

  /** The card that holds an RFID slot (from the stable assignment), or null. */
  private credentialOfCardSlot(slot: number): string | null {
    return holderOf(this.options.store.memory(this.deviceId).cardAssignment ?? {}, slot);
  }

  private async onAccess(n: AccessNotification) {
    const E = AccessControlEvent;
    // A user id past the code slots is a card's User Credential CC user (ZWaveLock.cardUser).
    const cardSlot = n.userId !== null ? this.options.lock.cardSlotOfUser(n.userId) : null;
    const ownRf = Date.now() < this.ownRfUntil;
    if (n.event !== E.jammed && n.event <= E.autoLock) this.jammed = false;
    switch (n.event) {
      case E.keypadUnlock:
      case E.keypadLock:
        this.sendEvent({
          type: n.event === E.keypadUnlock ? 'unlock' : 'lock',
          method: cardSlot !== null ? 'rfid' : 'code',
          credentialId:
            cardSlot !== null ? this.credentialOfCardSlot(cardSlot) : this.credentialOfSlot(n.userId),
          reason: null,
          commandId: null,
        });
        break;
      case E.manualLock:
      case E.manualUnlock:
      case E.autoLock:
        this.sendEvent({
          type: n.event === E.manualUnlock ? 'unlock' : 'lock',
          method: 'manual',
          credentialId: null,
          reason: null,
          commandId: null,
        });
        break;
      case E.rfLock:
      case E.rfUnlock:
        // Our own commands are reported with their commandId (onCommand); these are other controllers'.
        if (!ownRf) {
          this.sendEvent({
            type: n.event === E.rfUnlock ? 'unlock' : 'lock',
            method: 'remote',
            credentialId: null,
            reason: null,
            commandId: null,
          });
        }
        break;
      case E.invalidCodeLimit:
      case E.invalidCredential:
        this.sendEvent({
          type: 'denied',
          method: 'code',
          credentialId: null,
          reason: 'unknown_credential',
          commandId: null,
        });
        break;
      case E.jammed:
        this.jammed = true;
        this.publishStatus();
        this.sendEvent({ type: 'tamper', method: null, credentialId: null, reason: null, commandId: null });
        break;
      case E.userCodeAdded:
      case E.userCodeDeleted:
      case E.allUserCodesDeleted: {
        // A code changed at the lock itself: re-read the slot(s), report it, and restore the portal's.
        if (cardSlot !== null) {
          // A card's user: its RFID slot is read again on the next sync and restored.
          this.unknownCards.add(cardSlot);
          this.kick();
          break;
        }
        const slots =
          n.userId !== null && n.userId > 0
            ? [n.userId]
            : Array.from({ length: this.capabilities.userCodes }, (_, i) => i + 1);
        const mine = (slot: number) =>
          Date.now() - (this.recentWrites.get(slot) ?? 0) < (this.options.echoMs ?? 5000);
        // Every such slot is read again; on a lock that masks codes (nothing to compare), the report
        // itself marks the slot changed, unless it is the echo of the bridge's own write.
        for (const slot of slots) {
          this.unknownSlots.add(slot);
          if (!mine(slot)) this.notifiedSlots.add(slot);
        }
        this.kick();
        break;
      }
      default:
        break;
    }
  }

  // ---- commands -----------------------------------------------------------------------------

  private async onCommand(command: DeviceCommand) {
    const answer = (ack: CommandAck) =>
      void this.client
        ?.publishAsync(this.topic('commands/ack'), JSON.stringify(ack), { qos: 1 })
        .catch(() => undefined);
    const { lock } = this.options;
    if (Date.parse(command.expiresAt) <= this.now().getTime()) {
      answer({ commandId: command.commandId, ok: false, error: 'expired' });
      return;
    }
    if (!this.capabilities.kinds.includes('remote')) {
      answer({ commandId: command.commandId, ok: false, error: 'unsupported' });
      return;
    }
    if (!lock.alive) {
      answer({ commandId: command.commandId, ok: false, error: 'busy' });
      return;
    }
    try {
      this.ownRfUntil = Date.now() + 5000;
      await lock.setLocked(command.action === 'lock');
    } catch (error) {
      this.log(`the Door Lock CC did not take ${command.action}: ${String(error)}`);
      answer({ commandId: command.commandId, ok: false, error: this.jammed ? 'jammed' : 'busy' });
      return;
    }
    this.jammed = false;
    answer({ commandId: command.commandId, ok: true });
    const remote = command.userId ? `remote:${command.userId}` : null;
    const holds = remote !== null && this.set?.entries.some((e) => e.credentialId === remote);
    this.sendEvent({
      type: command.action,
      method: 'remote',
      credentialId: holds ? remote : null,
      reason: null,
      commandId: command.commandId,
    });
    this.publishStatus();
  }

  // ---- credential sets → slots --------------------------------------------------------------

  private async withRetries<T>(what: string, action: () => Promise<T>): Promise<T> {
    const attempts = this.options.writeAttempts ?? 3;
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (!this.options.lock.alive) throw new NodeDead();
      try {
        return await action();
      } catch (error) {
        last = error;
        if (!this.options.lock.alive) throw new NodeDead();
        this.log(`${what}: attempt ${attempt} of ${attempts} failed: ${String(error)}`);
        if (attempt < attempts) await sleep((this.options.retryDelayMs ?? 1000) * attempt);
      }
    }
    throw last instanceof Error ? last : new Error(String(last));
  }

  /**
   * Compares the lock's user-code checksum with what the bridge wrote (where the lock supports it):
   * a difference means codes were changed at the lock (or the lock was reset), so every slot is read
   * again, reported and restored.
   */
  private async compareChecksum(): Promise<void> {
    this.checkDrift = false;
    if (!this.capabilities.userCodeChecksum) return;
    const expected = expectedChecksum(
      this.options.store.memory(this.deviceId).written,
      this.capabilities.userCodes,
    );
    if (expected === undefined) return;
    const actual = await this.withRetries('reading the user-code checksum', () =>
      this.options.lock.checksum(),
    );
    if (actual !== undefined && actual !== expected) {
      this.log('the user-code checksum differs from what the bridge wrote: reading every slot');
      for (let slot = 1; slot <= this.capabilities.userCodes; slot++) this.unknownSlots.add(slot);
    }
  }

  private async reconcile(): Promise<void> {
    const set = this.set;
    const { lock, store } = this.options;
    if (!set || !lock.alive || this.stopped) return;
    const memory = store.memory(this.deviceId);
    const plan = planSlots(
      set,
      this.capabilities,
      new Map(Object.entries(memory.assignment)),
      this.now(),
      new Map(Object.entries(memory.cardAssignment ?? {})),
    );
    this.plan = plan;
    store.update(this.deviceId, (m) => {
      m.assignment = Object.fromEntries(plan.assignment);
      if (this.capabilities.rfidSlots > 0) m.cardAssignment = Object.fromEntries(plan.cards.assignment);
    });

    try {
      if (this.checkDrift) await this.compareChecksum();
      // Slots whose content is unknown are read first (first start, or changed at the lock).
      for (const slot of [...this.unknownSlots].sort((a, b) => a - b)) {
        const read = await this.withRetries(`reading slot ${slot}`, () => lock.readSlot(slot));
        const known = store.memory(this.deviceId).written[String(slot)];
        const actual = read.occupied ? (read.code ?? '*') : null;
        const notified = this.notifiedSlots.delete(slot);
        // A masked slot that still holds a code matches what the bridge wrote, unless the lock
        // itself said the code was changed there.
        const maskedMatch = read.occupied && read.code === null && known !== null && !notified;
        if (known !== undefined && actual !== known && !maskedMatch) {
          this.log(`slot ${slot} was changed at the lock: restoring what the portal says`);
          this.emit('drift', slot);
          this.sendEvent({
            type: 'tamper',
            method: 'code',
            credentialId: this.credentialOfSlot(slot),
            reason: null,
            commandId: null,
          });
        }
        // A masked code the bridge wrote is taken as written (write-only codes: no endless re-set).
        const next = maskedMatch && known ? known : actual;
        store.update(this.deviceId, (m) => {
          m.written[String(slot)] = next;
        });
        this.unknownSlots.delete(slot);
      }

      const refused = new Map<string, 'invalid_secret'>();
      const filled = new Set<number>();
      const written = store.memory(this.deviceId).written;
      const changes = [...plan.desired].filter(([slot, code]) => (written[String(slot)] ?? null) !== code);
      // Remove before add: every slot that must change is emptied first, so the lock never sees a
      // code twice (a code moved to another credential, a duplicate refused).
      const clears = changes.filter(([slot]) => (written[String(slot)] ?? null) !== null);
      for (const [slot] of clears) {
        this.recentWrites.set(slot, Date.now());
        await this.withRetries(`emptying slot ${slot}`, () => lock.writeSlot(slot, null));
        store.update(this.deviceId, (m) => {
          m.written[String(slot)] = null;
        });
      }
      for (const [slot, code] of changes) {
        if (code === null) continue;
        try {
          this.recentWrites.set(slot, Date.now());
          await this.withRetries(`writing slot ${slot}`, () => lock.writeSlot(slot, code));
          store.update(this.deviceId, (m) => {
            m.written[String(slot)] = code;
          });
          filled.add(slot);
        } catch (error) {
          if (error instanceof NodeDead) throw error;
          // The lock refused the code every time: the entry is rejected, the others go on.
          const credentialId = plan.slotOwners.get(slot);
          if (credentialId) refused.set(credentialId, 'invalid_secret');
          this.unknownSlots.add(slot);
        }
      }

      await this.syncCards(plan, refused);

      if (memory.appliedVersion !== set.version || refused.size > 0) {
        const rejected = [
          ...plan.rejected,
          ...[...refused].map(([credentialId, reason]) => ({ credentialId, reason })),
        ];
        const ack: CredentialsAck = { version: set.version, rejected };
        await this.client?.publishAsync(this.topic('credentials/ack'), JSON.stringify(ack), { qos: 1 });
        store.update(this.deviceId, (m) => {
          m.appliedVersion = set.version;
        });
        this.log(
          `applied set ${set.version} (${plan.assignment.size} codes, ${plan.cards.assignment.size} cards, ${rejected.length} rejected)`,
        );
        this.publishStatus();
        this.emit('applied', ack);
      }
      await this.syncSchedules(set, plan, filled);
    } catch (error) {
      if (error instanceof NodeDead) {
        this.log('the node stopped answering: the set waits until it is back');
        return;
      }
      throw error;
    }
  }

  /**
   * Cards, where the node has RFID credential slots: the same steps as the codes. Slots whose content
   * is unknown are read first (a card found there that the bridge did not write is reported and
   * replaced), slots that change are emptied before any card is written (remove before add), and a
   * card the lock refuses every time is rejected `invalid_secret` while the others go on.
   */
  private async syncCards(plan: SlotPlan, refused: Map<string, 'invalid_secret'>): Promise<void> {
    if (this.capabilities.rfidSlots === 0) return;
    const { lock, store } = this.options;
    const writtenCard = (slot: number) => store.memory(this.deviceId).cardsWritten?.[String(slot)];
    const remember = (slot: number, uid: string | null) =>
      store.update(this.deviceId, (m) => {
        m.cardsWritten = { ...m.cardsWritten, [String(slot)]: uid };
      });
    for (const slot of [...this.unknownCards].sort((a, b) => a - b)) {
      const read = await this.withRetries(`reading RFID slot ${slot}`, () => lock.readCard(slot));
      const known = writtenCard(slot);
      const actual = read.occupied ? (read.uid ?? '*') : null;
      // A lock that does not read cards back holds what the bridge wrote while the slot is occupied.
      const hiddenMatch = read.occupied && read.uid === null && known !== null && known !== undefined;
      if (known !== undefined && actual !== known && !hiddenMatch) {
        this.log(`RFID slot ${slot} was changed at the lock: restoring what the portal says`);
        this.sendEvent({
          type: 'tamper',
          method: 'rfid',
          credentialId: this.credentialOfCardSlot(slot),
          reason: null,
          commandId: null,
        });
      }
      remember(slot, hiddenMatch && known ? known : actual);
      this.unknownCards.delete(slot);
    }

    const changes = [...plan.cards.desired].filter(([slot, uid]) => (writtenCard(slot) ?? null) !== uid);
    for (const [slot] of changes.filter(([slot]) => (writtenCard(slot) ?? null) !== null)) {
      await this.withRetries(`emptying RFID slot ${slot}`, () => lock.writeCard(slot, null));
      remember(slot, null);
    }
    for (const [slot, uid] of changes) {
      if (uid === null) continue;
      try {
        await this.withRetries(`writing RFID slot ${slot}`, () => lock.writeCard(slot, uid));
        remember(slot, uid);
      } catch (error) {
        if (error instanceof NodeDead) throw error;
        const credentialId = plan.cards.slotOwners.get(slot);
        if (credentialId) refused.set(credentialId, 'invalid_secret');
        this.unknownCards.add(slot);
      }
    }
  }

  /**
   * The lock-side guard, where the node has the Schedule Entry Lock CC: a code with an end (a stay's
   * guest code, an invite) also carries a year-day schedule [validFrom or now .. validUntil] on the
   * lock's clock (the set's time zone), so the lock itself refuses it after the end even while the
   * bridge is down. A code without an end, or an emptied slot, has its schedule erased and scheduling
   * turned off. Runs only for slots whose code write the lock confirmed; a slot given a code in this
   * sync (`filled`) has its schedule set again, as a lock may drop it with the old code. A failure is logged and tried
   * again on the next sync, but never rejects the credential: the bridge's own edges still hold.
   */
  private async syncSchedules(set: CredentialSet, plan: SlotPlan, filled: Set<number>): Promise<void> {
    if (!this.capabilities.scheduleEntryLock) return;
    const { lock, store } = this.options;
    const entries = new Map(set.entries.map((e) => [e.credentialId, e]));
    for (const [slot, code] of plan.desired) {
      const memory = store.memory(this.deviceId);
      // A code that did not go in has nothing to guard yet.
      if ((memory.written[String(slot)] ?? null) !== code) continue;
      const owner = plan.slotOwners.get(slot);
      const entry = code !== null && owner !== undefined ? entries.get(owner) : undefined;
      const wanted = lockScheduleKey(set, entry);
      const known = memory.schedules?.[String(slot)];
      if (wanted === known && !(wanted !== null && filled.has(slot))) continue;
      // An empty slot the bridge never scheduled: nothing to erase.
      if (wanted === null && known === undefined && code === null) continue;
      try {
        if (wanted === null || !entry?.validUntil) {
          await this.withRetries(`erasing the schedule of slot ${slot}`, async () => {
            await lock.clearSchedules(slot);
            await lock.setSchedulesEnabled(false, slot);
          });
        } else {
          const from = entry.validFrom ? new Date(entry.validFrom) : this.now();
          const start = wallClockOf(from, set.timeZone);
          const stop = wallClockOf(new Date(entry.validUntil), set.timeZone);
          await this.withRetries(`setting the schedule of slot ${slot}`, async () => {
            await lock.setYearDaySchedule(slot, start, stop);
            await lock.setSchedulesEnabled(true, slot);
          });
        }
        store.update(this.deviceId, (m) => {
          m.schedules = { ...m.schedules, [String(slot)]: wanted };
        });
      } catch (error) {
        if (error instanceof NodeDead) throw error;
        this.log(
          `the lock did not take the schedule of slot ${slot} (the bridge still keeps its window): ${String(error)}`,
        );
      }
    }
  }
}

/** The credential a stable assignment (credentialId → slot) puts in `slot`, or null. */
function holderOf(assignment: Record<string, number>, slot: number): string | null {
  for (const [credentialId, s] of Object.entries(assignment)) if (s === slot) return credentialId;
  return null;
}

/**
 * The User Code CC v2 checksum of what the bridge wrote: CRC-16-CCITT over (slot, status, code) of
 * every occupied slot, as the lock computes it. Undefined when a written code is not known (masked).
 */
export function expectedChecksum(written: Record<string, string | null>, slots: number): number | undefined {
  const parts: number[] = [];
  for (let slot = 1; slot <= slots; slot++) {
    const code = written[String(slot)];
    if (code === undefined) return undefined;
    if (code === null) continue;
    if (code.startsWith('*')) return undefined;
    parts.push(slot >> 8, slot & 0xff, 0x01, ...Buffer.from(code, 'ascii'));
  }
  return parts.length === 0 ? 0 : CRC16_CCITT(Uint8Array.from(parts));
}

class NodeDead extends Error {
  constructor() {
    super('node is dead');
  }
}
