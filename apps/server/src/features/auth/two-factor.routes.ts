import {
  tokenResponseSchema,
  twoFactorChangedSchema,
  twoFactorChangeSchema,
  twoFactorCodeSchema,
  twoFactorStateSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, signedIn, routesOfFeature } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { errorResponses } from '../../base/http/responses';
import { authenticatePreAuthToken, issueSessionToken, spendPreAuthToken } from '../../base/identity/sessions';
import {
  acceptSecondFactor,
  changeTwoFactor,
  getTwoFactorState,
  refreshTwoFactorSecret,
  SecretBox,
} from './two-factor.service';

/** Two-factor sign-in (TOTP) for the signed-in person, and the second step of signing in. */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'auth');
  const box = new SecretBox(app.secrets.jwtKey);
  const tags = ['auth'];

  app.get(
    '/auth/twoFactor',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: 'Two-factor sign-in: on or off; while off, the secret to scan (otpauth URI and QR code)',
        response: { 200: twoFactorStateSchema, ...errorResponses },
      },
    },
    async (request) => getTwoFactorState(app.db, box, signedIn(request).user),
  );

  app.post(
    '/auth/refreshTwoFactor',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: 'A new secret to scan (while two-factor sign-in is off)',
        response: { 200: twoFactorStateSchema, ...errorResponses },
      },
    },
    async (request) => refreshTwoFactorSecret(app.db, box, signedIn(request).user),
  );

  app.post(
    '/auth/twoFactor',
    {
      config: { access: access.account, sealed: true },
      schema: {
        tags,
        summary: 'Turn two-factor sign-in on (a code from the app) or off (the password and a code)',
        body: twoFactorChangeSchema,
        response: { 200: twoFactorChangedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      await app.authLimits.checkSecondFactorAllowed(user.id);
      try {
        return await changeTwoFactor(app.db, box, user, request.body);
      } catch (error) {
        if (error instanceof AppError && error.status === 400)
          await app.authLimits.countSecondFactorFailure(user.id);
        throw error;
      }
    },
  );

  app.post(
    '/auth/twoFactorCode',
    {
      // Public to the access layer: the pre-authentication token is checked here, not a session.
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Finish signing in with a code (Authorization: Bearer <preAuthToken>)',
        body: twoFactorCodeSchema,
        response: { 200: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!token) throw AppError.unauthorized('Sign in first');
      const preAuth = await authenticatePreAuthToken(app.db, app.secrets.jwtKey, token);
      const { user } = preAuth;
      await app.authLimits.checkSecondFactorAllowed(user.id);
      if (!(await acceptSecondFactor(app.db, box, user, request.body.code))) {
        await app.authLimits.countSecondFactorFailure(user.id);
        const message = 'is not valid (or was already used)';
        throw AppError.badRequest(`code ${message}`, [{ path: 'body.code', message }]);
      }
      // A wrong code leaves the token usable (within the limit above); a sign-in uses it up.
      await spendPreAuthToken(app.db, preAuth);
      return issueSessionToken(app.secrets.jwtKey, user, app.config.SESSION_TTL_HOURS);
    },
  );
};
