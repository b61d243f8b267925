import { z } from 'zod';
import { STAY_ACCESS_STATES, STAY_STATES } from './rental/stays.schemas';
import { deviceSchema } from './devices.schemas';
import { deviceEventSchema } from './events.schemas';
import { idSchema } from './safe-input';

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

/** The most a subscription may ask to have sent again (`missedMs`): what the server keeps. */
export const LIVE_REPLAY_MAX_MS = 60_000;

export const liveClientMessageSchema = z.discriminatedUnion('type', [
  /** First message: the same session token as the HTTP API's bearer token. */
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) }),
  /**
   * After `ready`: receive this portal's messages (replaces any earlier subscription). `missedMs`:
   * also send again what was published in the last that many milliseconds (what a page that has
   * just loaded may have missed), if the server still holds all of it (`subscribed`'s `replayed`);
   * honoured once per socket.
   */
  z.object({
    type: z.literal('subscribe'),
    portalId: idSchema,
    missedMs: z.number().int().min(0).max(LIVE_REPLAY_MAX_MS).optional(),
  }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

/**
 * `alert`: a stored alert (a rule's, a stay's access refused); `notice`: a stored inbox notice that is
 * news rather than trouble (a guest's request, issue 19), shown calmer; both refresh the inbox.
 */
export const LIVE_NOTIFICATION_KINDS = ['device_event', 'device_status', 'alert', 'notice'] as const;

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

/**
 * What a basic user sees of a lock they reach, as GET user/{id}/accessTime shows it: no battery,
 * firmware, serial or model (the devices routes are admin-only).
 */
export const liveLockStatusSchema = deviceSchema.pick({
  _id: true,
  name: true,
  timeZone: true,
  online: true,
  lastSeenAt: true,
});
export type LiveLockStatus = z.infer<typeof liveLockStatusSchema>;

/**
 * Messages published to one portal's subscribers, each delivered only to its audience
 * (LIVE_AUDIENCES below): a new type must say who receives it.
 */
export const livePortalMessageSchema = z.discriminatedUnion('type', [
  /** An alert: admins only, as the alerts routes. */
  z.object({ type: z.literal('notification'), portalId: z.string(), notification: liveNotificationSchema }),
  /**
   * A lock's status changed: the record as the devices list shows it (admins), or the part a
   * basic user who reaches the lock may see.
   */
  z.object({
    type: z.literal('device.status'),
    portalId: z.string(),
    device: z.union([deviceSchema, liveLockStatusSchema]),
  }),
  /** A lock event was stored: admins, and the person who opened or was refused. */
  z.object({ type: z.literal('device.event'), portalId: z.string(), event: deviceEventSchema }),
  /**
   * A stay changed (a request arrived, was answered, its access reached every lock or was
   * refused): admins only, as the listing routes. Only what the listing screens need to read again.
   */
  z.object({
    type: z.literal('stay.changed'),
    portalId: z.string(),
    stay: z.object({
      _id: z.string(),
      listingId: z.string(),
      state: z.enum(STAY_STATES),
      accessState: z.enum(STAY_ACCESS_STATES),
    }),
  }),
]);
export type LivePortalMessage = z.infer<typeof livePortalMessageSchema>;
export type LivePortalMessageType = LivePortalMessage['type'];

/**
 * Who receives a portal message besides the portal's admins (and platform staff acting there),
 * who receive every message, as the HTTP API shows them everything. A basic user receives what the
 * HTTP API's member routes would show them:
 * - `admins`: nobody else;
 * - `person`: the person the message concerns (their own history, GET user/{id}/history);
 * - `lockMembers`: the members who reach the lock, directly or through groups
 *   (their locks, GET user/{id}/accessTime).
 */
export type LiveAudience =
  { kind: 'admins' } | { kind: 'person'; userId: string | null } | { kind: 'lockMembers'; deviceId: string };

/** How one message type is delivered: its audience and, optionally, the part members see. */
export interface LiveAudienceRule<M extends LivePortalMessage> {
  audience(message: M): LiveAudience;
  /** What a basic user in the audience receives, when it is less than the whole message. */
  memberView?(message: M): M;
}

type LivePortalMessageOf<T extends LivePortalMessageType> = Extract<LivePortalMessage, { type: T }>;

/**
 * THE table of who receives which portal message. A message type without an entry does not
 * compile; the live hub filters every socket by it; apps/server/test/isolation.test.ts sends each
 * type to a basic user and another portal's admin.
 */
export const LIVE_AUDIENCES: {
  readonly [T in LivePortalMessageType]: LiveAudienceRule<LivePortalMessageOf<T>>;
} = {
  notification: { audience: () => ({ kind: 'admins' }) },
  'device.status': {
    audience: (message) => ({ kind: 'lockMembers', deviceId: message.device._id }),
    memberView: (message) => ({ ...message, device: liveLockStatusSchema.parse(message.device) }),
  },
  'device.event': {
    audience: (message) => ({ kind: 'person', userId: message.event.user?._id ?? null }),
  },
  'stay.changed': { audience: () => ({ kind: 'admins' }) },
};

/** The delivery rule of a message's type (null for a type this build does not know). */
export function liveAudienceRuleOf(type: string): LiveAudienceRule<LivePortalMessage> | null {
  if (!Object.hasOwn(LIVE_AUDIENCES, type)) return null;
  // Each rule takes the messages of its own type: the caller passes it one of that type.
  return LIVE_AUDIENCES[type as LivePortalMessageType] as LiveAudienceRule<LivePortalMessage>;
}

/** A basic user as the live channel knows them: who they are and the locks they reach. */
export interface LiveMember {
  userId: string;
  deviceIds: ReadonlySet<string>;
}

/** Whether a basic user is in a message's audience. */
export function liveAudienceIncludes(audience: LiveAudience, member: LiveMember): boolean {
  switch (audience.kind) {
    case 'admins':
      return false;
    case 'person':
      return audience.userId !== null && audience.userId === member.userId;
    case 'lockMembers':
      return member.deviceIds.has(audience.deviceId);
    default: {
      const unknown: never = audience;
      throw new Error(`live channel: no rule for audience ${JSON.stringify(unknown)}`);
    }
  }
}

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  /** The `auth` message was accepted: the client may subscribe. */
  z.object({ type: z.literal('ready') }),
  /**
   * The subscription is in place: messages of this portal published from now on arrive. `replayed`:
   * the messages of the `missedMs` asked for came first, all of them; false, the client should read
   * again what it shows (none were asked for, or the server could not vouch for all of them).
   */
  z.object({ type: z.literal('subscribed'), portalId: z.string(), replayed: z.boolean().default(false) }),
  ...livePortalMessageSchema.options,
  /** A refused message (the socket stays open) or, before a close, why it is closed. */
  z.object({ type: z.literal('error'), code: z.enum(LIVE_ERROR_CODES), message: z.string() }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;
