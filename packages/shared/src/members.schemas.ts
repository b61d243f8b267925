import { z } from 'zod';
import { emailSchema, newPasswordSchema } from './auth.schemas';
import { deviceAccessViaSchema } from './devices.schemas';
import { scheduleSchema } from './access/access.schemas';
import { portalMemberSchema } from './portal.schemas';
import { PORTAL_ROLES } from './roles';

/** POST portal/user: an admin adds a person to the portal. */
export const memberCreateSchema = z.object({
  email: emailSchema,
  firstName: z.string().trim().max(80).default(''),
  lastName: z.string().trim().max(80).default(''),
  role: z.enum(PORTAL_ROLES).default('user'),
  /** For a person who has no account yet; without one, a password is generated and shown once. */
  password: newPasswordSchema.optional(),
});
export type MemberCreate = z.input<typeof memberCreateSchema>;

export const memberCreatedSchema = z.object({
  member: portalMemberSchema,
  /** Set when a new account was made with a generated password: shown this once. */
  initialPassword: z.string().nullable(),
});

/** POST portal/user/{id}: an admin changes a person's name or role here. */
export const memberUpdateSchema = z
  .object({
    firstName: z.string().trim().max(80),
    lastName: z.string().trim().max(80),
    role: z.enum(PORTAL_ROLES),
  })
  .partial()
  .refine((data) => Object.keys(data).length > 0, 'firstName, lastName or role is required');
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

/** Statuses an admin can set with POST portal/user/{id}/{status}. */
export const SETTABLE_MEMBER_STATUSES = ['active', 'suspended'] as const;
export const memberStatusParamsSchema = z.object({
  id: z.string().min(1).max(64),
  status: z.enum(SETTABLE_MEMBER_STATUSES),
});

/** GET portal/user/{id}: a person in this portal with their access code. */
export const memberDetailSchema = z.object({
  member: portalMemberSchema,
  accessCode: z.string().nullable(),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

/** POST user/accessCode: set (or clear, with null) a person's access code (PIN) in this portal. */
export const accessCodeInputSchema = z.object({
  userId: z.string().min(1).max(64),
  code: z.string().trim().max(32).nullable(),
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
