import { z } from 'zod';
import { instantInput, integerParam } from './safe-input';
import { ACCESS_DENIAL_REASONS, credentialKindSchema } from './access/access.schemas';
import { listQuerySchema, pageSchema } from './list-query';

/** What a lock reports (DESIGN §4 `events`). */
export const DEVICE_EVENT_TYPES = [
  'unlock',
  'lock',
  'denied',
  'tamper',
  'battery_low',
  'door_ajar',
  'door_closed',
] as const;
export const deviceEventTypeSchema = z.enum(DEVICE_EVENT_TYPES);
export type DeviceEventType = z.infer<typeof deviceEventTypeSchema>;

/** How the lock was operated: a credential kind, or by hand from inside. */
export const eventMethodSchema = z.union([credentialKindSchema, z.literal('manual')]);

/** A stored lock event, as the portal's logs show it. */
export const deviceEventSchema = z.object({
  _id: z.string(),
  /** The id the lock gave the event; a lock resends until acknowledged, the server keeps one copy. */
  eventId: z.string(),
  device: z.object({ _id: z.string(), name: z.string() }),
  type: deviceEventTypeSchema,
  method: eventMethodSchema.nullable(),
  user: z.object({ _id: z.string(), name: z.string() }).nullable(),
  credentialId: z.string().nullable(),
  reason: z.enum(ACCESS_DENIAL_REASONS).nullable(),
  occurredAt: z.iso.datetime(),
  receivedAt: z.iso.datetime(),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;

/** GET portal/device/logs: the portal's lock events, newest first by default. */
export const deviceLogsQuerySchema = listQuerySchema({
  sortBy: ['occurredAt'],
  filterBy: ['deviceId', 'userId', 'type'],
});
export type DeviceLogsQuery = z.output<typeof deviceLogsQuerySchema>;
export const deviceLogsPageSchema = pageSchema(deviceEventSchema);

/** GET device/{id}/events: one lock's events, newest first by default, filterable by type. */
export const deviceEventsQuerySchema = listQuerySchema({ sortBy: ['occurredAt'], filterBy: ['type'] });
export type DeviceEventsQuery = z.output<typeof deviceEventsQuerySchema>;

/** GET portal/activity: admin changes and lock events in one feed, newest first, paged by time. */
export const activityQuerySchema = z.object({
  /** Only items strictly older than this instant (the `nextBefore` of the previous page). */
  before: instantInput().optional(),
  limit: integerParam({ min: 1, max: 100 }).default(30),
});
export type ActivityQuery = z.output<typeof activityQuerySchema>;
