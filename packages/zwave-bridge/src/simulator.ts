// A simulated Z-Wave network of door locks, in process: zwave-js's real driver on a mock serial port, a
// mock controller and mock lock nodes with the User Code, User Credential (where asked for), Schedule
// Entry Lock, Door Lock, Battery and Notification behaviours of `@zwave-js/testing`. Used by the tests
// and by the demo (DEMO_ZWAVE=true).
// Nothing here opens a network socket: zwave-js's mock-server binary (which announces itself with mDNS
// multicast) is never started.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatteryCCGet, BatteryCCReport } from '@zwave-js/cc/BatteryCC';
import { NotificationCCReport } from '@zwave-js/cc/NotificationCC';
import {
  ScheduleEntryLockCCEnableAllSet,
  ScheduleEntryLockCCEnableSet,
  ScheduleEntryLockCCWeekDayScheduleSet,
  ScheduleEntryLockCCYearDayScheduleSet,
} from '@zwave-js/cc/ScheduleEntryLockCC';
import { UserCodeCCExtendedUserCodeSet, UserCodeCCReport, UserCodeCCSet } from '@zwave-js/cc/UserCodeCC';
import {
  DoorLockCCOperationReport,
  DoorLockMode,
  DoorLockOperationType,
  ScheduleEntryLockScheduleKind,
  UserCredentialRule,
  UserCredentialType,
  UserIDStatus,
  type ScheduleEntryLockYearDaySchedule,
} from '@zwave-js/cc';
import { CommandClasses } from '@zwave-js/core';
import {
  MockController,
  MockNode,
  ccCaps,
  createMockZWaveRequestFrame,
  type MockNodeBehavior,
} from '@zwave-js/testing';
import type { Driver } from 'zwave-js';
import {
  createAndStartDriverWithMockPort,
  createDefaultMockControllerBehaviors,
  createDefaultMockNodeBehaviors,
} from 'zwave-js/Testing';

export interface SimulatedLockOptions {
  nodeId: number;
  /** User-code slots (default 30). */
  userCodes?: number;
  /** Whether the lock has the Schedule Entry Lock CC (default true). */
  scheduleEntryLock?: boolean;
  /**
   * A lock with the User Credential CC and this many RFID credential slots (default: none). zwave-js
   * then manages its users through that CC alone, codes included (PIN code credentials, one per code
   * slot), and the CC's users number is the code slots plus the RFID slots.
   */
  userCredential?: { rfidSlots: number };
  /** Whether the lock reports user codes masked ("****") (default false). */
  masksCodes?: boolean;
  battery?: number;
  firmware?: string;
  /** Whether the bolt is thrown at start (default true). */
  locked?: boolean;
}

/** Access Control notification events (Notification CC type 6) the mock locks report. */
export const AccessControl = {
  type: 0x06,
  manualLock: 0x01,
  manualUnlock: 0x02,
  rfLock: 0x03,
  rfUnlock: 0x04,
  keypadLock: 0x05,
  keypadUnlock: 0x06,
  jammed: 0x0b,
  newUserCodeAdded: 0x0e,
  userCodeDeleted: 0x0d,
  invalidCode: 0x13,
} as const;

const BATTERY_KEY = 'Latchkey_battery';
const UNREACHABLE_KEY = 'Latchkey_unreachable';
/** Where zwave-js's mock User Credential behaviour keeps a credential of a type in a slot. */
const credentialKey = (type: UserCredentialType, slot: number) => `UserCredential_cred_${type}_${slot}`;
interface StoredCredential {
  userId: number;
  credentialData: Uint8Array;
}
/** Whether a user's schedules are on: zwave-js's mock behaviour answers Enable Set but keeps nothing. */
const scheduleEnabledKey = (userId: number) => `Latchkey_scheduleEnabled_${userId}`;

/** Defined last, so it comes first: an unreachable node neither acknowledges nor answers anything. */
const unreachable: MockNodeBehavior = {
  handleCC(_controller, self) {
    return self.state.get(UNREACHABLE_KEY) === true ? { action: 'stop' } : undefined;
  },
};

const respondToBatteryGet: MockNodeBehavior = {
  handleCC(controller, self, receivedCC) {
    if (receivedCC instanceof BatteryCCGet) {
      const level = (self.state.get(BATTERY_KEY) as number | undefined) ?? 100;
      return { action: 'sendCC', cc: new BatteryCCReport({ nodeId: controller.ownNodeId, level }) };
    }
    return undefined;
  },
};

