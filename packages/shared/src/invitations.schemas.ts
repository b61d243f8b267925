import { z } from 'zod';
import { scheduleInputSchema } from './access/access.schemas';
import { accountTokenSchema, emailSchema, newPasswordSchema, tokenResponseSchema } from './auth.schemas';
import { portalMemberSchema } from './portal.schemas';
import { PORTAL_ROLES } from './roles';
import { idSchema, lineText } from './safe-input';

/** How long an invitation can be accepted. */
export const INVITATION_DAYS = 14;

/**
 * POST portal/user ("Add person") and POST user/invite: an admin invites someone by email, with a
 * role, the portal's name for them, and optional groups and locks, an access code and a schedule
 * at those locks, so giving someone access is one step. Strict: a password is refused, since the
 * person chooses their own from the invitation mail.
 */
export const userInviteSchema = z
  .strictObject({
    email: emailSchema,
    firstName: lineText().max(80).default(''),
    lastName: lineText().max(80).default(''),
    role: z.enum(PORTAL_ROLES).default('user'),
    groupIds: z.array(idSchema).max(100).default([]),
    deviceIds: z.array(idSchema).max(500).default([]),
    /** Their access code (PIN), under the same rules as POST user/accessCode. */
    accessCode: lineText().min(1).max(32).optional(),
    /** Their schedule at each lock of `deviceIds`, on each lock's clock; without it, at any time. */
    schedule: scheduleInputSchema.optional(),
  })
  .refine((invite) => !invite.schedule || invite.deviceIds.length > 0, {
    message: 'needs at least one lock in deviceIds to apply to',
    path: ['schedule'],
  });
export type UserInvite = z.input<typeof userInviteSchema>;
/** An invitation as the server reads it (defaults filled in). */
export type UserInviteBody = z.output<typeof userInviteSchema>;

/** The invited member, the same whether or not the address had an account. */
export const userInvitedSchema = z.object({ member: portalMemberSchema });

/** POST user/inviteFetchUser: the invitation behind a link. */
export const inviteTokenSchema = z.object({ token: accountTokenSchema });
export const invitationSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  portal: z.object({ _id: z.string(), name: z.string() }),
  role: z.enum(PORTAL_ROLES),
  invitedBy: z.string().nullable(),
  /** The person has no password yet and chooses one when accepting. */
  needsPassword: z.boolean(),
  status: z.enum(['invited', 'accepted']),
  expiresAt: z.iso.datetime(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** POST user/inviteResponse (sealed: it may carry a new password). */
export const inviteResponseSchema = z.discriminatedUnion('accept', [
  z.object({
    token: accountTokenSchema,
    accept: z.literal(true),
    password: newPasswordSchema.optional(),
    firstName: lineText().max(80).optional(),
    lastName: lineText().max(80).optional(),
  }),
  z.object({ token: accountTokenSchema, accept: z.literal(false) }),
]);
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

export const inviteAnsweredSchema = z.object({
  status: z.enum(['accepted', 'declined']),
  /** A session for a newly accepted invitation of a person without another way in; else null. */
  session: tokenResponseSchema.nullable(),
  portalId: z.string(),
});
export type InviteAnswered = z.infer<typeof inviteAnsweredSchema>;
