import {
  billingSummarySchema,
  billMonthParamsSchema,
  portalResellerSchema,
  resellerAccountSchema,
  resellerActingInputSchema,
  resellerCreateSchema,
  resellerCustomerInputSchema,
  resellerCustomerSchema,
  resellerLinkInputSchema,
  resellerMineSchema,
  resellerSchema,
  resellerSignupSchema,
  tokenResponseSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrlOf } from '../../config';
import { access, changeContext, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { sendVerificationMail } from '../auth/account-recovery.service';
import { createAccount } from '../auth/accounts';
import { issueSessionToken } from '../../base/identity/sessions';
import { issuerOf } from '../billing/billing.service';
import {
  createCustomerPortal,
  createReseller,
  getBillingSummary,
  getResellerAccount,
  linkReseller,
  setResellerActing,
  unlinkReseller,
} from './resellers.service';
import { getOwnReseller } from './own-reseller';

const tags = ['resellers'];
// The reseller's own routes need an account (a reseller acts for itself, not in a portal); each
// answers only the signed-in person's reseller account (404 for someone without one).
const account = { access: access.account };
// A portal's link to its reseller: admins of the portal call these, and only its owner may change it.
const portalAdmin = { access: access.portalAdmin };

/** Reseller sign-up, the reseller area and a portal's link to its reseller (issue 13 item 5). */
export const resellerRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'resellers');
  const issuer = issuerOf(app.config);
  const publicUrl = publicUrlOf(app.config);
  const mail = { publicUrl, throttle: app.mailThrottle };

  app.post(
    '/reseller/signup',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary: 'Create an account with a reseller account; signs the person in',
        body: resellerSignupSchema,
        response: { 201: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await app.authLimits.countSignup(request.ip);
      const { companyName, country, vatNumber, ...person } = request.body;
      const user = await createAccount(app.db, { ...person, portalName: companyName });
      await createReseller(app.db, user, { companyName, country, vatNumber });
      await sendVerificationMail(app.db, publicUrl, user);
      request.log.info({ userId: user.id }, 'reseller account created');
      return reply
        .status(201)
        .send(await issueSessionToken(app.secrets.jwtKey, user, app.config.SESSION_TTL_HOURS));
    },
  );

  // POST reseller/new, the brief's `{collection}/new`: POST reseller is the `reseller` collection's
  // list (features/collections), the customers of the account.
  app.post(
    '/reseller/new',
    {
      config: account,
      schema: {
        tags,
        summary: 'Open a reseller account for the signed-in person',
        body: resellerCreateSchema,
        response: { 201: resellerSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createReseller(app.db, signedIn(request).user, request.body)),
  );

  app.get(
    '/reseller',
    {
      config: account,
      schema: {
        tags,
        summary: "The signed-in person's reseller account and its customers",
        response: { 200: resellerAccountSchema, ...errorResponses },
      },
    },
    async (request) => getResellerAccount(app.db, signedIn(request).user.id),
  );

  app.get(
    '/reseller/mine',
    {
      config: account,
      schema: {
        tags,
        summary: 'Whether the signed-in person has a reseller account (null when not), for the menu',
        response: { 200: resellerMineSchema, ...errorResponses },
      },
    },
    async (request) => getOwnReseller(app.db, signedIn(request).user.id),
  );

  app.post(
    '/reseller/customer',
    {
      config: account,
      schema: {
        tags,
        summary: "A new customer portal, owned by the customer's admin (invited by mail)",
        body: resellerCustomerInputSchema,
        response: { 201: resellerCustomerSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createCustomerPortal(app.db, mail, signedIn(request).user, request.body, request.ip)),
  );

  app.get(
    '/reseller/billingSummary',
    {
      config: account,
      schema: {
        tags,
        summary: 'This month so far: each customer billed, the wholesale cost and the margin',
        response: { 200: billingSummarySchema, ...errorResponses },
      },
    },
    async (request) => getBillingSummary(app.db, issuer, signedIn(request).user.id, null),
  );

  app.get(
    '/reseller/billingSummary/:year/:month',
    {
      config: account,
      schema: {
        tags,
        summary: 'A month: each customer billed, the wholesale cost and the margin',
        params: billMonthParamsSchema,
        response: { 200: billingSummarySchema, ...errorResponses },
      },
    },
    async (request) => getBillingSummary(app.db, issuer, signedIn(request).user.id, request.params),
  );

  app.post(
    '/portal/reseller',
    {
      config: portalAdmin,
      schema: {
        tags,
        summary: "Link the portal to a reseller by the reseller's code (the portal's owner)",
        body: resellerLinkInputSchema,
        response: { 200: portalResellerSchema, ...errorResponses },
      },
    },
    async (request) => linkReseller(app.db, changeContext(request), request.body),
  );

  app.post(
    '/portal/reseller/acting',
    {
      config: portalAdmin,
      schema: {
        tags,
        summary: 'Allow or refuse the reseller acting in the portal (the portal’s owner)',
        body: resellerActingInputSchema,
        response: { 200: portalResellerSchema, ...errorResponses },
      },
    },
    async (request) => setResellerActing(app.db, changeContext(request), request.body.allowActing),
  );

  app.delete(
    '/portal/reseller',
    {
      config: portalAdmin,
      schema: {
        tags,
        summary: 'Unlink the portal from its reseller (the portal’s owner)',
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await unlinkReseller(app.db, changeContext(request));
      return reply.status(204).send(null);
    },
  );
};