/** Locks that answer a user code get with "****" instead of the digits (write-only codes). */
function maskingBehavior(): MockNodeBehavior {
  return {
    transformResponse(_controller, self, receivedCC, response) {
      if (response.action === 'sendCC' && response.cc instanceof UserCodeCCReport) {
        const report = response.cc;
        if (typeof report.userCode === 'string' && report.userCode.length > 0) {
          return {
            ...response,
            cc: new UserCodeCCReport({
              nodeId: self.controller.ownNodeId,
              userId: report.userId,
              userIdStatus: report.userIdStatus,
              userCode: '*'.repeat(report.userCode.length),
            }),
          };
        }
      }
      void receivedCC;
      return response;
    },
  };
}

export class SimulatedLock {
  constructor(
    readonly node: MockNode,
    private readonly controller: MockController,
  ) {}

  get nodeId(): number {
    return this.node.id;
  }

  /** The code in a slot as the lock holds it, or undefined for an empty slot. */
  slot(userId: number): string | undefined {
    if (this.node.implementedCCs.has(CommandClasses['User Credential'])) {
      // Code slot n is the PIN code credential in slot n (ZWaveLock).
      const pin = this.node.state.get(credentialKey(UserCredentialType.PINCode, userId)) as
        StoredCredential | undefined;
      return pin ? Buffer.from(pin.credentialData).toString('ascii') : undefined;
    }
    const status = this.node.state.get(`UserCode_userIdStatus_${userId}`) as UserIDStatus | undefined;
    if (status === undefined || status === UserIDStatus.Available) return undefined;
    return this.node.state.get(`UserCode_userCode_${userId}`) as string | undefined;
  }

  /** Every occupied slot: user id → code. */
  slots(): Map<number, string> {
    const out = new Map<number, string>();
    const caps = this.node.getCCCapabilities(CommandClasses['User Code']) as
      { numUsers?: number } | undefined;
    for (let i = 1; i <= (caps?.numUsers ?? 0); i++) {
      const code = this.slot(i);
      if (code !== undefined) out.set(i, code);
    }
    return out;
  }

  /**
   * The cards the lock holds (User Credential CC): RFID slot → its user and the card's UID in
   * upper-case hex, as the portal writes UIDs. Empty for a lock without the CC.
   */
  rfidCredentials(): Map<number, { userId: number; uid: string }> {
    const out = new Map<number, { userId: number; uid: string }>();
    const slots = this.credentialSlots(UserCredentialType.RFIDCode);
    for (let slot = 1; slot <= slots; slot++) {
      const card = this.node.state.get(credentialKey(UserCredentialType.RFIDCode, slot)) as
        StoredCredential | undefined;
      if (card) {
        out.set(slot, {
          userId: card.userId,
          uid: Buffer.from(card.credentialData).toString('hex').toUpperCase(),
        });
      }
    }
    return out;
  }

  /** How many credential slots of a type the lock's User Credential CC has (0 without the CC). */
  private credentialSlots(type: UserCredentialType): number {
    const caps = this.node.getCCCapabilities(CommandClasses['User Credential']) as
      { supportedCredentialTypes?: Map<UserCredentialType, { numberOfCredentialSlots: number }> } | undefined;
    return caps?.supportedCredentialTypes?.get(type)?.numberOfCredentialSlots ?? 0;
  }

  /** How many User Code Set commands the lock received since the count was last reset. */
  userCodeWrites(): number {
    return this.codeWrites;
  }

  resetUserCodeWrites(): void {
    this.codeWrites = 0;
  }

  /** Counted by the simulator's own behaviour (see countCodeWrites). */
  codeWrites = 0;

  /**
   * The year-day schedule of a user (schedule slot 1) as the lock holds it, years as sent (two
   * digits), or undefined when it has none. Stored by zwave-js's mock Schedule Entry Lock behaviour.
   */
  yearDaySchedule(userId: number): ScheduleEntryLockYearDaySchedule | undefined {
    return this.node.state.get(
      `ScheduleEntryLock_schedule_${userId}_1_${ScheduleEntryLockScheduleKind.YearDay}`,
    ) as ScheduleEntryLockYearDaySchedule | undefined;
  }

  /** Whether the lock applies a user's schedules (undefined: never told). */
  schedulesEnabled(userId: number): boolean | undefined {
    return this.node.state.get(scheduleEnabledKey(userId)) as boolean | undefined;
  }

  /** How many Schedule Entry Lock set commands (schedules, enable) the lock received. */
  scheduleWrites = 0;

  /** Someone changes a code on the lock's own keypad (programming mode): the lock reports it. */
  async setCodeAtLock(userId: number, code: string | undefined): Promise<void> {
    this.node.state.set(
      `UserCode_userIdStatus_${userId}`,
      code === undefined ? UserIDStatus.Available : UserIDStatus.Enabled,
    );
    this.node.state.set(`UserCode_userCode_${userId}`, code);
    await this.notify(
      code === undefined ? AccessControl.userCodeDeleted : AccessControl.newUserCodeAdded,
      Uint8Array.from([0x63, 0x03, userId, UserIDStatus.Enabled]),
    );
  }

