import { z } from 'zod';
import { listQuerySchema, pageSchema } from './list-query';
import { PORTAL_STANDINGS } from './payments.schemas';
import { planIdSchema } from './plans';
import { idSchema } from './safe-input';

/**
 * The platform console (issue 20, item 1): platform staff (superAdmin) search every portal and
 * person, look into a portal, act in it through a support session, switch features per deployment
 * and per portal, and see the background work.
 */

// ---- Feature flags ----------------------------------------------------------------------------

/**
 * THE registry of switchable features: each with what staff read in the console and its value
 * when neither the deployment nor the portal says otherwise. The server refuses a disabled
 * feature's routes (base/feature-flags), the web app hides its navigation.
 */
export const FEATURE_FLAGS = {
  rentals: {
    label: 'Rentals',
    description: 'Listings, stay requests, calendars and reviews (also needs the Business plan).',
    default: true,
  },
  shop: {
    label: 'Shop',
    description: 'The hardware shop: catalogue, cart, checkout and orders.',
    default: true,
  },
  support: {
    label: 'Support requests',
    description: 'People file support requests from the app; staff answer them in the inbox.',
    default: true,
  },
  reports: {
    label: 'Reports',
    description: 'Device and user reports on screen, as CSV and PDF, and scheduled by mail.',
    default: true,
  },
  sessionRecorder: {
    label: 'Session recorder',
    description: 'Loads the analytics session recorder outside local and private-network hosts.',
    default: false,
  },
} as const satisfies Record<string, { label: string; description: string; default: boolean }>;

export const FEATURE_FLAG_IDS = Object.keys(FEATURE_FLAGS) as [FeatureFlag, ...FeatureFlag[]];
export type FeatureFlag = keyof typeof FEATURE_FLAGS;
export const featureFlagSchema = z.enum(
  Object.keys(FEATURE_FLAGS) as [keyof typeof FEATURE_FLAGS, ...(keyof typeof FEATURE_FLAGS)[]],
);

/** Where a flag's value comes from: the registry's default, the deployment, or the portal's override. */
export const FEATURE_FLAG_SOURCES = ['default', 'deployment', 'portal'] as const;

/** One flag as it stands for a portal (or for the deployment, without a portal). */
export const featureFlagStateSchema = z.object({
  id: featureFlagSchema,
  label: z.string(),
  description: z.string(),
  defaultEnabled: z.boolean(),
  /** The deployment's value, null when it keeps the default. */
  deployment: z.boolean().nullable(),
  /** The portal's override, null when it follows the deployment (always null without a portal). */
  portal: z.boolean().nullable(),
  enabled: z.boolean(),
  source: z.enum(FEATURE_FLAG_SOURCES),
});
export type FeatureFlagState = z.infer<typeof featureFlagStateSchema>;

/** GET system/features: the features of the signed-in person's acting portal (or the deployment's). */
export const systemFeaturesSchema = z.object({
  portalId: z.string().nullable(),
  /** The enabled flags' ids: what the web app keeps as its features state. */
  enabled: z.array(featureFlagSchema),
  flags: z.array(featureFlagStateSchema),
});
export type SystemFeatures = z.infer<typeof systemFeaturesSchema>;

/** Setting a flag: true or false, or null to drop the value (back to the default, or to the deployment). */
export const featureFlagInputSchema = z.object({
  flag: featureFlagSchema,
  enabled: z.boolean().nullable(),
});
export type FeatureFlagInput = z.infer<typeof featureFlagInputSchema>;

// ---- People across portals ----------------------------------------------------------------------

export const adminUserPortalSchema = z.object({
  _id: z.string(),
  name: z.string(),
  role: z.string(),
  status: z.string(),
  owner: z.boolean(),
});

/** A person as platform staff see them: their account and every portal they belong to. */
export const adminUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  platformRole: z.string().nullable(),
  status: z.string(),
  portals: z.array(adminUserPortalSchema),
  createdAt: z.iso.datetime(),
  /** Their last sign-in as the change log knows it; null when not known. */
  lastSignInAt: z.iso.datetime().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** GET system/adminUsers: search on email and name; filter by platform role or account status. */
