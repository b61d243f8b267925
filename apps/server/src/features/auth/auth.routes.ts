import {
  acceptedSchema,
  createAccountSchema,
  emailChangeSchema,
  emailParamsSchema,
  legacyResetSchema,
  passwordResetSchema,
  passwordVerifySchema,
  verifyQuerySchema,
  encodeBase64,
  loginPayloadSchema,
  loginResponseSchema,
  passwordChangeSchema,
  profileUpdateSchema,
  SEAL_SCHEME_VERSION,
  sealKeyResponseSchema,
  sessionSchema,
  tokenResponseSchema,
  userSummarySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrlOf } from '../../config';
import { access, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  confirmPassword,
  requestActivation,
  requestEmailChange,
  requestPasswordReset,
  resetPassword,
  sendVerificationMail,
  verifyEmail,
} from './account-recovery.service';
import { changePassword, updateProfile } from './account.service';
import { createAccount } from './accounts';
import { checkLogin } from './login.service';
import { describeSession, issuePreAuthToken, issueSessionToken } from '../../base/identity/sessions';
import { toUserSummary } from '../../base/identity/user.presenter';
import { bumpTokenVersion } from './users.repository';
import { endSupportSessions } from './support-sessions.repository';

/** Account creation, sign-in and the signed-in person's own account (brief §7 Auth). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'auth');
  const ttlHours = app.config.SESSION_TTL_HOURS;
  const tags = ['auth'];
  const publicUrl = publicUrlOf(app.config);
  const accepted = (message: string) => ({ message });

  app.get(
    '/auth/sealKey',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: "The server's public key for sealed payloads",
        response: { 200: sealKeyResponseSchema, ...errorResponses },
      },
    },
    async () => ({ publicKey: encodeBase64(app.secrets.seal.publicKey), k: SEAL_SCHEME_VERSION }),
  );

  app.post(
    '/auth/create',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary: 'Create an account and the portal it owns; signs the person in',
        body: createAccountSchema,
        response: { 201: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await app.authLimits.countSignup(request.ip);
      const user = await createAccount(app.db, request.body);
      await sendVerificationMail(app.db, publicUrl, user);
      request.log.info({ userId: user.id }, 'account created');
      return reply.status(201).send(await issueSessionToken(app.secrets.jwtKey, user, ttlHours));
    },
  );

  app.post(
    '/auth/secure/login',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary:
          'Sign in; answers a token whose exp claim is in seconds, or, with two-factor sign-in on, a pre-authentication token for auth/twoFactorCode',
        body: loginPayloadSchema,
        response: { 200: loginResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await checkLogin(app.db, app.authLimits, request.body, request.ip);
      if (user.totp_enabled_at) return issuePreAuthToken(app.secrets.jwtKey, user);
      return issueSessionToken(app.secrets.jwtKey, user, ttlHours);
    },
  );

  app.get(
    '/auth',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: 'The signed-in person, their portals, roles and permissions where this request acts',
        response: { 200: sessionSchema, ...errorResponses },
      },
    },
    async (request) => describeSession(signedIn(request), app.config.FEATURES),
  );

  app.post(
    '/auth/logout',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: "Sign out: revokes every one of the person's tokens",
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = signedIn(request);
      // Ending a support session must not sign the person themselves out everywhere; it ends the
      // recorded session, so the portal's admins no longer see support acting there.
      if (!auth.impersonator) await bumpTokenVersion(app.db, auth.user.id);
      else await endSupportSessions(app.db, auth.impersonator.id, auth.user.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/profile',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: "Change the signed-in person's name",
        body: profileUpdateSchema,
        response: { 200: userSummarySchema, ...errorResponses },
      },
    },
    async (request) => toUserSummary(await updateProfile(app.db, signedIn(request).user, request.body)),
  );

  app.post(
    '/auth/password',
    {
      config: { access: access.account, sealed: true },
      schema: {
        tags,
        summary: 'Change the password; ends every other session and answers a new token',
        body: passwordChangeSchema,
        response: { 200: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.authLimits.countPasswordCheck(`user:${signedIn(request).user.id}`);
      const user = await changePassword(app.db, signedIn(request).user, request.body);
      return issueSessionToken(app.secrets.jwtKey, user, ttlHours);
    },
  );

  app.post(
    '/auth/activation/:email',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Send (again) the mail that confirms an email address; the same answer for any address',
        params: emailParamsSchema,
        response: { 202: acceptedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await app.authLimits.countAccountMail(request.ip, request.params.email);
      await requestActivation(app.db, publicUrl, request.params.email);
      return reply
        .status(202)
        .send(accepted('If this address has an account waiting for confirmation, a mail is on its way.'));
    },
  );

  app.post(
    '/auth/verify',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Confirm an email address with the token from the verification mail',
        querystring: verifyQuerySchema,
        response: { 200: userSummarySchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.authLimits.countPasswordCheck(`link:${request.ip}`);
      return toUserSummary(await verifyEmail(app.db, request.query.token));
    },
  );

  app.post(
    '/auth/resetPassword/:email',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Mail a password reset link; the same answer whether or not the account exists',
        params: emailParamsSchema,
        response: { 202: acceptedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await app.authLimits.countAccountMail(request.ip, request.params.email);
      await requestPasswordReset(app.db, publicUrl, request.params.email);
      return reply.status(202).send(accepted('If an account has this address, a reset link is on its way.'));
    },
  );

  app.post(
    '/auth/reset',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary: 'Set a new password with the token from the reset mail; ends every session, signs in',
        body: passwordResetSchema,
        response: { 200: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.authLimits.countPasswordCheck(`link:${request.ip}`);
      const user = await resetPassword(app.db, request.body.token, request.body.password);
      return issueSessionToken(app.secrets.jwtKey, user, ttlHours);
    },
  );

  app.post(
    '/auth/legacyReset',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary: 'The same as auth/reset, for links of the form /reset/{resetToken}',
        body: legacyResetSchema,
        response: { 200: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.authLimits.countPasswordCheck(`link:${request.ip}`);
      const user = await resetPassword(app.db, request.body.resetToken, request.body.password);
      return issueSessionToken(app.secrets.jwtKey, user, ttlHours);
    },
  );

  app.post(
    '/auth/passwordVerify',
    {
      config: { access: access.account, sealed: true },
      schema: {
        tags,
        summary: 'Confirm the current password before a sensitive change',
        body: passwordVerifySchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { user } = signedIn(request);
      await app.authLimits.countPasswordCheck(`user:${user.id}`);
      await confirmPassword(user, request.body.password);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/email',
    {
      config: { access: access.account, sealed: true },
      schema: {
        tags,
        summary: 'Change the email address: a link goes to the new address; it changes once followed',
        body: emailChangeSchema,
        response: { 202: acceptedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { user } = signedIn(request);
      await app.authLimits.countPasswordCheck(`user:${user.id}`);
      await app.authLimits.countAccountMail(request.ip, request.body.newEmail);
      await requestEmailChange(app.db, publicUrl, user, request.body);
      return reply
        .status(202)
        .send(accepted(`Follow the link we sent to ${request.body.newEmail} to switch to it.`));
    },
  );
};