  /**
   * Someone enrols or removes a card on the lock itself (User Credential CC, RFID slot `slot`, its
   * user past the code slots): the lock reports it as a user code change of that user.
   */
  async setCardAtLock(slot: number, uid: string | undefined): Promise<void> {
    // Codes are users 1..code slots, cards the users after them (ZWaveLock.cardUser).
    const userId = this.credentialSlots(UserCredentialType.PINCode) + slot;
    const key = credentialKey(UserCredentialType.RFIDCode, slot);
    if (uid === undefined) this.node.state.delete(key);
    else this.node.state.set(key, { userId, credentialData: Uint8Array.from(Buffer.from(uid, 'hex')) });
    await this.notify(
      uid === undefined ? AccessControl.userCodeDeleted : AccessControl.newUserCodeAdded,
      Uint8Array.from([0x63, 0x03, userId, UserIDStatus.Enabled]),
    );
  }

  /** Sends an Access Control notification (e.g. a keypad unlock by user `userId`). */
  async notify(event: number, eventParameters?: Uint8Array<ArrayBuffer>): Promise<void> {
    const cc = new NotificationCCReport({
      nodeId: this.controller.ownNodeId,
      notificationType: AccessControl.type,
      notificationEvent: event,
      ...(eventParameters ? { eventParameters } : {}),
    });
    await this.node.sendToController(createMockZWaveRequestFrame(cc, { ackRequested: false }));
  }

  /** A keypad unlock with the code of slot `userId` (the slot as the event parameter). */
  async keypadUnlock(userId: number): Promise<void> {
    this.node.state.set('DoorLock_currentMode', DoorLockMode.Unsecured);
    await this.notify(
      AccessControl.keypadUnlock,
      Uint8Array.from([0x63, 0x03, userId, UserIDStatus.Enabled]),
    );
  }

  async reportLockMode(mode: DoorLockMode): Promise<void> {
    this.node.state.set('DoorLock_currentMode', mode);
    const cc = new DoorLockCCOperationReport({
      nodeId: this.controller.ownNodeId,
      currentMode: mode,
      outsideHandlesCanOpenDoor: [false, false, false, false],
      insideHandlesCanOpenDoor: [false, false, false, false],
      lockTimeout: undefined,
      operationType: DoorLockOperationType.Constant,
    } as ConstructorParameters<typeof DoorLockCCOperationReport>[0]);
    await this.node.sendToController(createMockZWaveRequestFrame(cc, { ackRequested: false }));
  }

  /** The Door Lock CC's current mode as the mock lock holds it. */
  get doorLockMode(): DoorLockMode | undefined {
    return this.node.state.get('DoorLock_currentMode') as DoorLockMode | undefined;
  }

  setBattery(level: number): void {
    this.node.state.set(BATTERY_KEY, level);
  }

  /** Makes the node stop answering (out of range, batteries out); `true` brings it back. */
  setReachable(reachable: boolean): void {
    this.node.state.set(UNREACHABLE_KEY, !reachable);
    this.node.autoAckControllerFrames = reachable;
  }
}

/**
 * The User Credential CC of a lock with both codes and cards: a PIN code credential slot per code
 * slot, the RFID slots asked for, and a user for each (codes and cards are users of their own).
 * Credentials are read back (no hash), so a test can compare them.
 */
function userCredentialCaps(userCodes: number, rfidSlots: number) {
  const credential = (slots: number, min: number, max: number) => ({
    numberOfCredentialSlots: slots,
    minCredentialLength: min,
    maxCredentialLength: max,
    maxCredentialHashLength: 0,
    supportsCredentialLearn: false as const,
  });
  return ccCaps({
    ccId: CommandClasses['User Credential'],
    version: 1,
    numberOfSupportedUsers: userCodes + rfidSlots,
    supportedCredentialRules: [UserCredentialRule.Single],
    maxUserNameLength: 0,
    supportedCredentialTypes: new Map([
      [UserCredentialType.PINCode, credential(userCodes, 4, 10)],
      // Card UIDs are 4, 7 or 10 bytes.
      [UserCredentialType.RFIDCode, credential(rfidSlots, 4, 10)],
    ]),
  });
}

export interface SimulatedNetwork {
  driver: Driver;
  controller: MockController;
  locks: SimulatedLock[];
  lock(nodeId: number): SimulatedLock;
  destroy(): Promise<void>;
}

/**
 * Starts zwave-js's driver on a mock serial port with a mock controller and the given mock locks, and
 * resolves once the driver is ready (the nodes are then being interviewed).
 */
