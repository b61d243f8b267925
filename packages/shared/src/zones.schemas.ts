import { z } from 'zod';
import { idSchema, instantInput, lineText, multilineText } from './safe-input';
import { timeZoneSchema } from './portal.schemas';

// Zones (issue 21, item 4; docs/decisions.md "Zones"): a portal's locks grouped into places (a site,
// a building, a floor), nested at most ZONE_MAX_DEPTH deep. A lock is in at most one zone.

/** A site › a building › a floor: deeper nesting is refused. */
export const ZONE_MAX_DEPTH = 3;
/** Zones per portal. */
export const ZONE_LIMIT = 500;
/** The zone filters' value for the locks in no zone. */
export const NO_ZONE_FILTER = 'none';

/** A zone as the API answers it. */
export const zoneSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  /** The IANA time zone offered to locks added to the zone. */
  timeZone: z.string(),
  /** The zone it is part of; null for a top-level zone. */
  parentId: z.string().nullable(),
  /** 1 for a top-level zone, up to ZONE_MAX_DEPTH. */
  depth: z.number().int(),
  /** The locks directly in the zone; null for a basic user, who sees only the zones. */
  lockCount: z.number().int().nullable(),
  /** The locks in the zone and its sub-zones; null for a basic user. */
  totalLockCount: z.number().int().nullable(),
  /** Locks directly in the zone whose own time zone differs from the zone's; null for a basic user. */
  otherTimeZoneCount: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Zone = z.infer<typeof zoneSchema>;

/** GET portal/zones: every zone of the portal, parents before their sub-zones, by name. */
export const zonesSchema = z.array(zoneSchema);

/** POST portal/zone (create) and POST portal/zone/{id} (save). */
export const zoneInputSchema = z.object({
  name: lineText().min(1, 'is required').max(80),
  description: multilineText().max(500).default(''),
  timeZone: timeZoneSchema,
  parentId: idSchema.nullable().default(null),
});
export type ZoneInput = z.input<typeof zoneInputSchema>;

/** A lock of a zone. */
export const zoneDeviceSchema = z.object({
  _id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  online: z.boolean(),
  /** The zone it is in (null: none): for the "add locks" list, which shows locks of other zones too. */
  zoneId: z.string().nullable(),
});
export type ZoneDevice = z.infer<typeof zoneDeviceSchema>;

/** POST zone/{id}/devices: move locks into the zone (out of any other) and out of it, in bulk. */
export const zoneMoveSchema = z
  .object({
    add: z.array(idSchema).max(5000).default([]),
    remove: z.array(idSchema).max(5000).default([]),
    /** Also give the added locks the zone's time zone (their schedules then run on that clock). */
    applyTimeZone: z.boolean().default(false),
  })
  .refine((m) => m.add.length + m.remove.length > 0, {
    message: 'name a lock to add or remove',
    path: ['add'],
  });
export type ZoneMove = z.input<typeof zoneMoveSchema>;

/** What a move did. */
export const zoneMovedSchema = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  /** Locks whose time zone was set to the zone's. */
  timeZoneChanged: z.number().int(),
});
export type ZoneMoved = z.infer<typeof zoneMovedSchema>;

/** What applying the zone's time zone to its locks did. */
export const zoneTimeZoneAppliedSchema = z.object({ changed: z.number().int() });

/** POST zone/{id}/lockout: a lockout of every lock in the zone and its sub-zones, bound to the zone. */
export const zoneLockoutInputSchema = z
  .object({
    name: lineText().min(1, 'is required').max(80),
    from: instantInput(),
    until: instantInput().nullable().default(null),
    exemptAdmins: z.boolean().default(false),
  })
  .refine((l) => l.until === null || new Date(l.until) > new Date(l.from), {
    message: 'must be after from',
    path: ['until'],
  });
export type ZoneLockoutInput = z.input<typeof zoneLockoutInputSchema>;

/** The optional zone filter of the dashboard and the activity lists: a zone id or NO_ZONE_FILTER. */
export const zoneFilterParam = z.union([idSchema, z.literal(NO_ZONE_FILTER)]);

/** A list's optional zone filter in its query string (GET portal/dashboard). */
export const zoneScopedQuerySchema = z.object({ zoneId: zoneFilterParam.optional() });