export const adminUsersQuerySchema = listQuerySchema({
  sortBy: ['email', 'name', 'createdAt'],
  filterBy: ['platformRole', 'status'],
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;
export const adminUsersPageSchema = pageSchema(adminUserSchema);

// ---- Portals ----------------------------------------------------------------------------------

/** A portal as the console lists it. */
export const platformPortalSchema = z.object({
  _id: z.string(),
  name: z.string(),
  owner: z.object({ _id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  plan: planIdSchema,
  standing: z.enum(PORTAL_STANDINGS),
  /** The brief's "current" rule: stripe status active or expireDate in the future. */
  current: z.boolean(),
  lockCount: z.number().int(),
  peopleCount: z.number().int(),
  /** The latest lock event or change-log entry; null for a portal where nothing happened yet. */
  lastActivityAt: z.iso.datetime().nullable(),
  reseller: z.object({ _id: z.string(), companyName: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
});
export type PlatformPortal = z.infer<typeof platformPortalSchema>;

/** GET system/portals: search by the portal's name or its owner's email. */
export const platformPortalsQuerySchema = listQuerySchema({
  sortBy: ['name', 'createdAt', 'ownerEmail'],
  filterBy: ['resellerId'],
});
export type PlatformPortalsQuery = z.infer<typeof platformPortalsQuerySchema>;
export const platformPortalsPageSchema = pageSchema(platformPortalSchema);

/** A support session in progress: platform staff acting as a person of the portal. */
export const activeSupportSessionSchema = z.object({
  _id: z.string(),
  staff: z.object({ _id: z.string(), email: z.string() }),
  person: z.object({ _id: z.string(), email: z.string() }),
  startedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type ActiveSupportSession = z.infer<typeof activeSupportSessionSchema>;

/** GET portal/supportSession: the support session acting in this portal now, if any. */
export const portalSupportSessionSchema = z.object({ session: activeSupportSessionSchema.nullable() });
export type PortalSupportSession = z.infer<typeof portalSupportSessionSchema>;

/** Something in a portal that wants a look. */
export const portalProblemSchema = z.object({
  kind: z.enum(['lapsed', 'locks_offline', 'mail_failed', 'feed_failing', 'staff_alert', 'sync_pending']),
  title: z.string(),
  detail: z.string(),
});

/** GET system/portals/{portalId}: the portal, its admins, locks, recent changes and open problems. */
export const platformPortalDetailSchema = platformPortalSchema.extend({
  timeZone: z.string(),
  admins: z.array(
    z.object({
      _id: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      owner: z.boolean(),
    }),
  ),
  locksOnline: z.number().int(),
  locksOffline: z.number().int(),
  recentChanges: z.array(
    z.object({
      _id: z.string(),
      action: z.string(),
      entityType: z.string(),
      actorEmail: z.string().nullable(),
      createdAt: z.iso.datetime(),
    }),
  ),
  problems: z.array(portalProblemSchema),
  supportSessions: z.array(activeSupportSessionSchema),
});
export type PlatformPortalDetail = z.infer<typeof platformPortalDetailSchema>;

// ---- Background work --------------------------------------------------------------------------

/** GET system/work: queued and failing background work across the deployment. */
export const platformWorkSchema = z.object({
  mail: z.object({
    queued: z.number().int(),
    failed: z.number().int(),
    /** The oldest unsent mail's due time (a growing age means the sender is stuck). */
    oldestDueAt: z.iso.datetime().nullable(),
    recentFailures: z.array(
      z.object({
        _id: z.string(),
        to: z.string(),
        subject: z.string(),
        template: z.string(),
        lastError: z.string().nullable(),
        failedAt: z.iso.datetime().nullable(),
        attempts: z.number().int(),
      }),
    ),
  }),
  locks: z.object({
    online: z.number().int(),
    offline: z.number().int(),
    never: z.number().int(),
    recentDisconnects: z.array(
      z.object({
        _id: z.string(),
        name: z.string(),
        portalId: z.string(),
        portalName: z.string(),
        lastSeenAt: z.iso.datetime().nullable(),
      }),
    ),
    /** Locks whose confirmed credential set is behind the one they should hold. */
    syncPending: z.number().int(),
    /** Remote commands sent and not answered yet. */
    commandsPending: z.number().int(),
  }),
  feeds: z.object({
    total: z.number().int(),
    failing: z.number().int(),
    failures: z.array(
      z.object({
        _id: z.string(),
        name: z.string(),
        listingId: z.string(),
        portalId: z.string(),
        portalName: z.string(),
        lastError: z.string().nullable(),
        lastErrorAt: z.iso.datetime().nullable(),
      }),
    ),
  }),
  payments: z.object({
    openCheckouts: z.number().int(),
    /** Staff payment alerts of the last 7 days (failed and forged webhooks, failed payments). */
    alertsThisWeek: z.number().int(),
    recentAlerts: z.array(
      z.object({
        _id: z.string(),
        kind: z.string(),
        title: z.string(),
        message: z.string(),
        createdAt: z.iso.datetime(),
      }),
    ),
  }),
  jobs: z.array(
    z.object({ name: z.string(), nextRunAt: z.iso.datetime(), lastDoneAt: z.iso.datetime().nullable() }),
  ),
});
export type PlatformWork = z.infer<typeof platformWorkSchema>;

/** POST system/work/retry: a failed mail is due again now; a failing calendar feed is read now. */
export const workRetryInputSchema = z.object({ kind: z.enum(['mail', 'feed']), id: idSchema });
export type WorkRetryInput = z.infer<typeof workRetryInputSchema>;
