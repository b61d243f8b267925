/**
 * The collection registry (brief §3 "Generic collections", §7 "Generic collection client"; issue 21,
 * item 3). One entry per collection, each MAPPED ONTO THE FEATURE BEHIND IT: its handlers call the
 * same services as that feature's REST routes, so roles, validation, audit and access changes are
 * the same whichever door a client uses. There is no free-form store.
 *
 * HOW TO ADD A COLLECTION
 * 1. Write `<name>.collection.ts` in this folder exporting `defineCollection({...})`: its `name` (the
 *    brief's, e.g. 'userGroup'), `feature` (the folder behind it, which also decides the API-key
 *    area: `collectionApiArea`), `idKind` (what `{id}` names, base/http/access.ts IdKind),
 *    `record` (the zod schema GET answers, from the feature's shared schemas) and only the
 *    operations the feature really supports: `get`, `list` (with its filter: the feature's list
 *    query), `create` (POST {name}/new), `save` (POST {name}/{id}), `remove` (DELETE), `methods`
 *    (POST {name}/{method}/{id}, each with its own body and answer) and `ls` (changes since a
 *    cursor). An operation a collection does not register has no route at all.
 *    Each operation says who may call it: 'member' (any member of the portal; the handler limits a
 *    basic user to what is theirs, as the REST route does) or 'admin'.
 * 2. Add it to the list in `collections.ts` (one line).
 * 3. For `ls`, the records' tables must feed the change log: in your feature's migration, call
 *    `addCollectionChangeTriggers` (db/migrations/2026-11-27-0042-collections.ts) for each table, with
 *    the collection's name and how a row names the record and its portal.
 * 4. Give each body operation an `example` (a valid body; `{deviceId}`-style placeholders are filled
 *    by the registry-driven specs) and run test/specs/collections.spec.test.ts,
 *    test/collections-changes.test.ts and test/collections-isolation.test.ts: they walk every
 *    registered collection. A collection with `ls` but without all of create, save and remove needs
 *    its lifecycle (make, change, delete one record) in LIFECYCLES of collections-changes.test.ts:
 *    add one entry there (the test names the collections that lack one).
 */
import { API_KEY_AREA_OF_FEATURE, type ApiKeyArea } from '@latchkey/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ChangeContext, IdKind } from '../../base/http/access';
import type { Database } from '../../db/database';

/**
 * Who may call an operation: any member of the acting portal, or its admins; or platform staff, on
 * the collections of the deployment's own records, which belong to no portal (definePlatformCollection);
 * or any signed-in person, on the collections of their own account, in no portal (defineAccountCollection).
 */
export type CollectionRole = 'member' | 'admin' | 'staff' | 'account';

/** The caller of a collection operation: the acting portal, the person, their role there. */
export interface CollectionCaller {
  app: FastifyInstance;
  request: FastifyRequest;
  db: Database;
  portalId: string;
  userId: string;
  role: 'admin' | 'member';
  /** The audited change context of the request (base/http/access.ts changeContext). */
  change: () => ChangeContext;
}

/**
 * Platform staff calling a platform collection: no acting portal (the records are the deployment's),
 * and their changes go to the platform change log as the staff member, from their address.
 */
export interface StaffCaller {
  app: FastifyInstance;
  request: FastifyRequest;
  db: Database;
  staff: { userId: string; ip: string };
}

/**
 * A signed-in person calling an account collection: no acting portal (the records are their own
 * account's, e.g. their reseller account's customers), only who they are and their address.
 */
export interface AccountCaller {
  app: FastifyInstance;
  request: FastifyRequest;
  db: Database;
  user: { id: string };
  ip: string;
}

/** A page of records, as the feature's own list answers it. */
export interface CollectionPage<Item> {
  items: Item[];
  total: number;
  next?: string;
}

interface OperationBase {
  access: CollectionRole;
  /** The OpenAPI summary of the route. */
  summary: string;
}

