import { z } from 'zod';
import { deviceSchema } from './devices.schemas';
import { deviceEventSchema } from './events.schemas';

/**
 * The live channel: one WebSocket at `{API_BASE_PATH}/live` per browser tab (DESIGN §2). The
 * client authenticates with its first message (tokens never travel in the URL, where proxies and
 * logs keep them), then subscribes to one portal at a time: the brief's "space channel".
 */

/** Path of the live channel under the API base path. */
export const LIVE_PATH = '/live';

/** How long the server waits for the `auth` message before closing the socket. */
export const LIVE_AUTH_TIMEOUT_MS = 5000;

/**
 * Close codes the server uses (4000–4999 are the application's range). A client reconnects after
 * any of them except `unauthorized`, which needs a new sign-in first.
 */
export const LIVE_CLOSE_CODES = {
  /** The session is missing, invalid, revoked, expired or its person is suspended. */
  unauthorized: 4401,
  /** No `auth` message within LIVE_AUTH_TIMEOUT_MS. */
  authTimeout: 4408,
  /** A message that is not JSON or not one of the client messages. */
  badMessage: 4400,
  /** The socket could not keep up with its portal's messages; reconnecting starts afresh. */
  tooSlow: 4429,
  /** The server is shutting down (the standard "going away"). */
  goingAway: 1001,
} as const;

export const liveClientMessageSchema = z.discriminatedUnion('type', [
  /** First message: the same session token as the HTTP API's bearer token. */
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) }),
  /** After `ready`: receive this portal's messages (replaces any earlier subscription). */
  z.object({ type: z.literal('subscribe'), portalId: z.string().min(1).max(100) }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

export const LIVE_NOTIFICATION_KINDS = ['device_event', 'device_status', 'alert'] as const;

/** Something worth telling a person at once; the web client shows it as an alert. */
export const liveNotificationSchema = z.object({
  _id: z.string(),
  at: z.iso.datetime(),
  kind: z.enum(LIVE_NOTIFICATION_KINDS),
  title: z.string(),
  message: z.string(),
  deviceId: z.string().nullable().optional(),
});
export type LiveNotification = z.infer<typeof liveNotificationSchema>;

export const LIVE_ERROR_CODES = ['bad_request', 'unauthorized', 'portal_override_denied'] as const;

/** Messages published to every subscriber of one portal. */
export const livePortalMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification'), portalId: z.string(), notification: liveNotificationSchema }),
  /** A lock's status changed: the record as the devices list shows it. */
  z.object({ type: z.literal('device.status'), portalId: z.string(), device: deviceSchema }),
  /** A lock event was stored. */
  z.object({ type: z.literal('device.event'), portalId: z.string(), event: deviceEventSchema }),
]);
export type LivePortalMessage = z.infer<typeof livePortalMessageSchema>;

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  /** The `auth` message was accepted: the client may subscribe. */
  z.object({ type: z.literal('ready') }),
  /** The subscription is in place: messages of this portal published from now on arrive. */
  z.object({ type: z.literal('subscribed'), portalId: z.string() }),
  ...livePortalMessageSchema.options,
  /** A refused message (the socket stays open) or, before a close, why it is closed. */
  z.object({ type: z.literal('error'), code: z.enum(LIVE_ERROR_CODES), message: z.string() }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;
