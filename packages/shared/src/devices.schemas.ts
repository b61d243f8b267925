import { z } from 'zod';
import { instantInput, integerParam, lineText } from './safe-input';
import {
  ACCESS_DENIAL_REASONS,
  credentialKindSchema,
  scheduleInputSchema,
  scheduleSchema,
} from './access/access.schemas';
import { keysetListQuerySchema, keysetPageSchema } from './list-query';
import { PORTAL_ROLES, MEMBERSHIP_STATUSES } from './roles';
import { timeZoneSchema } from './portal.schemas';
import { lockCapabilitiesSchema, lockStateSchema } from './device-protocol';

/**
 * Lock models the portal knows, with what their keypads accept. A code the model cannot take
 * is refused when it is set, with the rule it breaks. `capacity` is how many credential set
 * entries (codes, cards, app and QR entries, fingerprints, keys) the lock's memory holds: the
 * simulated lock's default memory, and typical figures for the generic models (a cheap keypad
 * lock keeps a few dozen codes). A stay that would not fit is refused before it is approved.
 */
export const LOCK_MODELS = {
  'latchkey-sim': {
    label: 'Latchkey simulated lock',
    codeLength: { min: 4, max: 12 },
    keypad: true,
    capacity: 1000,
  },
  'generic-smartlock': {
    label: 'Smart lock (generic)',
    codeLength: { min: 4, max: 12 },
    keypad: true,
    capacity: 250,
  },
  'generic-codelock': {
    label: 'Keypad code lock',
    codeLength: { min: 4, max: 8 },
    keypad: true,
    capacity: 30,
  },
  'generic-nokeypad': { label: 'Smart lock without keypad', codeLength: null, keypad: false, capacity: 250 },
  // A Z-Wave lock behind the latchkey-zwave bridge (docs/bridges/zwave.md): Z-Wave user codes are
  // 4-10 digits; the node's own slot count is what the bridge enforces (storage_full per entry).
  'zwave-lock': {
    label: 'Z-Wave lock (via the Z-Wave bridge)',
    codeLength: { min: 4, max: 10 },
    keypad: true,
    capacity: 250,
  },
} as const;
export type LockModel = keyof typeof LOCK_MODELS;
export const lockModelSchema = z.enum(Object.keys(LOCK_MODELS) as [LockModel, ...LockModel[]]);

/** A lock as the API answers it. Status fields are filled by the lock itself once it connects. */
export const deviceSchema = z.object({
  _id: z.string(),
  name: z.string(),
  model: lockModelSchema,
  serial: z.string().nullable(),
  timeZone: z.string(),
  lowBatteryLevel: z.number().int(),
  battery: z.number().int().nullable(),
  online: z.boolean(),
  lastSeenAt: z.iso.datetime().nullable(),
  /** From the lock's last status (null until it reports); optional for clients built before the device link. */
  lockState: lockStateSchema.nullable().optional(),
  firmware: z.string().nullable().optional(),
  createdAt: z.iso.datetime(),
  /** The zone the lock is in (features/zones); null: none. */
  zoneId: z.string().nullable().optional(),
  /**
   * What the lock itself said it holds and takes (its status; a Z-Wave node's own slots); null until
   * it says, when its model's figures (LOCK_MODELS) stand.
   */
  capabilities: lockCapabilitiesSchema.nullable().optional(),
});
export type Device = z.infer<typeof deviceSchema>;

const deviceName = lineText().min(1, 'is required').max(80);

/** POST portal/device/new: add a lock. */
export const deviceCreateSchema = z.object({
  name: deviceName,
  model: lockModelSchema,
  timeZone: timeZoneSchema,
  serial: lineText().max(64).optional(),
});
export type DeviceCreate = z.infer<typeof deviceCreateSchema>;

/** The new lock and its device secret, shown this once: only a hash is kept. */
export const deviceCreatedSchema = z.object({ device: deviceSchema, deviceSecret: z.string() });
export type DeviceCreated = z.infer<typeof deviceCreatedSchema>;

/**
 * POST device/codelock/add: a keypad-only code lock. `code` is its master code, which an installer
 * programs into the keypad and which opens it at any time (admins' code, admin-exempt lockouts too).
 */
export const codeLockCreateSchema = z.object({
  name: deviceName,
  code: lineText().min(1, 'is required').max(32),
  timeZone: timeZoneSchema.optional(),
});
export type CodeLockCreate = z.infer<typeof codeLockCreateSchema>;

