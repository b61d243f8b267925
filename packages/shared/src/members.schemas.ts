import { z } from 'zod';
import { deviceAccessViaSchema } from './devices.schemas';
import { ACCESS_DENIAL_REASONS, credentialKindSchema, scheduleSchema } from './access/access.schemas';
import { portalMemberSchema } from './portal.schemas';
import { MEMBERSHIP_STATUSES, PORTAL_ROLES } from './roles';
import { idSchema, integerParam, lineText, searchTextSchema } from './safe-input';

/**
 * POST portal/user/{id}: an admin changes the portal's name for a person (its label; the person's
 * account name is theirs alone) or their role here. Empty names return to the account's name.
 */
export const memberUpdateSchema = z
  .object({
    firstName: lineText().max(80),
    lastName: lineText().max(80),
    role: z.enum(PORTAL_ROLES),
  })
  .partial()
  .refine((data) => Object.keys(data).length > 0, 'firstName, lastName or role is required');
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

/** Statuses an admin can set with POST portal/user/{id}/{status}. */
export const SETTABLE_MEMBER_STATUSES = ['active', 'suspended'] as const;
export const memberStatusParamsSchema = z.object({
  id: idSchema,
  status: z.enum(SETTABLE_MEMBER_STATUSES),
});

/** GET portal/user/{id} (and GET portal/user, oneself): a person in this portal with their access code. */
export const memberDetailSchema = z.object({
  member: portalMemberSchema,
  accessCode: z.string().nullable(),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

/** POST user/accessCode: set (or clear, with null) a person's access code (PIN) in this portal. */
export const accessCodeInputSchema = z.object({
  userId: idSchema,
  code: lineText().max(32).nullable(),
});
export type AccessCodeInput = z.infer<typeof accessCodeInputSchema>;

/** GET user/{id}/devices: the locks a person can reach, how and when. */
export const memberDeviceSchema = z.object({
  _id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  schedule: scheduleSchema.nullable(),
  via: deviceAccessViaSchema,
});
export type MemberDevice = z.infer<typeof memberDeviceSchema>;

/**
 * GET user/{id}/accessTime?at=: for each lock the person reaches, whether they can open it at an
 * instant (default now), in the lock's local time, and why not; the person-side view of
 * "who can open", from the same engine.
 */
export const memberAccessTimeSchema = z.object({
  at: z.iso.datetime(),
  locks: z.array(
    memberDeviceSchema.extend({
      /** The lock's local wall time at that instant, e.g. "Mon 2026-11-23 09:30". */
      localTime: z.string(),
      canOpen: z.boolean(),
      reason: z.enum(ACCESS_DENIAL_REASONS).nullable(),
      credentials: z.array(credentialKindSchema),
      /** The lock's connection as last reported, so the person knows whether a change reached it. */
      online: z.boolean(),
      lastSeenAt: z.iso.datetime().nullable(),
    }),
  ),
});
export type MemberAccessTime = z.infer<typeof memberAccessTimeSchema>;

/** GET portal/scopedUsers: the people an admin may pick in a form (search by name or email). */
export const scopedUsersQuerySchema = z.object({
  search: searchTextSchema.optional(),
  limit: integerParam({ min: 1, max: 50 }).default(20),
});
export const scopedUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(PORTAL_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
});
export type ScopedUser = z.infer<typeof scopedUserSchema>;

/**
 * The columns of GET portal/user/list, the people export (CSV), in order. `owner` says who owns the
 * portal (an admin the screens badge OWNER), which `role` alone does not.
 */
export const USER_LIST_COLUMNS = [
  'email',
  'firstName',
  'lastName',
  'role',
  'owner',
  'status',
  'joinedAt',
  'hasAccessCode',
  'locks',
  'cards',
  'keys',
  'fingerprints',
] as const;
