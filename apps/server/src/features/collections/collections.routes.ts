import {
  collectionChangesRequestSchema,
  collectionChangesSchema,
  collectionPageSchema,
  idSchema,
} from '@latchkey/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  access,
  actingPortal,
  changeContext,
  routesOfFeature,
  signedIn,
  type RouteAccess,
} from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { errorResponses } from '../../base/http/responses';
import { readChanges } from './changes.repository';
import { COLLECTIONS } from './collections';
import {
  collectionApiArea,
  OUTSIDE_PORTAL_ROLES,
  type AccountCaller,
  type AnyCollection,
  type CollectionCaller,
  type CollectionRole,
  type StaffCaller,
} from './registry';

const idParams = z.object({ id: idSchema });
/** Path segments a collection's routes use themselves, so no method may be named so. */
const RESERVED = new Set(['ls', 'new']);

/**
 * A route's `config.example` when its example names records (`{deviceId}`…): the specs then also
 * send it with another portal's ids. An example naming none is given by the collections' spec.
 */
export function exampleConfig(body: unknown): { example?: { body: unknown } } {
  return /"\{\w+\}"/.test(JSON.stringify(body) ?? '') ? { example: { body } } : {};
}

function routeAccess(role: CollectionRole): RouteAccess {
  if (role === 'staff') return access.platform;
  if (role === 'account') return access.account;
  return role === 'admin' ? access.portalAdmin : access.portalMember;
}

/**
 * The caller of a collection operation: a portal's (the acting portal, the person, their role), or
 * for a platform collection staff's, which names no portal (its handlers are typed to StaffCaller,
 * so none of them can read a portal from it).
 */
function callerOf(app: FastifyInstance, request: FastifyRequest): CollectionCaller {
  if (request.routeOptions.config.access === access.platform) {
    const staff: StaffCaller = {
      app,
      request,
      db: app.db,
      staff: { userId: signedIn(request).user.id, ip: request.ip },
    };
    return staff as unknown as CollectionCaller;
  }
  if (request.routeOptions.config.access === access.account) {
    const user = signedIn(request).user;
    const person: AccountCaller = { app, request, db: app.db, user: { id: user.id }, ip: request.ip };
    return person as unknown as CollectionCaller;
  }
  const acting = actingPortal(request);
  return {
    app,
    request,
    db: app.db,
    portalId: acting.portal.id,
    userId: signedIn(request).user.id,
    role: acting.role === 'admin' ? 'admin' : 'member',
    change: () => changeContext(request),
  };
}

/** Whether an error means "not for you" (the record is missing or refused to this caller). */
function isRefusal(error: unknown): boolean {
  return error instanceof AppError && (error.status === 403 || error.status === 404);
}

/**
 * The records of `ids` the caller may read. Those they may not are left out, not called deleted:
 * a basic user learns nothing of records that are not theirs, not even their ids.
 */
async function loadForCaller(collection: AnyCollection, caller: CollectionCaller, ids: string[]) {
  if (ids.length === 0) return [];
  if (collection.ls?.load) return collection.ls.load(caller, ids);
  const records: unknown[] = [];
  for (const id of ids) {
    try {
      records.push(await collection.get!.handler(caller, id));
    } catch (error) {
      if (!isRefusal(error)) throw error;
    }
  }
  return records;
}

/**
 * The brief §7 generic collection protocol: each registered collection's operations as explicit
 * routes (so the route registry, the specs, the fuzz test and the OpenAPI document see each one
 * with its schemas). Static segments (`ls`, `new`, each method's name) come before `:id`.
 */
export const collectionRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'collections');
  for (const collection of COLLECTIONS) registerCollection(app, collection);
};

