import { idSchema, supportSessionInputSchema, supportSessionSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, signedIn, routesOfFeature } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { errorResponses } from '../../base/http/responses';
import { recordChange } from '../../base/audit/audit.repository';
import { listMembershipsOfUser } from '../../base/tenancy/memberships.repository';
import { issueSessionToken } from '../../base/identity/sessions';
import { findUserById } from '../../base/identity/users.repository';
import { recordSupportSession } from './support-sessions.repository';

/** How long platform staff may act as a person before signing in as them again. */
const SUPPORT_SESSION_HOURS = 0.5;

/** Support sessions: platform staff act as a person to help them (brief §7 Users: user/{id}/session). */
export const supportSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'auth');
  app.post(
    '/user/:id/session',
    {
      config: { access: access.platform, ids: { id: 'userId' } },
      schema: {
        tags: ['auth'],
        summary: 'Platform staff: act as a person for 30 minutes (audited; the app shows a banner)',
        params: z.object({ id: idSchema }),
        body: supportSessionInputSchema,
        response: { 200: supportSessionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const staff = signedIn(request).user;
      const person = await findUserById(app.db, request.params.id);
      if (!person) throw AppError.notFound('Person');
      if (person.id === staff.id) throw AppError.conflict('You are already yourself');
      if (person.platform_role === 'superAdmin')
        throw AppError.forbidden('Platform staff cannot act as each other');
      if (person.status !== 'active') throw AppError.conflict('This account is suspended');
      // Written to the change log of every portal the person belongs to, where their admins see it.
      const memberships = await listMembershipsOfUser(app.db, person.id);
      for (const membership of memberships) {
        await recordChange(
          app.db,
          { portalId: membership.portal.id, actorUserId: staff.id, ip: request.ip },
          {
            action: 'support_session.start',
            entityType: 'member',
            entityId: person.id,
            after: { staff: staff.email },
          },
        );
      }
      request.log.warn({ staffId: staff.id, personId: person.id }, 'support session started');
      const session = await issueSessionToken(app.secrets.jwtKey, person, SUPPORT_SESSION_HOURS, staff.id);
      // And recorded as running there until it ends, for the "Support is acting here" banner.
      await recordSupportSession(app.db, {
        staffUserId: staff.id,
        personUserId: person.id,
        portalIds: memberships.map((membership) => membership.portal.id),
        expiresAt: session.expiresAt,
      });
      return { ...session, originUrl: request.body.originUrl };
    },
  );
};
