import {
  createAccountSchema,
  encodeBase64,
  loginPayloadSchema,
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
import { access, signedIn } from '../../http/access';
import { errorResponses } from '../../http/responses';
import { changePassword, createAccount, updateProfile } from './account.service';
import { checkLogin } from './login.service';
import { describeSession, issueSessionToken } from './session.service';
import { toUserSummary } from './user.presenter';
import { bumpTokenVersion } from './users.repository';

/** Account creation, sign-in and the signed-in person's own account (brief §7 Auth). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const ttlHours = app.config.SESSION_TTL_HOURS;
  const tags = ['auth'];

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
        summary: 'Sign in; answers a token whose exp claim is in seconds',
        body: loginPayloadSchema,
        response: { 200: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await checkLogin(app.db, app.authLimits, request.body, request.ip);
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
      await bumpTokenVersion(app.db, signedIn(request).user.id);
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
      const user = await changePassword(app.db, signedIn(request).user, request.body);
      return issueSessionToken(app.secrets.jwtKey, user, ttlHours);
    },
  );
};
