import { EventEmitter } from 'node:events';
import {
  BatteryCCValues,
  DoorLockCCValues,
  DoorLockMode,
  ScheduleEntryLockCC,
  UserCodeCC,
  UserIDStatus,
} from '@zwave-js/cc';
import { CommandClasses, isUnsupervisedOrSucceeded, type SupervisionResult } from '@zwave-js/core';
import type { LockState } from '@latchkey/shared';
import {
  NodeStatus,
  type Driver,
  type ZWaveNode,
  type ZWaveNotificationCallbackArgs_NotificationCC,
} from 'zwave-js';
import type { KeypadCapabilities, WallClockTime } from './slots';

/** Access Control notification events (Notification CC type 6) the bridge turns into protocol events. */
export const ACCESS_CONTROL = 0x06;
export const AccessControlEvent = {
  manualLock: 0x01,
  manualUnlock: 0x02,
  rfLock: 0x03,
  rfUnlock: 0x04,
  keypadLock: 0x05,
  keypadUnlock: 0x06,
  autoLock: 0x09,
  jammed: 0x0b,
  allUserCodesDeleted: 0x0c,
  userCodeDeleted: 0x0d,
  userCodeAdded: 0x0e,
  duplicateCode: 0x0f,
  invalidCodeLimit: 0x13,
  invalidCredential: 0x32,
} as const;

export interface LockNodeCapabilities extends KeypadCapabilities {
  /**
   * Schedule Entry Lock CC present with a year-day schedule per user: the bridge then also programs
   * a code's end on the lock (a second guard; the bridge enforces windows itself either way).
   */
  scheduleEntryLock: boolean;
  /** User Code CC v2 checksum, to notice codes changed at the lock. */
  userCodeChecksum: boolean;
  /** Credential kinds the bridge can put on this lock. */
  kinds: ('code' | 'remote')[];
}

/** What a slot holds, as the lock answers. `code` is null when the lock masks it ("****"). */
export interface SlotContent {
  occupied: boolean;
  code: string | null;
}

export interface AccessNotification {
  event: number;
  /** The user-code slot named by the notification, when there is one. */
  userId: number | null;
}

export interface ZWaveLockEvents {
  access: [notification: AccessNotification];
  alive: [];
  dead: [];
  /** Battery or lock state changed. */
  changed: [];
}

/** A code made only of '*' is what a lock that keeps codes secret answers. */
export function isMasked(code: string): boolean {
  return code.length > 0 && /^\*+$/.test(code);
}

/**
 * One Z-Wave lock node, as the bridge uses it: its keypad's capabilities, its user-code slots, the
 * Door Lock CC, battery and state, and its notifications. Wraps zwave-js's node; nothing else here
 * knows Z-Wave.
 */
export class ZWaveLock extends EventEmitter<ZWaveLockEvents> {
  private readonly nodeListeners: [string, (...args: never[]) => void][] = [];

  constructor(
    private readonly driver: Driver,
    readonly node: ZWaveNode,
  ) {
    super();
    const on = (name: string, listener: (...args: never[]) => void) => {
      (node.on as (n: string, l: (...args: never[]) => void) => void)(name, listener);
      this.nodeListeners.push([name, listener]);
    };
    on('dead', () => this.emit('dead'));
    on('alive', () => this.emit('alive'));
    on('value updated', ((_node: ZWaveNode, args: { commandClass: number }) => {
      if (args.commandClass === CommandClasses.Battery || args.commandClass === CommandClasses['Door Lock']) {
        this.emit('changed');
      }
    }) as (...args: never[]) => void);
    on('notification', ((
      _node: ZWaveNode,
      ccId: number,
      args: ZWaveNotificationCallbackArgs_NotificationCC,
    ) => {
      if (ccId !== CommandClasses.Notification || args.type !== ACCESS_CONTROL) return;
      const params = args.parameters as { userId?: number } | undefined;
      const userId =
        params && typeof params === 'object' && 'userId' in params ? Number(params.userId) : null;
      this.emit('access', { event: args.event, userId: Number.isInteger(userId) ? userId : null });
    }) as (...args: never[]) => void);
  }

  detach(): void {
    for (const [name, listener] of this.nodeListeners) {
      (this.node.off as (n: string, l: (...args: never[]) => void) => void)(name, listener);
    }
    this.removeAllListeners();
  }

  get nodeId(): number {
    return this.node.id;
  }

  /** A lock is a node with the User Code CC or the Door Lock CC. */
  static isLock(node: ZWaveNode): boolean {
    return node.supportsCC(CommandClasses['User Code']) || node.supportsCC(CommandClasses['Door Lock']);
  }

  get alive(): boolean {
    return this.node.status !== NodeStatus.Dead;
  }

  capabilities(): LockNodeCapabilities {
    const hasUserCodes = this.node.supportsCC(CommandClasses['User Code']);
    const userCodes = hasUserCodes ? (UserCodeCC.getSupportedUsersCached(this.driver, this.node) ?? 0) : 0;
    const chars = hasUserCodes ? UserCodeCC.getSupportedASCIICharsCached(this.driver, this.node) : undefined;
    const version = this.node.getCCVersion(CommandClasses['User Code']);
    const checksum = this.node.getValue<boolean>({
      commandClass: CommandClasses['User Code'],
      property: 'supportsUserCodeChecksum',
    });
    return {
      userCodes,
      allowedCharacters: chars && chars.length > 0 ? chars : '0123456789',
      minLength: 4,
      maxLength: 10,
      scheduleEntryLock:
        this.node.supportsCC(CommandClasses['Schedule Entry Lock']) &&
        (ScheduleEntryLockCC.getNumYearDaySlotsCached(this.driver, this.node) ?? 0) >= 1,
      userCodeChecksum: version >= 2 && checksum === true,
      kinds: [
        ...(userCodes > 0 ? (['code'] as const) : []),
        ...(this.node.supportsCC(CommandClasses['Door Lock']) ? (['remote'] as const) : []),
      ],
    };
  }

