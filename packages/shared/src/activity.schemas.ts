import { z } from 'zod';
import { auditEntrySchema } from './audit.schemas';
import { DEVICE_COMMAND_STATUSES } from './device-link.schemas';
import { COMMAND_ERRORS } from './device-protocol';
import { activityQuerySchema, DEVICE_EVENT_TYPES, deviceEventSchema } from './events.schemas';
import { idSchema } from './safe-input';
import { zoneFilterParam } from './zones.schemas';

// The activity feed: admin changes and lock events in one list (kept apart from events.schemas,
// which the device protocol imports: the commands' outcomes come from the device link's schemas).

/**
 * What the activity feed can be narrowed to: admin changes, remote commands (unlock/lock sent from
 * the portal), or one type of lock event.
 */
export const ACTIVITY_KINDS = ['change', 'command', ...DEVICE_EVENT_TYPES] as const;
export const activityKindSchema = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof activityKindSchema>;

/** The feed's filters (GET portal/activity and its CSV, GET portal/activity/export). */
export const activityFiltersSchema = z.object({
  /** Only what concerns this lock. */
  deviceId: idSchema.optional(),
  /** Only what concerns this person: changes about them or made by them, and their lock events. */
  userId: idSchema.optional(),
  kind: activityKindSchema.optional(),
  /** Only what concerns the locks of this zone and its sub-zones ('none': the locks in no zone). */
  zoneId: zoneFilterParam.optional(),
});
export type ActivityFilters = z.output<typeof activityFiltersSchema>;

/** GET portal/activity: the feed, paged by time, with its filters. */
export const activityFeedQuerySchema = activityQuerySchema.extend(activityFiltersSchema.shape);
export type ActivityFeedQuery = z.output<typeof activityFeedQuerySchema>;

/** The most rows one CSV export holds (the newest); narrower filters reach further back. */
export const ACTIVITY_EXPORT_LIMIT = 10_000;

const namedRefSchema = z.object({ _id: z.string(), name: z.string() });

/** A remote command's outcome, as the lock answered (or did not). */
export const activityCommandSchema = z.object({
  status: z.enum(DEVICE_COMMAND_STATUSES),
  error: z.enum(COMMAND_ERRORS).nullable(),
});

export const activityItemSchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('change'),
    at: z.iso.datetime(),
    change: auditEntrySchema,
    /** The lock the change concerns, by its current name (absent: none, or an older answer). */
    device: namedRefSchema.nullable().optional(),
    /** The person the change concerns, by the name the portal shows. */
    person: namedRefSchema.nullable().optional(),
    /** For a remote unlock or lock: whether the lock did it. */
    command: activityCommandSchema.nullable().optional(),
  }),
  z.object({ source: z.literal('event'), at: z.iso.datetime(), event: deviceEventSchema }),
]);
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityPageSchema = z.object({
  /** Newest first; a page may run a few over `limit` to keep together the items of its last instant. */
  items: z.array(activityItemSchema),
  /** Pass as `before` for the next page; null when there is nothing older. */
  nextBefore: z.iso.datetime().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;
