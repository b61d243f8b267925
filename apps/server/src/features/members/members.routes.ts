import {
  accessCodeInputSchema,
  memberCreatedSchema,
  memberCreateSchema,
  memberDetailSchema,
  memberStatusParamsSchema,
  memberUpdateSchema,
  portalMemberSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext } from '../../http/access';
import { errorResponses } from '../../http/responses';
import { setAccessCode } from '../credentials/access-code.service';
import { addMember, getMemberDetail, removeMember, setMemberStatus, updateMember } from './members.service';

const idParams = z.object({ id: z.string().min(1).max(64) });
const config = { access: access.portalAdmin };
const tags = ['people'];

/** The portal's people: add, read, change, suspend, remove, access code (brief §7 Users). */
export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/portal/user',
    {
      config,
      schema: {
        tags,
        summary: 'Add a person to the portal',
        body: memberCreateSchema,
        response: { 201: memberCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addMember(app.db, changeContext(request), request.body)),
  );

  app.get(
    '/portal/user/:id',
    {
      config,
      schema: {
        tags,
        summary: 'A person in this portal, with their access code',
        params: idParams,
        response: { 200: memberDetailSchema, ...errorResponses },
      },
    },
    async (request) => getMemberDetail(app.db, actingPortal(request).portal.id, request.params.id),
  );

  app.post(
    '/portal/user/:id',
    {
      config,
      schema: {
        tags,
        summary: "Change a person's name or role here",
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
      config,
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
      config,
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
      config,
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