/** A body operation: its body schema and a valid example for the registry-driven specs. */
interface BodyOperation<Body extends z.ZodType> extends OperationBase {
  body: Body;
  example: unknown;
}

/** POST {collection}/{method}/{id}: a remote call on one record. */
export interface CollectionMethod<
  Body extends z.ZodType = z.ZodType,
  Answer extends z.ZodType = z.ZodType,
> extends BodyOperation<Body> {
  answer: Answer;
  /** 200 unless it starts something the client follows (202). */
  status?: 200 | 202;
  handler: (caller: CollectionCaller, id: string, body: z.output<Body>) => Promise<z.input<Answer>>;
}

/** Declares a remote method with its types inferred (use inside `methods`). */
export function collectionMethod<Body extends z.ZodType, Answer extends z.ZodType>(
  method: CollectionMethod<Body, Answer>,
): CollectionMethod {
  return method as unknown as CollectionMethod;
}

export interface CollectionDefinition<
  Record extends z.ZodType = z.ZodType,
  Filter extends z.ZodType = z.ZodType,
  Create extends z.ZodType = z.ZodType,
  Created extends z.ZodType = z.ZodType,
  Save extends z.ZodType = z.ZodType,
> {
  /** The brief's collection name: the first path segment (e.g. `device` → /api3/device/…). */
  name: string;
  /**
   * Whose records, when they are in no portal: the deployment's, for platform staff alone
   * (definePlatformCollection), or the signed-in person's own account's (defineAccountCollection).
   * Then every operation is that audience's (`staff` or `account`), no API key calls it (a key acts
   * in one portal), and its handlers get a StaffCaller or an AccountCaller. Absent: a portal's.
   */
  outsidePortals?: OutsidePortals;
  /** The feature folder behind it (docs, and the mapping table in docs/decisions.md). */
  feature: string;
  /** What `{id}` names, so the registry-driven specs fill it with the right record. */
  idKind: IdKind;
  /** What GET {collection}/{id} answers. */
  record: Record;
  get?: OperationBase & { handler: (caller: CollectionCaller, id: string) => Promise<z.input<Record>> };
  /** POST {collection}: a page with the feature's list query as the body. */
  list?: OperationBase & {
    filter: Filter;
    handler: (caller: CollectionCaller, filter: z.output<Filter>) => Promise<CollectionPage<z.input<Record>>>;
  };
  /** POST {collection}/new (answers 201). */
  create?: BodyOperation<Create> & {
    answer: Created;
    handler: (caller: CollectionCaller, body: z.output<Create>) => Promise<z.input<Created>>;
  };
  /** POST {collection}/{id}. */
  save?: BodyOperation<Save> & {
    handler: (caller: CollectionCaller, id: string, body: z.output<Save>) => Promise<z.input<Record>>;
  };
  /** DELETE {collection}/{id} (answers 204). */
  remove?: OperationBase & { handler: (caller: CollectionCaller, id: string) => Promise<void> };
  /** POST {collection}/{method}/{id}; method names are static path segments. */
  methods?: { [method: string]: CollectionMethod };
  /**
   * POST {collection}/ls: changes since a cursor, from the change log (collection_changes). `load`
   * answers the records of these ids the caller may read (missing ones are left out); without it,
   * `get` is called for each id and records it refuses (403/404) are left out.
   */
  ls?: OperationBase & {
    load?: (caller: CollectionCaller, ids: string[]) => Promise<z.input<Record>[]>;
  };
}

/**
 * The API-key area a collection's routes need (route config `apiArea`): its feature's, as the
 * feature's REST routes (API_KEY_AREA_OF_FEATURE), so a key may do through a collection exactly what
 * it may through the REST twin: `<area>:read` to read, `<area>:write` to change. null (a feature with
 * no area, or records outside the portals): no API key may call it, whatever its scopes. Derived,
 * not declared: a collection cannot open to keys a feature its REST routes keep them out of.
 */
