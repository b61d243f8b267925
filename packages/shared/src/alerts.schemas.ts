import { z } from 'zod';
import { idSchema, lineText } from './safe-input';
import { listQuerySchema } from './list-query';

/**
 * Alert rules (the notificationAndAlert screen): what about the portal's locks someone should be
 * told, stored as notifications with read state, shown live and optionally mailed to the admins.
 */
export const ALERT_KINDS = ['low_battery', 'offline', 'denied_attempts', 'tamper', 'user_access'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * What a stored notification is about: a rule's kind, or one raised for every portal without a
 * rule (the host's inbox, issue 19): `stay_access`: a lock refused a stay's access, or has not
 * confirmed it in time (issue 12); `stay_request`: a guest asked for a stay on a public listing
 * page; `lock_refused`: a lock refused credentials it was sent; `sync_failed`: a remote command
 * failed or expired at the lock; `payment_failed`: a renewal or payment was declined.
 */
export const NOTIFICATION_KINDS = [
  ...ALERT_KINDS,
  'stay_access',
  'stay_request',
  'lock_refused',
  'sync_failed',
  'payment_failed',
  'webhook_failing',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const alertRuleSchema = z.object({
  _id: z.string(),
  kind: z.enum(ALERT_KINDS),
  name: z.string(),
  enabled: z.boolean(),
  /** Also mail each alert to the portal's active admins. */
  email: z.boolean(),
  /** The locks it watches; empty: every lock of the portal. */
  devices: z.array(z.object({ _id: z.string(), name: z.string() })),
  /** offline: longer than this; denied_attempts: within this. */
  minutes: z.number().int().nullable(),
  /** denied_attempts: this many refusals at one lock. */
  count: z.number().int().nullable(),
  /** user_access: the person whose openings to report. */
  user: z.object({ _id: z.string(), name: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** POST portal/alerts/rules (create) and POST portal/alerts/rules/{id} (save). */
export const alertRuleInputSchema = z
  .object({
    kind: z.enum(ALERT_KINDS),
    name: lineText().min(1, 'is required').max(80),
    enabled: z.boolean().default(true),
    email: z.boolean().default(false),
    deviceIds: z.array(idSchema).max(5000).default([]),
    minutes: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(1440, 'must be at most 1440')
      .nullable()
      .default(null),
    count: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(100, 'must be at most 100')
      .nullable()
      .default(null),
    userId: idSchema.nullable().default(null),
  })
  .superRefine((rule, context) => {
    const need = (field: 'minutes' | 'count' | 'userId', message: string) => {
      if (rule[field] === null) context.addIssue({ code: 'custom', path: [field], message });
    };
    if (rule.kind === 'offline') need('minutes', 'is required for an offline rule');
    if (rule.kind === 'denied_attempts') {
      need('count', 'is required for a denied-attempts rule');
      need('minutes', 'is required for a denied-attempts rule');
    }
    if (rule.kind === 'user_access') need('userId', 'is required for a person rule');
  });
export type AlertRuleInput = z.output<typeof alertRuleInputSchema>;

/** What a notification is about, so the screen can link to where to act on it. */
export const NOTIFICATION_SUBJECT_TYPES = ['stay', 'device', 'subscription'] as const;
export const notificationSubjectSchema = z.object({
  type: z.enum(NOTIFICATION_SUBJECT_TYPES),
  _id: z.string(),
  /** As it was named when the notification was raised (a guest and listing, a lock, a plan). */
  name: z.string(),
  /** A stay's listing (its request page is under the listing). */
  listingId: z.string().nullable(),
});
export type NotificationSubject = z.infer<typeof notificationSubjectSchema>;

export const notificationSchema = z.object({
  _id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  ruleId: z.string().nullable(),
  device: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** Where to act; null for older notifications and those about a lock only (see `device`). */
  subject: notificationSubjectSchema.nullable(),
  title: z.string(),
  message: z.string(),
  createdAt: z.iso.datetime(),
  /** Newer than the reader's last "mark as read" in this portal. */
  unread: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET portal/notifications: newest first. */
export const notificationsQuerySchema = listQuerySchema({ sortBy: ['createdAt'], filterBy: ['kind'] });
export type NotificationsQuery = z.output<typeof notificationsQuerySchema>;
export const notificationsPageSchema = z.object({
  items: z.array(notificationSchema),
  total: z.number().int(),
  /** How many of all the portal's notifications the reader has not read. */
  unread: z.number().int(),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

/** POST portal/notifications/read: everything up to now is read (the brief's readNotification). */
export const notificationsReadSchema = z.object({ readAt: z.iso.datetime() });

/**
 * GET portal/requests/waiting (admin): the stay requests of the portal's listings still waiting for
 * an answer, oldest first (the dashboard's "needs your answer" card and the Listings badge).
 */
export const waitingRequestSchema = z.object({
  _id: z.string(),
  listingId: z.string(),
  listingTitle: z.string(),
  guestName: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  createdAt: z.iso.datetime(),
});
export type WaitingRequest = z.infer<typeof waitingRequestSchema>;
export const waitingRequestsSchema = z.object({
  /** The first few, oldest first. */
  items: z.array(waitingRequestSchema),
  /** How many are waiting in all. */
  total: z.number().int(),
});
export type WaitingRequests = z.infer<typeof waitingRequestsSchema>;
