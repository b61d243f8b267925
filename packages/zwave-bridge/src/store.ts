import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LockEvent } from '@latchkey/shared';

/** A lock node registered as a device: its id and secret (the server keeps only a hash). */
export interface RegisteredDevice {
  deviceId: string;
  secret: string;
}

/** What the bridge remembers per lock across restarts. */
export interface LockMemory {
  /** credentialId → user-code slot: a code never moves between slots. */
  assignment: Record<string, number>;
  /** What the bridge last wrote and the lock confirmed: slot → code, or null for empty. */
  written: Record<string, string | null>;
  /**
   * The year-day schedule the lock confirmed per slot (lockScheduleKey), null for none; absent for a
   * slot the bridge never scheduled, and in files written before schedules were programmed.
   */
  schedules?: Record<string, string | null>;
  /**
   * Cards, where the lock has RFID credential slots (User Credential CC): credentialId → RFID slot,
   * and what the bridge last wrote there (slot → UID, or null for empty). Absent in files written
   * before cards were put on locks.
   */
  cardAssignment?: Record<string, number>;
  cardsWritten?: Record<string, string | null>;
  /** Version of the credential set applied last (0 before the first). */
  appliedVersion: number;
  /** Events not yet acknowledged by the server (resent after every reconnect). */
  pendingEvents: LockEvent[];
}

interface StoreFile {
  /** nodeKey (`homeId:nodeId`) → device. */
  devices: Record<string, RegisteredDevice>;
  locks: Record<string, LockMemory>;
}

const emptyMemory = (): LockMemory => ({ assignment: {}, written: {}, appliedVersion: 0, pendingEvents: [] });

/**
 * The bridge's data folder: one JSON file (mode 0600, it holds device secrets), written whole to a
 * temporary file and renamed, so a crash never leaves half a file.
 */
export class BridgeStore {
  private readonly file: string;
  private data: StoreFile;

  constructor(readonly dataDir: string) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.file = join(dataDir, 'bridge.json');
    try {
      this.data = JSON.parse(readFileSync(this.file, 'utf8')) as StoreFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.data = { devices: {}, locks: {} };
    }
  }

  device(nodeKey: string): RegisteredDevice | undefined {
    return this.data.devices[nodeKey];
  }

  setDevice(nodeKey: string, device: RegisteredDevice): void {
    this.data.devices[nodeKey] = device;
    this.save();
  }

  memory(deviceId: string): LockMemory {
    this.data.locks[deviceId] ??= emptyMemory();
    return this.data.locks[deviceId];
  }

  /** Changes a lock's memory and writes the file. */
  update(deviceId: string, change: (memory: LockMemory) => void): void {
    change(this.memory(deviceId));
    this.save();
  }

  /** Forgets what was written to every lock (a lock reset: every slot is read again). */
  forgetSlots(): void {
    for (const memory of Object.values(this.data.locks)) {
      memory.written = {};
      memory.schedules = {};
      memory.cardsWritten = {};
    }
    this.save();
  }

  private save(): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