function registerCollection(app: Parameters<FastifyPluginAsyncZod>[0], collection: AnyCollection): void {
  const { name, record, idKind } = collection;
  // A collection's operations are all of its audience: staff's for a platform collection, the
  // person's own for an account collection, a portal's otherwise. So a portal's caller is never
  // handed to a staff or account handler, nor theirs (who act in no portal) to a portal's.
  const outside = collection.outsidePortals;
  const audience: CollectionRole[] = outside ? [OUTSIDE_PORTAL_ROLES[outside]] : ['member', 'admin'];
  for (const operation of [
    collection.get,
    collection.list,
    collection.create,
    collection.save,
    collection.remove,
    collection.ls,
    ...Object.values(collection.methods ?? {}),
  ]) {
    if (operation && !audience.includes(operation.access))
      throw new Error(
        `Collection ${name}: its ${operation.access} operation is not of its audience (${audience.join(', ')})`,
      );
  }
  // Outside the portals there is no change log (it is per portal) and nothing made or deleted here.
  if (outside && (collection.ls || collection.create || collection.remove || collection.methods))
    throw new Error(`Collection ${name}: a collection outside the portals has get, list and save only`);
  const base = `/${name}`;
  const tags = [`collection: ${name}`];
  // The API-key area of every route of this collection (api-keys: `<area>:read` / `<area>:write`).
  const area = { apiArea: collectionApiArea(collection) };
  const ids = { id: idKind };

  if (collection.ls) {
    const ls = collection.ls;
    if (!ls.load && !collection.get) throw new Error(`Collection ${name}: ls needs get or ls.load`);
    app.post(
      `${base}/ls`,
      {
        config: { access: routeAccess(ls.access), ...area, readsOnly: true },
        schema: {
          tags,
          summary: `${ls.summary} (POST ${name}/ls: give the answer's next as since next time)`,
          body: collectionChangesRequestSchema,
          response: { 200: collectionChangesSchema(record), ...errorResponses },
        },
      },
      async (request) => {
        const caller = callerOf(app, request);
        const { changes, next, more } = await readChanges(
          app.db,
          caller.portalId,
          name,
          request.body.since,
          request.body.limit,
        );
        const live = changes.filter((c) => !c.deleted).map((c) => c.recordId);
        const changed = await loadForCaller(collection, caller, live);
        const deleted = changes.filter((c) => c.deleted).map((c) => c.recordId);
        return { changed, deleted, next, more };
      },
    );
  }

  if (collection.create) {
    const create = collection.create;
    app.post(
      `${base}/new`,
      {
        // No config.example: a new record's body names other records (a lock), and one of another
        // portal there is a 400 (an unknown lock), not the 403/404 the specs look for with ids in
        // the path. The collections' spec sends the example filled from the caller's portal.
        config: { access: routeAccess(create.access), ...area },
        schema: {
          tags,
          summary: create.summary,
          body: create.body,
          response: { 201: create.answer, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await create.handler(callerOf(app, request), request.body)),
    );
  }

  if (collection.list) {
    const list = collection.list;
    app.post(
      base,
      {
        config: { access: routeAccess(list.access), ...area, readsOnly: true },
        schema: {
          tags,
          summary: `${list.summary} (the list query as the body)`,
          body: list.filter,
          response: { 200: collectionPageSchema(record), ...errorResponses },
        },
      },
      async (request) => list.handler(callerOf(app, request), request.body),
    );
  }

  for (const [method, definition] of Object.entries(collection.methods ?? {})) {
    if (RESERVED.has(method) || !/^[A-Za-z][A-Za-z0-9]*$/.test(method))
      throw new Error(`Collection ${name}: ${method} cannot be a method's name`);
    app.post(
      `${base}/${method}/:id`,
      {
        config: {
          access: routeAccess(definition.access),
          ...area,
          ids,
          ...exampleConfig(definition.example),
        },
        schema: {
          tags,
          summary: definition.summary,
          params: idParams,
          body: definition.body,
          response: { [definition.status ?? 200]: definition.answer, ...errorResponses },
        },
      },
      async (request, reply) => {
        const answer = await definition.handler(callerOf(app, request), request.params.id, request.body);
        // The status is the method's own (200 or 202), so the reply's type cannot name it; the
        // answer is checked against `definition.answer` by the response schema all the same.
        return reply.status(definition.status ?? 200).send(answer as never);
      },
    );
  }

  if (collection.get) {
    const get = collection.get;
    app.get(
      `${base}/:id`,
      {
        config: { access: routeAccess(get.access), ...area, ids },
        schema: {
          tags,
          summary: get.summary,
          params: idParams,
          response: { 200: record, ...errorResponses },
        },
      },
      async (request) => get.handler(callerOf(app, request), request.params.id),
    );
  }

  if (collection.save) {
    const save = collection.save;
    app.post(
      `${base}/:id`,
      {
        config: { access: routeAccess(save.access), ...area, ids, ...exampleConfig(save.example) },
        schema: {
          tags,
          summary: save.summary,
          params: idParams,
          body: save.body,
          response: { 200: record, ...errorResponses },
        },
      },
      async (request) => save.handler(callerOf(app, request), request.params.id, request.body),
    );
  }

  if (collection.remove) {
    const remove = collection.remove;
    app.delete(
      `${base}/:id`,
      {
        config: { access: routeAccess(remove.access), ...area, ids },
        schema: {
          tags,
          summary: remove.summary,
          params: idParams,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        await remove.handler(callerOf(app, request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  }
}
