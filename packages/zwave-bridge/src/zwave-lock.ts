import { EventEmitter } from 'node:events';
import {
  BatteryCCValues,
  DoorLockCCValues,
  DoorLockMode,
  ScheduleEntryLockCC,
  UserCodeCC,
  UserCredentialCC,
  UserCredentialType,
  UserIDStatus,
} from '@zwave-js/cc';
import { CommandClasses, isUnsupervisedOrSucceeded, type SupervisionResult } from '@zwave-js/core';
import type { LockState } from '@latchkey/shared';
import {
  NodeStatus,
  SetCredentialResult,
  SetUserResult,
  type AccessControlAPI,
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
  /** RFID credential slots (User Credential CC), 0 without the CC. */
  rfidSlots: number;
  /** Credential kinds the bridge can put on this lock. */
  kinds: ('code' | 'rfid' | 'remote')[];
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

  /** A lock is a node with the User Code, User Credential or Door Lock CC. */
  static isLock(node: ZWaveNode): boolean {
    return (
      node.supportsCC(CommandClasses['User Code']) ||
      node.supportsCC(CommandClasses['User Credential']) ||
      node.supportsCC(CommandClasses['Door Lock'])
    );
  }

  /**
   * Whether zwave-js manages this node's users through the User Credential CC: it then uses that CC
   * alone (the spec allows one user management CC per node) and skips the User Code CC's interview,
   * so codes go through it too (PIN code credentials).
   */
  get usesUserCredential(): boolean {
    return (
      this.node.supportsCC(CommandClasses['User Credential']) &&
      (UserCredentialCC.getSupportedUsersCached(this.driver, this.node) ?? 0) > 0
    );
  }

  private get accessControl(): AccessControlAPI {
    const api = this.node.accessControl;
    if (!api) throw new Error(`node ${this.nodeId} has neither the User Code nor the User Credential CC`);
    return api;
  }

  /**
   * The User Credential CC user a card's RFID slot belongs to. Codes are users 1..userCodes (code
   * slot n is user n, as on the User Code CC), so cards take the users after them: RFID slot n is
   * user userCodes + n. A card therefore never joins a code's user, and a user id in a notification
   * names one slot of one kind (cardSlotOfUser).
   */
  cardUser(slot: number): number {
    return this.capabilities().userCodes + slot;
  }

  /** The RFID slot of a User Credential CC user the bridge gave a card, or null for a code's user. */
  cardSlotOfUser(userId: number): number | null {
    const { userCodes, rfidSlots } = this.capabilities();
    const slot = userId - userCodes;
    return slot >= 1 && slot <= rfidSlots ? slot : null;
  }

  get alive(): boolean {
    return this.node.status !== NodeStatus.Dead;
  }

  capabilities(): LockNodeCapabilities {
    const kinds = (userCodes: number, rfidSlots: number): LockNodeCapabilities['kinds'] => [
      ...(userCodes > 0 ? (['code'] as const) : []),
      ...(rfidSlots > 0 ? (['rfid'] as const) : []),
      ...(this.node.supportsCC(CommandClasses['Door Lock']) ? (['remote'] as const) : []),
    ];
    const scheduleEntryLock =
      this.node.supportsCC(CommandClasses['Schedule Entry Lock']) &&
      (ScheduleEntryLockCC.getNumYearDaySlotsCached(this.driver, this.node) ?? 0) >= 1;
    if (this.usesUserCredential) {
      const { supportedCredentialTypes } = this.accessControl.getCredentialCapabilitiesCached();
      const { maxUsers } = this.accessControl.getUserCapabilitiesCached();
      const pin = supportedCredentialTypes.get(UserCredentialType.PINCode);
      const rfid = supportedCredentialTypes.get(UserCredentialType.RFIDCode);
      // Every code and every card is a user of its own (cardUser): both must fit the users number.
      const userCodes = Math.min(pin?.numberOfCredentialSlots ?? 0, maxUsers);
      const rfidSlots = Math.max(0, Math.min(rfid?.numberOfCredentialSlots ?? 0, maxUsers - userCodes));
      return {
        userCodes,
        allowedCharacters: '0123456789',
        minLength: Math.max(4, pin?.minCredentialLength ?? 4),
        maxLength: Math.min(10, pin?.maxCredentialLength ?? 10),
        rfidSlots,
        scheduleEntryLock,
        userCodeChecksum: false,
        kinds: kinds(userCodes, rfidSlots),
      };
    }
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
      rfidSlots: 0,
      scheduleEntryLock,
      userCodeChecksum: version >= 2 && checksum === true,
      kinds: kinds(userCodes, 0),
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
    if (this.usesUserCredential) {
      const credential = await this.accessControl.getCredential(UserCredentialType.PINCode, slot);
      // An empty slot is answered with user 0 (every credential belongs to a user).
      if (!credential || credential.userId === 0) return { occupied: false, code: null };
      const raw =
        typeof credential.data === 'string'
          ? credential.data
          : Buffer.from(credential.data ?? new Uint8Array()).toString('ascii');
      // A lock that does not read PINs back answers without data: the code counts as masked.
      return { occupied: true, code: raw.length > 0 && !isMasked(raw) ? raw : null };
    }
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
    if (this.usesUserCredential) {
      // Code slot n is user n with PIN credential slot n (as on the User Code CC).
      await this.writeCredential(slot, UserCredentialType.PINCode, slot, code);
    } else {
      const api = this.node.commandClasses['User Code'];
      if (code === null) await api.clear(slot);
      else await api.set(slot, UserIDStatus.Enabled, code);
    }
    const read = await this.readSlot(slot);
    const confirmed =
      code === null ? !read.occupied : read.occupied && (read.code === null || read.code === code);
    if (!confirmed) throw new Error(`node ${this.nodeId} did not take slot ${slot}`);
  }

  /**
   * The card in an RFID slot: its UID in upper-case hex, as the portal stores it, or null when the
   * lock does not read card data back (then only `occupied` is known).
   */
  async readCard(slot: number): Promise<{ occupied: boolean; uid: string | null }> {
    const credential = await this.accessControl.getCredential(UserCredentialType.RFIDCode, slot);
    // An empty slot is answered with user 0 (every credential belongs to a user).
    if (!credential || credential.userId === 0) return { occupied: false, uid: null };
    // zwave-js hands a card's data over as bytes (only PINs and passwords become text).
    const bytes =
      typeof credential.data === 'string' ? Buffer.from(credential.data, 'utf8') : credential.data;
    const uid = bytes && bytes.length > 0 ? Buffer.from(bytes).toString('hex').toUpperCase() : null;
    return { occupied: true, uid };
  }

  /**
   * Puts a card in an RFID slot (its UID, or null to empty the slot) for the slot's own user
   * (cardUser), then reads it back: resolves only once the lock confirmed it.
   */
  async writeCard(slot: number, uid: string | null): Promise<void> {
    // The CC carries a card as its UID's bytes; the portal keeps the UID as hex (rfidUidSchema).
    // Given a string, zwave-js would send its UTF-8 characters instead, so the hex is converted.
    const data = uid === null ? null : Uint8Array.from(Buffer.from(uid, 'hex'));
    await this.writeCredential(this.cardUser(slot), UserCredentialType.RFIDCode, slot, data);
    const read = await this.readCard(slot);
    const confirmed =
      uid === null ? !read.occupied : read.occupied && (read.uid === null || read.uid === uid);
    if (!confirmed) {
      const held = read.occupied ? (read.uid ?? 'a card it does not show') : 'nothing';
      throw new Error(`node ${this.nodeId} did not take RFID slot ${slot}: it holds ${held}`);
    }
  }

  /**
   * Gives a User Credential CC user its one credential, or deletes the user (and with it the
   * credential) for null. A user the lock still has (a write that half went in) keeps it and has
   * its credential set.
   */
  private async writeCredential(
    userId: number,
    type: UserCredentialType,
    slot: number,
    data: string | Uint8Array | null,
  ): Promise<void> {
    const api = this.accessControl;
    if (data === null) {
      // The read-back that follows decides: a user already gone is answered with an error here.
      await api.deleteUser(userId);
      return;
    }
    const added = await api.addUser(userId, { active: true }, { type, slot, data });
    if (added.user === SetUserResult.OK && added.credential === SetCredentialResult.OK) return;
    if (added.user !== SetUserResult.OK && added.user !== SetUserResult.Error_AddRejectedLocationOccupied) {
      throw new Error(`node ${this.nodeId} did not add user ${userId}`);
    }
    const set = await api.setCredential(userId, type, slot, data);
    if (set !== SetCredentialResult.OK) {
      throw new Error(
        `node ${this.nodeId} refused the credential of user ${userId} (${SetCredentialResult[set]})`,
      );
    }
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
