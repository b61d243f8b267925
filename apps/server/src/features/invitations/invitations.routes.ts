import {
  idSchema,
  invitationSchema,
  inviteAnsweredSchema,
  inviteResponseSchema,
  inviteTokenSchema,
  userInvitedSchema,
  userInviteSchema,
} from '@latchkey/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrlOf } from '../../config';
import { access, changeContext, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import type { InviteSender } from '../invites/invites.service';
import { issueSessionToken } from '../../base/identity/sessions';
import {
  answerInvitation,
  answerPortalInvitation,
  fetchInvitation,
  invitePerson,
  reinvitePerson,
} from './invitations.service';

const tags = ['invitations'];
const portalAnswerSchema = z.object({ status: z.enum(['accepted', 'declined']), portalId: z.string() });

/** Inviting people by email, and answering invitations (brief §7 Users and Portal). */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'invitations');
  const publicUrl = publicUrlOf(app.config);
  const sender = (request: FastifyRequest): InviteSender => ({
    user: signedIn(request).user,
    throttle: app.mailThrottle,
  });

  app.post(
    '/user/invite',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: 'Invite a person by email with a role, groups and locks',
        body: userInviteSchema,
        response: { 201: userInvitedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await invitePerson(app.db, changeContext(request), publicUrl, sender(request), request.body)),
  );

  app.post(
    '/user/re-invite/:id',
    {
      config: { access: access.portalAdmin, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'Send an invitation again, with a new link and a new period',
        params: z.object({ id: idSchema }),
        response: { 200: userInvitedSchema, ...errorResponses },
      },
    },
    async (request) =>
      reinvitePerson(app.db, changeContext(request), publicUrl, sender(request), request.params.id),
  );

  app.post(
    '/user/inviteFetchUser',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'The invitation behind a link',
        body: inviteTokenSchema,
        response: { 200: invitationSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.authLimits.countPasswordCheck(`link:${request.ip}`);
      return fetchInvitation(app.db, request.body.token);
    },
  );

  app.post(
    '/user/inviteResponse',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary: 'Accept an invitation (choosing a password if needed) or decline it',
        body: inviteResponseSchema,
        response: { 200: inviteAnsweredSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.authLimits.countPasswordCheck(`link:${request.ip}`);
      const { answered, signInUser } = await answerInvitation(app.db, request.body, request.ip);
      const session = signInUser
        ? await issueSessionToken(app.secrets.jwtKey, signInUser, app.config.SESSION_TTL_HOURS)
        : null;
      return { ...answered, session };
    },
  );

  for (const answer of ['accept', 'decline'] as const) {
    app.post(
      `/portal/user/portal/:id/${answer}`,
      {
        config: { access: access.account, ids: { id: 'portalId' } },
        schema: {
          tags,
          summary:
            answer === 'accept' ? 'Accept an invitation to a portal' : 'Decline an invitation to a portal',
          params: z.object({ id: idSchema }),
          response: { 200: portalAnswerSchema, ...errorResponses },
        },
      },
      async (request) =>
        answerPortalInvitation(
          app.db,
          signedIn(request).user,
          request.params.id,
          answer === 'accept',
          request.ip,
        ),
    );
  }
};