export function collectionApiArea(
  collection: Pick<AnyCollection, 'feature' | 'outsidePortals'>,
): ApiKeyArea | null {
  if (collection.outsidePortals) return null;
  return API_KEY_AREA_OF_FEATURE[collection.feature] ?? null;
}

/** Any collection, as the routes and tests walk them. */
export type AnyCollection = CollectionDefinition;

/** Declares a collection with its handlers' types inferred from its schemas. */
export function defineCollection<
  Record extends z.ZodType,
  Filter extends z.ZodType = z.ZodType,
  Create extends z.ZodType = z.ZodType,
  Created extends z.ZodType = z.ZodType,
  Save extends z.ZodType = z.ZodType,
>(definition: CollectionDefinition<Record, Filter, Create, Created, Save>): AnyCollection {
  return definition as unknown as AnyCollection;
}

/** Whose records a collection outside the portals holds (CollectionDefinition.outsidePortals). */
export type OutsidePortals = 'platform' | 'account';

/** The role every operation of a collection outside the portals has, by whose records it holds. */
export const OUTSIDE_PORTAL_ROLES = { platform: 'staff', account: 'account' } as const satisfies Record<
  OutsidePortals,
  CollectionRole
>;

/** A collection of records in no portal: reads (and for staff, saves) with its audience's caller. */
export interface OutsidePortalCollectionDefinition<
  Caller,
  Record extends z.ZodType = z.ZodType,
  Filter extends z.ZodType = z.ZodType,
  Save extends z.ZodType = z.ZodType,
> {
  name: string;
  feature: string;
  idKind: IdKind;
  record: Record;
  get?: { summary: string; handler: (caller: Caller, id: string) => Promise<z.input<Record>> };
  list?: {
    summary: string;
    filter: Filter;
    handler: (caller: Caller, filter: z.output<Filter>) => Promise<CollectionPage<z.input<Record>>>;
  };
  save?: {
    summary: string;
    body: Save;
    example: unknown;
    handler: (caller: Caller, id: string, body: z.output<Save>) => Promise<z.input<Record>>;
  };
}

/**
 * Stores a collection outside the portals in the registry's one shape: every operation its
 * audience's role, no API-key area; the routes hand its handlers the audience's caller (callerOf).
 */
function outsidePortals(audience: OutsidePortals, definition: OutsidePortalCollectionDefinition<never>) {
  const { get, list, save, ...identity } = definition;
  const access = OUTSIDE_PORTAL_ROLES[audience];
  return {
    ...identity,
    outsidePortals: audience,
    ...(get && { get: { ...get, access } }),
    ...(list && { list: { ...list, access } }),
    ...(save && { save: { ...save, access } }),
  } as unknown as AnyCollection;
}

/**
 * Declares a collection of the deployment's own records (client error reports, stock), for
 * platform staff: get, list and save, with a StaffCaller.
 */
export function definePlatformCollection<
  Record extends z.ZodType,
  Filter extends z.ZodType = z.ZodType,
  Save extends z.ZodType = z.ZodType,
>(definition: OutsidePortalCollectionDefinition<StaffCaller, Record, Filter, Save>): AnyCollection {
  return outsidePortals('platform', definition as unknown as OutsidePortalCollectionDefinition<never>);
}

/**
 * Declares a collection of the signed-in person's own account (a reseller's customers): get and
 * list, with an AccountCaller.
 */
export function defineAccountCollection<Record extends z.ZodType, Filter extends z.ZodType = z.ZodType>(
  definition: Omit<OutsidePortalCollectionDefinition<AccountCaller, Record, Filter>, 'save'>,
): AnyCollection {
  return outsidePortals('account', definition as unknown as OutsidePortalCollectionDefinition<never>);
}

/** The operations a collection registers, by their route names (for docs and tests). */
export function collectionOperations(collection: AnyCollection): string[] {
  return [
    ...(['get', 'list', 'create', 'save', 'remove', 'ls'] as const).filter((op) => collection[op]),
    ...Object.keys(collection.methods ?? {}).map((m) => `method:${m}`),
  ];
}
