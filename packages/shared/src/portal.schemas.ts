import { z } from 'zod';
import { lineText } from './safe-input';
import { keysetListQuerySchema, keysetPageSchema } from './list-query';
import { MEMBERSHIP_STATUSES, PORTAL_ROLES } from './roles';

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A time zone's name as Intl spells it: 'utc' → 'UTC', 'europe/berlin' → 'Europe/Berlin'. Where
 * Intl answers another name, the name given stays: older ICU (Node 20's) answers a zone's old link
 * for its current name ('Asia/Kolkata' → 'Asia/Calcutta', 'Europe/Kyiv' → 'Europe/Kiev'), which a
 * person who picked Kolkata would not recognise. An unknown zone comes back unchanged.
 */
export function canonicalTimeZone(zone: string): string {
  try {
    const spelled = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return spelled.toLowerCase() === zone.toLowerCase() ? spelled : zone;
  } catch {
    return zone;
  }
}

/** An IANA time zone, stored by its canonical name (however the client spelled it). */
export const timeZoneSchema = lineText()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone')
  .overwrite(canonicalTimeZone);

/** A portal (tenant) as the API answers it. */
export const portalSchema = z.object({
  _id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  timeZone: z.string(),
  expireDate: z.iso.datetime().nullable(),
  stripe: z.object({ status: z.string().nullable() }),
  /** Paid up: stripe status active, or expireDate in the future (brief §1). */
  current: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Portal = z.infer<typeof portalSchema>;

/** A portal is current (paid up) if its stripe status is active or its expireDate is in the future. */
export function isPortalCurrent(
  portal: { stripeStatus: string | null; expireDate: string | null },
  now: Date = new Date(),
): boolean {
  if (portal.stripeStatus === 'active') return true;
  return portal.expireDate !== null && new Date(portal.expireDate).getTime() > now.getTime();
}

/**
 * GET portal/acting: why the signed-in person may act in the portal this request acts in. `member`
 * through their own membership; `reseller` as the portal's reseller (the customer lets it act);
 * `platform` as platform staff. The app frame says so in a banner unless it is `member`.
 */
export const portalActingSchema = z.object({
  via: z.enum(['member', 'reseller', 'platform']),
  portal: z.object({ _id: z.string(), name: z.string() }),
  /** The portal owner's address, to tell one customer's "Main office" from another's. */
  ownerEmail: z.string(),
  /** The reseller the person acts for, when `via` is `reseller`. */
  reseller: z.object({ _id: z.string(), name: z.string() }).nullable(),
});
export type PortalActing = z.infer<typeof portalActingSchema>;

/** POST portal/data: what an admin may change about their portal. */
export const portalDataSchema = z
  .object({
    name: lineText().min(1, 'is required').max(80),
    timeZone: timeZoneSchema,
  })
  .partial()
  .refine((data) => Object.keys(data).length > 0, 'name or timeZone is required');
export type PortalData = z.infer<typeof portalDataSchema>;

export const portalNameSchema = z.object({ _id: z.string(), name: z.string() });

/**
 * POST user/{id}/portal: a person who owns no portal (invited somewhere as a user) starts their
 * own, becoming its owner and admin.
 */
export const ownPortalCreateSchema = z.object({
  name: lineText().min(1, 'is required').max(80),
  timeZone: timeZoneSchema.default('UTC'),
});
export type OwnPortalCreate = z.infer<typeof ownPortalCreateSchema>;

/** A person in the portal's member list. */
export const portalMemberSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(PORTAL_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
  owner: z.boolean(),
  joinedAt: z.iso.datetime(),
});
export type PortalMember = z.infer<typeof portalMemberSchema>;

export const portalUsersQuerySchema = keysetListQuerySchema({
  sortBy: ['email', 'firstName', 'lastName', 'role', 'status', 'joinedAt'],
  filterBy: ['role', 'status'],
  defaultSortBy: 'email',
  sortKeys: {
    email: 'text',
    firstName: 'text',
    lastName: 'text',
    role: 'text',
    status: 'text',
    joinedAt: 'instant',
  },
});
export type PortalUsersQuery = z.output<typeof portalUsersQuerySchema>;
export const portalUsersPageSchema = keysetPageSchema(portalMemberSchema);

/** The signed-in person's place in one portal (GET portal/user/portal/{id} and .../current/{id}). */
export const portalContextSchema = z.object({
  portal: portalSchema,
  role: z.enum(PORTAL_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
  /** True when a platform superAdmin acts here without being a member. */
  viaPlatformRole: z.boolean(),
});
export type PortalContext = z.infer<typeof portalContextSchema>;

/** A lock in a dashboard list. */
const dashboardDeviceSchema = z.object({
  _id: z.string(),
  name: z.string(),
  battery: z.number().int().nullable(),
  lastSeenAt: z.iso.datetime().nullable(),
});

/** GET portal/dashboard: the portal, its counts, and the locks that need attention. */
export const portalDashboardSchema = z.object({
  portal: portalSchema,
  counts: z.object({
    /** Everyone in the portal (invited and suspended too), as GET portal/users counts them. */
    members: z.number().int(),
    /** Active admins and active basic users. */
    admins: z.number().int(),
    users: z.number().int(),
    invited: z.number().int(),
    suspended: z.number().int(),
    devices: z.number().int(),
    groups: z.number().int(),
    offline: z.number().int(),
    lowBattery: z.number().int(),
  }),
  /** Up to 10 locks below their low-battery level, emptiest first. */
  lowBattery: z.array(dashboardDeviceSchema),
  /** Up to 10 locks not connected now, longest unseen first (never seen first of all). */
  offline: z.array(dashboardDeviceSchema),
});
export type PortalDashboard = z.infer<typeof portalDashboardSchema>;

/** GET portal/about: what this installation runs (the about screen). */
export const aboutSchema = z.object({
  name: z.string(),
  version: z.string(),
  licence: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  node: z.string(),
  startedAt: z.iso.datetime(),
  apiDocs: z.string(),
  /**
   * The MQTT broker locks connect to (mqtt://host:port), as their installer enters it; null when
   * this installation has not said (an external broker without MQTT_PUBLIC_URL).
   */
  lockBrokerUrl: z.string().nullable(),
});
export type About = z.infer<typeof aboutSchema>;
