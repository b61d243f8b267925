import {
  adminUsersPageSchema,
  adminUsersQuerySchema,
  featureFlagInputSchema,
  featureFlagStateSchema,
  idSchema,
  platformPortalDetailSchema,
  platformPortalsPageSchema,
  platformPortalsQuerySchema,
  platformWorkSchema,
  portalSupportSessionSchema,
  systemFeaturesSchema,
  workRetryInputSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { access, actingPortal, routesOfFeature, signedIn } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { featureFlagStates } from '../../base/feature-flags/feature-flags';
import { activeSupportSessions } from '../auth/support-sessions.repository';
import { workAtAGlance } from './platform.repository';
import {
  getPlatformPortal,
  listAdminUsers,
  listPlatformPortals,
  portalFlagStates,
  retryWork,
  switchDeploymentFlag,
  switchPortalFlag,
  type StaffContext,
} from './platform.service';

const tags = ['platform'];
const platform = { access: access.platform };
const portalParams = z.object({ portalId: idSchema });
const flagList = z.object({ flags: z.array(featureFlagStateSchema) });

const staffContext = (request: FastifyRequest): StaffContext => ({
  actorUserId: signedIn(request).user.id,
  ip: request.ip,
});

/** The platform console (issue 20, item 1): platform staff only, but for the features list and the banner. */
export const platformRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'platform');

  app.get(
    '/system/adminUsers',
    {
      config: platform,
      schema: {
        tags,
        summary: 'Platform staff: every person across portals, with their portals and roles',
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersPageSchema, ...errorResponses },
      },
    },
    async (request) => listAdminUsers(app.db, request.query),
  );

  app.get(
    '/system/portals',
    {
      config: platform,
      schema: {
        tags,
        summary: "Platform staff: every portal (search by its name or its owner's email)",
        querystring: platformPortalsQuerySchema,
        response: { 200: platformPortalsPageSchema, ...errorResponses },
      },
    },
    async (request) => listPlatformPortals(app.db, request.query),
  );

  app.get(
    '/system/portals/:portalId',
    {
      config: platform,
      schema: {
        tags,
        summary: "Platform staff: a portal's owner, standing, admins, locks, recent changes and problems",
        params: portalParams,
        response: { 200: platformPortalDetailSchema, ...errorResponses },
      },
    },
    async (request) => getPlatformPortal(app.db, request.params.portalId),
  );

  app.get(
    '/system/features',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: "The features switched on where the signed-in person acts (the web app's features state)",
        response: { 200: systemFeaturesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const portalId = signedIn(request).acting?.portal.id ?? null;
      const flags = await featureFlagStates(app.db, portalId);
      return { portalId, enabled: flags.filter((f) => f.enabled).map((f) => f.id), flags };
    },
  );

  app.get(
    '/system/featureFlags',
    {
      config: platform,
      schema: {
        tags,
        summary: "Platform staff: every feature flag's value for the whole deployment",
        response: { 200: flagList, ...errorResponses },
      },
    },
    async () => ({ flags: await featureFlagStates(app.db, null) }),
  );

  app.post(
    '/system/featureFlags',
    {
      config: { ...platform, example: { body: { flag: 'shop', enabled: true } } },
      schema: {
        tags,
        summary: 'Platform staff: switch a feature for the deployment (null: back to its default); audited',
        body: featureFlagInputSchema,
        response: { 200: flagList, ...errorResponses },
      },
    },
    async (request) => ({ flags: await switchDeploymentFlag(app.db, staffContext(request), request.body) }),
  );

  app.get(
    '/system/portals/:portalId/featureFlags',
    {
      config: platform,
      schema: {
        tags,
        summary: "Platform staff: a portal's feature flags (its overrides win over the deployment's values)",
        params: portalParams,
        response: { 200: flagList, ...errorResponses },
      },
    },
    async (request) => ({ flags: await portalFlagStates(app.db, request.params.portalId) }),
  );

  app.post(
    '/system/portals/:portalId/featureFlags',
    {
      config: { ...platform, example: { body: { flag: 'shop', enabled: true } } },
      schema: {
        tags,
        summary:
          "Platform staff: switch a feature for one portal (null: follow the deployment); audited in the portal's log",
        params: portalParams,
        body: featureFlagInputSchema,
        response: { 200: flagList, ...errorResponses },
      },
    },
    async (request) => ({
      flags: await switchPortalFlag(app.db, staffContext(request), request.params.portalId, request.body),
    }),
  );

  app.get(
    '/system/work',
    {
      config: platform,
      schema: {
        tags,
        summary:
          'Platform staff: background work at a glance (mail, lock connections, calendar feeds, payments, jobs)',
        response: { 200: platformWorkSchema, ...errorResponses },
      },
    },
    async () => workAtAGlance(app.db),
  );

  app.post(
    '/system/work/retry',
    {
      config: { ...platform, example: { body: { kind: 'mail', id: '{userId}' } } },
      schema: {
        tags,
        summary: 'Platform staff: send a failed mail again now, or read a failing calendar feed now; audited',
        body: workRetryInputSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await retryWork(app.db, app.ical.deps, staffContext(request), request.body);
      // A mail is due now: the mail sender's next poll takes it (MAIL_POLL_MS).
      if (request.body.kind === 'feed') app.ical.importer.wake();
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/portal/supportSession',
    {
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: 'The support session acting in this portal now, if any ("Support is acting here")',
        response: { 200: portalSupportSessionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const [session] = await activeSupportSessions(app.db, actingPortal(request).portal.id);
      return { session: session ?? null };
    },
  );
};