  get firmware(): string {
    return this.node.firmwareVersion ?? 'unknown';
  }

  battery(): number | undefined {
    const level = this.node.getValue<number>(BatteryCCValues.level.id);
    return typeof level === 'number' ? Math.max(0, Math.min(100, Math.round(level))) : undefined;
  }

  lockState(): LockState {
    const mode = this.node.getValue<DoorLockMode>(DoorLockCCValues.currentMode.id);
    if (mode === undefined) return 'unknown';
    if (mode === DoorLockMode.Secured) return 'locked';
    if (mode === DoorLockMode.Unknown) return 'unknown';
    return 'unlocked';
  }

  /** Reads a slot from the lock itself (not zwave-js's cache). */
  async readSlot(slot: number): Promise<SlotContent> {
    const answer = await this.node.commandClasses['User Code'].get(slot);
    if (!answer) throw new Error(`node ${this.nodeId} did not answer for slot ${slot}`);
    const occupied =
      answer.userIdStatus !== UserIDStatus.Available &&
      answer.userIdStatus !== UserIDStatus.StatusNotAvailable;
    const raw =
      typeof answer.userCode === 'string' ? answer.userCode : Buffer.from(answer.userCode).toString('ascii');
    return { occupied, code: occupied && !isMasked(raw) ? raw : null };
  }

  /**
   * Writes a slot (a code, or null to empty it), then reads it back: resolves only once the lock
   * confirmed the write. A lock that masks codes is confirmed by the slot's status alone.
   */
  async writeSlot(slot: number, code: string | null): Promise<void> {
    const api = this.node.commandClasses['User Code'];
    if (code === null) await api.clear(slot);
    else await api.set(slot, UserIDStatus.Enabled, code);
    const read = await this.readSlot(slot);
    const confirmed =
      code === null ? !read.occupied : read.occupied && (read.code === null || read.code === code);
    if (!confirmed) throw new Error(`node ${this.nodeId} did not take slot ${slot}`);
  }

  /** The CRC-16 of every slot, as the lock computes it (User Code CC v2), or undefined. */
  async checksum(): Promise<number | undefined> {
    return (await this.node.commandClasses['User Code'].getUserCodeChecksum()) ?? undefined;
  }

  /**
   * Sets a user's year-day schedule (schedule slot 1, the only one the bridge uses): the lock accepts
   * the user's code only between `start` and `stop` on its own clock. Setting a schedule also turns
   * scheduling on for that user (Schedule Entry Lock CC).
   */
  async setYearDaySchedule(userId: number, start: WallClockTime, stop: WallClockTime): Promise<void> {
    // The CC carries each year as one byte, 0–99 for 2000–2099, and zwave-js puts startYear and
    // stopYear on the wire as given: 2026 must be passed as 26 (2026 itself would arrive as 234).
    const result = await this.node.commandClasses['Schedule Entry Lock'].setYearDaySchedule(
      { userId, slotId: 1 },
      {
        startYear: start.year % 100,
        startMonth: start.month,
        startDay: start.day,
        startHour: start.hour,
        startMinute: start.minute,
        stopYear: stop.year % 100,
        stopMonth: stop.month,
        stopDay: stop.day,
        stopHour: stop.hour,
        stopMinute: stop.minute,
      },
    );
    this.confirmSchedule(result, `the year-day schedule of user ${userId}`);
  }

  /** Erases the year-day schedule the bridge sets for a user (schedule slot 1). */
  async clearSchedules(userId: number): Promise<void> {
    const result = await this.node.commandClasses['Schedule Entry Lock'].setYearDaySchedule({
      userId,
      slotId: 1,
    });
    this.confirmSchedule(result, `erasing the schedule of user ${userId}`);
  }

  /** Turns scheduling on or off for one user: off, the lock accepts the user's code at any time. */
  async setSchedulesEnabled(enabled: boolean, userId: number): Promise<void> {
    const result = await this.node.commandClasses['Schedule Entry Lock'].setEnabled(enabled, userId);
    this.confirmSchedule(result, `${enabled ? 'enabling' : 'disabling'} the schedules of user ${userId}`);
  }

  /** A supervised command the lock answered with a failure did not take (unsupervised ones count as sent). */
  private confirmSchedule(result: SupervisionResult | undefined, what: string): void {
    if (!isUnsupervisedOrSucceeded(result)) throw new Error(`node ${this.nodeId} refused ${what}`);
  }

  /** Pings the node; zwave-js marks it alive again when it answers. */
  async ping(): Promise<boolean> {
    return this.node.ping().catch(() => false);
  }

  /** Locks or unlocks through the Door Lock CC; resolves when the node answered. */
  async setLocked(locked: boolean): Promise<void> {
    await this.node.commandClasses['Door Lock'].set(locked ? DoorLockMode.Secured : DoorLockMode.Unsecured);
  }
}
