import {
  accessCodeInputSchema,
  idSchema,
  memberDetailSchema,
  memberStatusParamsSchema,
  memberUpdateSchema,
  portalMemberSchema,
  portalUsersPageSchema,
  portalUsersQuerySchema,
  scopedUserSchema,
  scopedUsersQuerySchema,
  userInvitedSchema,
  userInviteSchema,
  personName,
} from '@latchkey/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrlOf } from '../../config';
import {
  access,
  actingPortal,
  changeContext,
  mayReadWithKey,
  requireSelfOrAdmin,
  routesOfFeature,
  signedIn,
} from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import type { InviteSender } from '../invites/invites.service';
import { setAccessCode } from '../credentials/access-code.service';
import { searchMembers } from '../../base/tenancy/memberships.repository';
import { exportMembersCsv } from './members-export';
import { invitePerson } from '../invitations/invitations.service';
import { listPortalUsers } from './member-list.service';
import { getMemberDetail, removeMember, setMemberStatus, updateMember } from './members.service';

const idParams = z.object({ id: idSchema });
const config = { access: access.portalAdmin };
const tags = ['people'];

/** The portal's people: add, read, change, suspend, remove, access code (brief §7 Users). */
export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'members');
  const publicUrl = publicUrlOf(app.config);
  const sender = (request: FastifyRequest): InviteSender => ({
    user: signedIn(request).user,
    throttle: app.mailThrottle,
  });

  app.get(
    '/portal/users',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags: ['portal'],
        summary: "A page of the portal's members",
        querystring: portalUsersQuerySchema,
        response: { 200: portalUsersPageSchema, ...errorResponses },
      },
    },
    async (request) => listPortalUsers(app.db, actingPortal(request).portal.id, request.query),
  );

  app.get(
    '/portal/scopedUsers',
    {
      config,
      schema: {
        tags,
        summary: 'People of the portal matching a search, for pickers',
        querystring: scopedUsersQuerySchema,
        response: { 200: z.array(scopedUserSchema), ...errorResponses },
      },
    },
    async (request) => {
      const rows = await searchMembers(
        app.db,
        actingPortal(request).portal.id,
        request.query.search,
        request.query.limit,
      );
      return rows.map((row) => ({
        _id: row.id,
        email: row.email,
        name: personName(row.first_name, row.last_name, row.email),
        role: row.role,
        status: row.status,
      }));
    },
  );

  app.get(
    '/portal/user/list',
    {
      config,
      schema: {
        tags,
        summary: 'Every person of the portal with a summary of their access, as CSV',
        produces: ['text/csv'],
        response: { 200: z.string().describe('CSV with a header row'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const csv = await exportMembersCsv(app.db, actingPortal(request).portal.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="people.csv"')
        .send(csv);
    },
  );

  app.get(
    '/portal/user',
    {
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: 'You in this portal: your membership (role, status, its name for you) and access code',
        response: { 200: memberDetailSchema, ...errorResponses },
      },
    },
    async (request) =>
      getMemberDetail(app.db, actingPortal(request).portal.id, signedIn(request).user.id, { withCode: true }),
  );

  app.post(
    '/portal/user',
    {
      config,
      schema: {
        tags,
        summary:
          'Add a person: an invitation by email (they choose their own password, or accept with their account)',
        body: userInviteSchema,
        response: { 201: userInvitedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await invitePerson(app.db, changeContext(request), publicUrl, sender(request), request.body)),
  );

  app.get(
    '/portal/user/:id',
    {
      // A basic user reads their own (their code, in the basic-user area); admins anyone's.
      config: { access: access.portalMember, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'A person in this portal, with their access code (a basic user: only themselves)',
        params: idParams,
        response: { 200: memberDetailSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireSelfOrAdmin(request, request.params.id);
      return getMemberDetail(app.db, actingPortal(request).portal.id, request.params.id, {
        withCode: mayReadWithKey(request, 'credentials:read'),
      });
    },
  );

  app.post(
    '/portal/user/:id',
    {
      config: { ...config, example: { body: { firstName: 'Renamed' } }, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: "Change a person's role, or this portal's name for them (never their account's name)",
        params: idParams,
        body: memberUpdateSchema,
        response: { 200: portalMemberSchema, ...errorResponses },
      },
    },
    async (request) => updateMember(app.db, changeContext(request), request.params.id, request.body),
  );

  app.post(
    '/portal/user/:id/:status',
    {
      config: { ...config, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'Suspend or reactivate a person (status: active or suspended)',
        params: memberStatusParamsSchema,
        response: { 200: portalMemberSchema, ...errorResponses },
      },
    },
    async (request) =>
      setMemberStatus(app.db, changeContext(request), request.params.id, request.params.status),
  );

  app.delete(
    '/portal/user/:id',
    {
      config: { ...config, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'Take a person out of the portal',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeMember(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/user/accessCode',
    {
      config: { ...config, example: { body: { userId: '{userId}', code: '48151623' } } },
      schema: {
        tags,
        summary: "Set or clear (null) a person's access code",
        body: accessCodeInputSchema,
        response: { 200: z.object({ accessCode: z.string().nullable() }), ...errorResponses },
      },
    },
    async (request) => setAccessCode(app.db, changeContext(request), request.body.userId, request.body.code),
  );
};
