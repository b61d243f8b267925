import { z } from 'zod';
import { lineText, passwordText } from './safe-input';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { MEMBERSHIP_STATUSES, PLATFORM_ROLES, PORTAL_ROLES } from './roles';
import { portalSchema } from './portal.schemas';

/** Email as people type it: trimmed and lower-cased before it is checked or stored. */
export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email('must be an email address'));

/** A password a person chooses. The server also refuses common passwords. */
export const newPasswordSchema = passwordText()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A password a person types to prove who they are (its length as chosen, within the maximum). */
export const currentPasswordSchema = passwordText().min(1, 'is required').max(PASSWORD_MAX_LENGTH);

/** The three system types, chosen by the web client from the host name. */
export const SYSTEM_TYPES = ['app', 'reseller', 'admin'] as const;
export type SystemType = (typeof SYSTEM_TYPES)[number];

/** The area a person signs in to: the operator portal or the basic-user area. */
export const LOGIN_SCOPES = ['app', 'user'] as const;

/** What a sign-in carries, inside its sealed envelope (brief §3). */
export const loginPayloadSchema = z.object({
  email: emailSchema,
  password: currentPasswordSchema,
  scope: z.enum(LOGIN_SCOPES).default('app'),
  systemType: z.enum(SYSTEM_TYPES).default('app'),
});
export type LoginPayload = z.input<typeof loginPayloadSchema>;

/** Account creation: a person and the portal they own. */
export const createAccountSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  firstName: lineText().max(80).default(''),
  lastName: lineText().max(80).default(''),
  portalName: lineText().min(1).max(80).optional(),
});
export type CreateAccountInput = z.input<typeof createAccountSchema>;

/** A signed token and when it stops working. */
export const tokenResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.iso.datetime(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const userSummarySchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  platformRole: z.enum(PLATFORM_ROLES).nullable(),
  emailVerified: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const membershipSchema = z.object({
  portal: z.object({ _id: z.string(), name: z.string() }),
  role: z.enum(PORTAL_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
  owner: z.boolean(),
});
export type Membership = z.infer<typeof membershipSchema>;

/** GET auth: who is signed in, where they act and what they may do there. */
export const sessionSchema = z.object({
  user: userSummarySchema,
  portalOwned: z.string().nullable(),
  memberships: z.array(membershipSchema),
  portal: portalSchema.nullable(),
  roles: z.array(z.enum([...PORTAL_ROLES, ...PLATFORM_ROLES])),
  permissions: z.array(z.string()),
  features: z.array(z.string()),
  /** Platform staff acting as this person (a support session): the app shows a banner. */
  impersonatedBy: z.object({ _id: z.string(), email: z.string() }).nullable().default(null),
});
export type Session = z.infer<typeof sessionSchema>;

/** POST user/{id}/session: platform staff open a support session as a person. */
export const supportSessionInputSchema = z.object({
  /** Where the staff member came from, to go back to (an app path such as /admin/users). */
  originUrl: lineText()
    .max(500)
    .regex(/^\/(?!\/)[^\s]*$/, 'must be a path in this app, starting with one /'),
});
export const supportSessionSchema = tokenResponseSchema.extend({ originUrl: z.string() });

export const profileUpdateSchema = z.object({
  firstName: lineText().max(80),
  lastName: lineText().max(80),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const passwordChangeSchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

/** POST auth/activation/{email} and auth/resetPassword/{email}. */
export const emailParamsSchema = z.object({ email: emailSchema });

/** The same answer whether or not an account exists, so nobody can probe for accounts. */
export const acceptedSchema = z.object({ message: z.string() });
export type Accepted = z.infer<typeof acceptedSchema>;

/** A token from a link in a mail: random, base64url. */
export const accountTokenSchema = z
  .string()
  .trim()
  .min(20, 'is not a valid link token')
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a valid link token');

/** POST auth/verify?token= */
export const verifyQuerySchema = z.object({ token: accountTokenSchema });

/** POST auth/reset: a new password with the token from the reset mail. */
export const passwordResetSchema = z.object({ token: accountTokenSchema, password: newPasswordSchema });
export type PasswordReset = z.infer<typeof passwordResetSchema>;

/** POST auth/legacyReset: the same, for links of the form /reset/{resetToken}. */
export const legacyResetSchema = z.object({ resetToken: accountTokenSchema, password: newPasswordSchema });

/** POST auth/passwordVerify: the current password, before a sensitive change. */
export const passwordVerifySchema = z.object({
  password: currentPasswordSchema,
});

/** POST auth/email (sealed): move the account to a new address, confirmed by a link sent there. */
export const emailChangeSchema = z.object({
  newEmail: emailSchema,
  password: currentPasswordSchema,
});
export type EmailChange = z.infer<typeof emailChangeSchema>;