/** POST portal/device/{id}: change a lock's settings. */
export const deviceUpdateSchema = z
  .object({
    name: deviceName,
    timeZone: timeZoneSchema,
    lowBatteryLevel: z.number().int().min(1).max(90),
  })
  .partial()
  .refine((data) => Object.keys(data).length > 0, 'name, timeZone or lowBatteryLevel is required');
export type DeviceUpdate = z.infer<typeof deviceUpdateSchema>;

export const devicesQuerySchema = keysetListQuerySchema({
  sortBy: ['name', 'model', 'timeZone', 'battery', 'lastSeenAt', 'createdAt'],
  /** `online` takes 'true' or 'false' (the offline screen); `zone` a zone id (with its sub-zones) or 'none'. */
  filterBy: ['model', 'timeZone', 'online', 'zone'],
  defaultSortBy: 'name',
  sortKeys: {
    name: 'text',
    model: 'text',
    timeZone: 'text',
    battery: 'integer',
    lastSeenAt: 'instant',
    createdAt: 'instant',
  },
});
export type DevicesQuery = z.output<typeof devicesQuerySchema>;
export const devicesPageSchema = keysetPageSchema(deviceSchema);

/** GET portal/device/battery/low: locks whose battery is below `level`, or their own low level. */
export const lowBatteryQuerySchema = z.object({ level: integerParam({ min: 1, max: 100 }).optional() });

/** How a person reaches a lock: linked directly, and/or through groups. */
export const deviceAccessViaSchema = z.object({
  direct: z.boolean(),
  groups: z.array(z.object({ _id: z.string(), name: z.string() })),
});

/** A person who may use a lock, with their schedule there (null: at any time). */
export const deviceUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(PORTAL_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
  schedule: scheduleSchema.nullable(),
  via: deviceAccessViaSchema,
});
export type DeviceUser = z.infer<typeof deviceUserSchema>;

/** GET/POST portal/device/{id}/schedule/{userId}: a person's schedule at a lock. */
export const userScheduleSchema = z.object({ schedule: scheduleSchema.nullable() });
export type UserSchedule = z.infer<typeof userScheduleSchema>;
/** POST portal/device/{id}/schedule/{userId}: the schedule to set (null: at any time). */
export const userScheduleInputSchema = z.object({ schedule: scheduleInputSchema.nullable() });

/**
 * PUT user/{id}/device/{deviceId} (optional body): direct access with the schedule to set there
 * (null: at any time); without `schedule`, a schedule they already have at the lock stays.
 */
export const directAccessInputSchema = z.object({ schedule: scheduleInputSchema.nullable().optional() });
export type DirectAccessInput = z.infer<typeof directAccessInputSchema>;

/** GET portal/device/{id}/access?at=: who can open the lock at an instant (default now), and why not. */
export const deviceAccessQuerySchema = z.object({ at: instantInput().optional() });
export const deviceAccessSchema = z.object({
  at: z.iso.datetime(),
  timeZone: z.string(),
  /** The lock's local wall time at that instant, e.g. "Mon 2026-11-23 09:30". */
  localTime: z.string(),
  people: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      email: z.string(),
      canOpen: z.boolean(),
      reason: z.enum(ACCESS_DENIAL_REASONS).nullable(),
      credentials: z.array(credentialKindSchema),
    }),
  ),
  /** Company codes, guest invites and the master code that reach the lock, each on its own. */
  others: z.array(
    z.object({
      _id: z.string(),
      holderType: z.enum(['company', 'guest', 'master']),
      /** Who it is: the company code's name, the guest, or the stay's guest or cleaner with its dates. */
      name: z.string(),
      /** What it is: a code, or a stay guest's QR code. */
      kind: credentialKindSchema,
      /** The stay it belongs to, for a link to it; null for invites, company and master codes. */
      stay: z.object({ _id: z.string(), listingId: z.string() }).nullable(),
      canOpen: z.boolean(),
      reason: z.enum(ACCESS_DENIAL_REASONS).nullable(),
    }),
  ),
  /**
   * The lockouts in effect at that instant, those that keep admins out first: the lock page's
   * header names them, and holds back its unlock while one keeps admins out.
   */
  lockouts: z
    .array(
      z.object({
        _id: z.string(),
        name: z.string(),
        until: z.iso.datetime().nullable(),
        exemptAdmins: z.boolean(),
      }),
    )
    .default([]),
});
export type DeviceAccess = z.infer<typeof deviceAccessSchema>;
export type LockoutInEffect = DeviceAccess['lockouts'][number];