export async function startSimulatedNetwork(locks: SimulatedLockOptions[]): Promise<SimulatedNetwork> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'latchkey-zwave-sim-'));
  const { driver, continueStartup, mockPort, serial } = await createAndStartDriverWithMockPort({
    logConfig: process.env.ZW_LOG
      ? { enabled: true, level: 'debug', forceConsole: true }
      : { enabled: false },
    storage: { cacheDir, lockDir: join(cacheDir, 'locks') },
    testingHooks: { skipFirmwareIdentification: true },
    // Fast answers: the mock nodes answer at once, no need to wait for slow radios.
    timeouts: { report: 1000 },
  });
  const controller = await MockController.create({ homeId: 0x7e570001, ownNodeId: 1, mockPort, serial });
  controller.defineBehavior(...createDefaultMockControllerBehaviors());
  const simulated: SimulatedLock[] = [];
  for (const options of locks) {
    const node = await MockNode.create({
      id: options.nodeId,
      controller,
      capabilities: {
        // Entry Control / Secure Keypad Door Lock
        genericDeviceClass: 0x40,
        specificDeviceClass: 0x03,
        firmwareVersion: options.firmware ?? '2.1',
        // Ids no real product uses, so zwave-js's device database applies no compat flags.
        manufacturerId: 0xffff,
        productType: 0xffff,
        productId: 0x0100 + options.nodeId,
        commandClasses: [
          CommandClasses.Version,
          CommandClasses['Manufacturer Specific'],
          ccCaps({ ccId: CommandClasses['User Code'], version: 2, numUsers: options.userCodes ?? 30 }),
          ccCaps({
            ccId: CommandClasses['Door Lock'],
            version: 4,
            supportedOperationTypes: [DoorLockOperationType.Constant],
            supportedDoorLockModes: [DoorLockMode.Unsecured, DoorLockMode.Secured],
          }),
          CommandClasses.Battery,
          ccCaps({
            ccId: CommandClasses.Notification,
            version: 8,
            supportsV1Alarm: false,
            notificationTypesAndEvents: {
              [AccessControl.type]: [
                AccessControl.manualLock,
                AccessControl.manualUnlock,
                AccessControl.rfLock,
                AccessControl.rfUnlock,
                AccessControl.keypadLock,
                AccessControl.keypadUnlock,
                AccessControl.jammed,
                AccessControl.userCodeDeleted,
                AccessControl.newUserCodeAdded,
                AccessControl.invalidCode,
              ],
            },
          }),
          ...(options.scheduleEntryLock === false
            ? []
            : [
                ccCaps({
                  ccId: CommandClasses['Schedule Entry Lock'],
                  version: 3,
                  numWeekDaySlots: 7,
                  numYearDaySlots: 1,
                  numDailyRepeatingSlots: 0,
                }),
              ]),
          ...(options.userCredential
            ? [userCredentialCaps(options.userCodes ?? 30, options.userCredential.rfidSlots)]
            : []),
        ],
      },
    });
    controller.addNode(node);
    const lock = new SimulatedLock(node, controller);
    node.defineBehavior(...createDefaultMockNodeBehaviors(), respondToBatteryGet);
    if (options.masksCodes) node.defineBehavior(maskingBehavior());
    node.defineBehavior({
      handleCC(_controller, self, receivedCC) {
        if (
          (receivedCC instanceof UserCodeCCSet || receivedCC instanceof UserCodeCCExtendedUserCodeSet) &&
          self.state.get(UNREACHABLE_KEY) !== true
        )
          lock.codeWrites++;
        if (self.state.get(UNREACHABLE_KEY) === true) return undefined;
        if (
          receivedCC instanceof ScheduleEntryLockCCYearDayScheduleSet ||
          receivedCC instanceof ScheduleEntryLockCCWeekDayScheduleSet ||
          receivedCC instanceof ScheduleEntryLockCCEnableSet ||
          receivedCC instanceof ScheduleEntryLockCCEnableAllSet
        )
          lock.scheduleWrites++;
        if (receivedCC instanceof ScheduleEntryLockCCEnableSet) {
          self.state.set(scheduleEnabledKey(receivedCC.userId), receivedCC.enabled);
        }
        return undefined;
      },
    });
    node.defineBehavior(unreachable);
    if (options.battery !== undefined) lock.setBattery(options.battery);
    node.state.set(
      'DoorLock_currentMode',
      options.locked === false ? DoorLockMode.Unsecured : DoorLockMode.Secured,
    );
    simulated.push(lock);
  }
  const ready = new Promise<void>((resolve) => driver.once('driver ready', () => resolve()));
  continueStartup();
  await ready;
  return {
    driver,
    controller,
    locks: simulated,
    lock(nodeId) {
      const found = simulated.find((l) => l.nodeId === nodeId);
      if (!found) throw new Error(`no simulated lock ${nodeId}`);
      return found;
    },
    async destroy() {
      await driver.destroy();
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}
