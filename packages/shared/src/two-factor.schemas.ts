import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants';
import { tokenResponseSchema } from './auth.schemas';
import { passwordText } from './safe-input';

/** A code from the authenticator app (6 digits) or a recovery code (xxxxx-xxxxx). */
export const twoFactorCodeValueSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\d{6}|[a-z2-7]{5}-[a-z2-7]{5})$/, 'must be the 6-digit code from your app or a recovery code');

/** GET auth/twoFactor: the state, and while it is off the secret to scan (otpauth URI and QR code). */
export const twoFactorStateSchema = z.object({
  enabled: z.boolean(),
  otpauthUri: z.string().nullable(),
  /** A data: URL of a PNG QR code of otpauthUri. */
  qrCode: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorState = z.infer<typeof twoFactorStateSchema>;

/** POST auth/twoFactor: turn on with a code from the app, or off with the password and a code. */
export const twoFactorChangeSchema = z.discriminatedUnion('enable', [
  z.object({ enable: z.literal(true), code: twoFactorCodeValueSchema }),
  z.object({
    enable: z.literal(false),
    password: passwordText().min(1, 'is required').max(PASSWORD_MAX_LENGTH),
    code: twoFactorCodeValueSchema,
  }),
]);
export type TwoFactorChange = z.infer<typeof twoFactorChangeSchema>;

export const twoFactorChangedSchema = z.object({
  enabled: z.boolean(),
  /** Ten single-use codes, shown once when two-factor sign-in is turned on. */
  recoveryCodes: z.array(z.string()),
});
export type TwoFactorChanged = z.infer<typeof twoFactorChangedSchema>;

/** POST auth/twoFactorCode (Authorization: Bearer <preAuthToken>). */
export const twoFactorCodeSchema = z.object({ code: twoFactorCodeValueSchema });

/** What sign-in answers when the account has two-factor sign-in on. */
export const twoFactorChallengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  /** Short-lived; good only for POST auth/twoFactorCode. */
  preAuthToken: z.string(),
  expiresAt: z.iso.datetime(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/** POST auth/secure/login: a session token, or the two-factor challenge. */
export const loginResponseSchema = z.union([tokenResponseSchema, twoFactorChallengeSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;
