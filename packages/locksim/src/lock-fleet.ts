import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { LockModel } from './lock-model';
import { SimulatedLock, type SimulatedLockEvents, type SimulatedLockOptions } from './simulated-lock';

/** One lock of a fleet: its identity and what may differ from the fleet's defaults. */
export interface FleetLockSpec {
  deviceId: string;
  secret: string;
  model?: LockModel;
  battery?: number;
  firmware?: string;
}

export interface LockFleetOptions extends Pick<
  SimulatedLockOptions,
  'url' | 'model' | 'firmware' | 'lowBatteryPercent' | 'autoRelockSeconds' | 'now' | 'reconnectPeriodMs'
> {
  locks: readonly FleetLockSpec[];
  /** Each lock's status heartbeat; the fleet spreads them evenly over the period. 0 turns them off. */
  heartbeatSeconds?: number;
  /** How many logins are in flight at once, so 1,000 locks do not hit the broker in one burst. */
  connectConcurrency?: number;
  /** A directory for one state file per lock (credential set and unacknowledged events). */
  stateDir?: string | null;
}

export interface FleetStartResult {
  connected: string[];
  failed: { deviceId: string; error: Error }[];
}

const FORWARDED_EVENTS: (keyof SimulatedLockEvents)[] = [
  'connected',
  'disconnected',
  'status',
  'event',
  'access',
  'eventsAcked',
  'credentialsApplied',
  'command',
  'ignored',
  'connectionError',
];

/**
 * Many simulated locks in one process. Each lock keeps its own MQTT connection, because the broker
 * authenticates, authorises and fires the last will per device; what the fleet shares is the work
 * around them: staggered logins, one heartbeat timer instead of one per lock, and one event stream.
 */
export class LockFleet extends EventEmitter<SimulatedLockEvents> {
  private readonly locks = new Map<string, SimulatedLock>();
  private readonly options: LockFleetOptions;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private heartbeatCursor = 0;

  constructor(options: LockFleetOptions) {
    super();
    this.options = options;
    for (const spec of options.locks) {
      if (this.locks.has(spec.deviceId)) throw new Error(`lock ${spec.deviceId} is listed twice`);
      const lock = new SimulatedLock({
        url: options.url,
        deviceId: spec.deviceId,
        secret: spec.secret,
        model: spec.model ?? options.model,
        firmware: spec.firmware ?? options.firmware,
        battery: spec.battery,
        lowBatteryPercent: options.lowBatteryPercent,
        autoRelockSeconds: options.autoRelockSeconds,
        now: options.now,
        reconnectPeriodMs: options.reconnectPeriodMs,
        heartbeatSeconds: 0,
        stateFile: options.stateDir ? join(options.stateDir, `${spec.deviceId}.json`) : null,
      });
      for (const name of FORWARDED_EVENTS) {
        lock.on(name, (...args: unknown[]) =>
          (this.emit as (name: string, ...args: unknown[]) => boolean)(name, ...args),
        );
      }
      this.locks.set(spec.deviceId, lock);
    }
  }

  get size(): number {
    return this.locks.size;
  }

  /** The lock with this device id; throws for an id the fleet does not run. */
  get(deviceId: string): SimulatedLock {
    const lock = this.locks.get(deviceId);
    if (!lock) throw new Error(`no lock ${deviceId} in this fleet`);
    return lock;
  }

  has(deviceId: string): boolean {
    return this.locks.has(deviceId);
  }

  all(): SimulatedLock[] {
    return [...this.locks.values()];
  }

  /** Connects every lock, a few at a time; a refused login is reported, not thrown. */
  async start(): Promise<FleetStartResult> {
    const result: FleetStartResult = { connected: [], failed: [] };
    await inBatches(this.all(), this.options.connectConcurrency ?? 50, async (lock) => {
      try {
        await lock.start();
        result.connected.push(lock.deviceId);
      } catch (error) {
        result.failed.push({ deviceId: lock.deviceId, error: error as Error });
      }
    });
    this.startHeartbeat();
    return result;
  }

  async stop(): Promise<void> {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    await inBatches(this.all(), this.options.connectConcurrency ?? 50, (lock) => lock.stop());
  }

  /** One timer ticking every second, each tick sending the heartbeat of the next slice of locks. */
  private startHeartbeat(): void {
    const seconds = this.options.heartbeatSeconds ?? 30;
    if (seconds <= 0 || this.locks.size === 0) return;
    const locks = this.all();
    const perTick = Math.ceil(locks.length / seconds);
    this.heartbeatTimer = setInterval(() => {
      for (let sent = 0; sent < perTick; sent += 1) {
        locks[this.heartbeatCursor]?.publishStatus();
        this.heartbeatCursor = (this.heartbeatCursor + 1) % locks.length;
      }
    }, 1000);
  }
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>) {
  for (let start = 0; start < items.length; start += Math.max(1, size)) {
    await Promise.all(items.slice(start, start + Math.max(1, size)).map(work));
  }
}
