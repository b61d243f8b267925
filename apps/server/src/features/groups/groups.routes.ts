import {
  groupDeviceSchema,
  groupInputSchema,
  groupSchema,
  groupsPageSchema,
  groupsQuerySchema,
  groupUserSchema,
  idSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  changeGroupLink,
  createGroup,
  getGroup,
  getGroupDevices,
  getGroupsPage,
  getGroupUsers,
  getPossibleGroupDevices,
  getPossibleGroupUsers,
  removeGroup,
  saveGroup,
} from './groups.service';

const id = idSchema;
const config = { access: access.portalAdmin };
const tags = ['groups'];
const noContent = { 204: z.null(), ...errorResponses };

/** Groups: people and locks together (brief §7 Groups). */
export const groupRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'groups');
  const portalOf = (request: Parameters<typeof actingPortal>[0]) => actingPortal(request).portal.id;

  app.get(
    '/portal/groups',
    {
      config,
      schema: {
        tags,
        summary: 'A page of groups',
        querystring: groupsQuerySchema,
        response: { 200: groupsPageSchema, ...errorResponses },
      },
    },
    async (request) => getGroupsPage(app.db, portalOf(request), request.query),
  );

  app.post(
    '/portal/group',
    {
      config,
      schema: {
        tags,
        summary: 'Create a group',
        body: groupInputSchema,
        response: { 201: groupSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createGroup(app.db, changeContext(request), request.body)),
  );

  app.get(
    '/portal/group/:id',
    {
      config: { ...config, ids: { id: 'groupId' } },
      schema: {
        tags,
        summary: 'A group',
        params: z.object({ id }),
        response: { 200: groupSchema, ...errorResponses },
      },
    },
    async (request) => getGroup(app.db, portalOf(request), request.params.id),
  );

  app.post(
    '/portal/group/:id',
    {
      config: { ...config, example: { body: { name: 'Renamed' } }, ids: { id: 'groupId' } },
      schema: {
        tags,
        summary: "Change a group's name and description",
        params: z.object({ id }),
        body: groupInputSchema,
        response: { 200: groupSchema, ...errorResponses },
      },
    },
    async (request) => saveGroup(app.db, changeContext(request), request.params.id, request.body),
  );

  app.delete(
    '/portal/group/:id',
    {
      config: { ...config, ids: { id: 'groupId' } },
      schema: {
        tags,
        summary: 'Delete a group (its people lose the access it gave)',
        params: z.object({ id }),
        response: noContent,
      },
    },
    async (request, reply) => {
      await removeGroup(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  const lists = [
    ['users', 'The people in a group', getGroupUsers, groupUserSchema],
    ['possibleUsers', 'Members not in the group', getPossibleGroupUsers, groupUserSchema],
    ['devices', 'The locks a group opens', getGroupDevices, groupDeviceSchema],
    ['possibleDevices', 'Locks the group does not open yet', getPossibleGroupDevices, groupDeviceSchema],
  ] as const;
  for (const [path, summary, read, item] of lists) {
    app.get(
      `/group/:id/${path}`,
      {
        config: { ...config, ids: { id: 'groupId' } },
        schema: {
          tags,
          summary,
          params: z.object({ id }),
          response: { 200: z.array(item), ...errorResponses },
        },
      },
      async (request) => read(app.db, portalOf(request), request.params.id),
    );
  }

  // PUT adds and DELETE removes, for people (group/{id}/user/{userId}) and locks (group/{id}/device/{deviceId}).
  const linkKinds = [
    {
      path: 'user',
      param: 'userId',
      added: 'Add a person to a group',
      removed: 'Remove a person from a group',
    },
    {
      path: 'device',
      param: 'deviceId',
      added: 'Let a group open a lock',
      removed: 'Stop a group opening a lock',
    },
  ] as const;
  for (const kind of linkKinds) {
    for (const [method, linked] of [
      ['PUT', true],
      ['DELETE', false],
    ] as const) {
      app.route({
        method,
        url: `/group/:id/${kind.path}/:${kind.param}`,
        config: { ...config, ids: { id: 'groupId' } },
        schema: {
          tags,
          summary: linked ? kind.added : kind.removed,
          params: z.object({ id, [kind.param]: id }),
          response: noContent,
        },
        handler: async (request, reply) => {
          const params = request.params as Record<string, string>;
          const link = kind.param === 'userId' ? { userId: params.userId! } : { deviceId: params.deviceId! };
          await changeGroupLink(app.db, changeContext(request), params.id!, link, linked);
          return reply.status(204).send(null);
        },
      });
    }
  }
};
