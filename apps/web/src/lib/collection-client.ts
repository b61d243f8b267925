import { RESPONSE_CACHE_MS } from '@latchkey/shared';
import { api, defaultCacheMs, type RequestOptions } from './api-client';
import { getValidToken } from './auth-token';
import { storage } from './storage';

/**
 * The generic collection client (brief §7 "Generic collection client", §9): `GET {collection}/{id}`,
 * `POST {collection}` as a list with a filter, `POST {collection}/{id}` or `/new` to save, `DELETE
 * {collection}/{id}`, `POST {collection}/{method}/{id}` remote calls and `POST {collection}/ls` for
 * the changes since a time, all through the one HTTP client (lib/api-client.ts: headers, token,
 * portal override, errors).
 *
 * Reads (get, list, ls and remote calls marked as reads) are cached for RESPONSE_CACHE_MS (1000 ms;
 * 0 on localhost), keyed by the serialized arguments plus a caller key (and the session and acting
 * portal, so two people or two portals never share an answer); a key containing one of the bypass
 * substrings is never cached; every write (save, delete, a remote call) clears the whole cache,
 * and `clearCollectionCache()` clears it outright.
 *
 * One home per collection (apps/web/src/api-homes.test.ts's rule): `collection(name)` is
 * called in exactly one module, the owning feature's `api/` file, which the screens import; the
 * test in collection-client.test.ts reads the sources and fails on a second one.
 */

/** What the collection client needs of the HTTP client (the app's `api`; a fake in tests). */
export interface CollectionTransport {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /** The HTTP client's own GET cache, cleared with ours so a write is never followed by a stale read. */
  clearCache(): void;
}

export interface CollectionClientOptions {
  /** Lifetime of a cached read in ms; 0 turns the cache off. */
  cacheMs: number;
  /** Cache keys containing any of these substrings are never cached (e.g. a collection's name). */
  cacheBypass: readonly string[];
  now: () => number;
  /** What else a key must hold so two sessions never share an answer (token and acting portal). */
  sessionKey: () => string;
}

export interface CallOptions {
  /** The caller's part of the cache key: two callers with different keys never share an answer. */
  cacheKey?: string;
}

/** The answer of `POST {collection}/ls`: what changed since a time, what was deleted, and the next `since`. */
export interface CollectionChanges<T> {
  changed: T[];
  deleted: string[];
  now: string;
}

interface CacheEntry {
  expires: number;
  promise: Promise<unknown>;
}

const encode = (part: string) => encodeURIComponent(part);

export class CollectionClient {
  private readonly cache = new Map<string, CacheEntry>();
  private options: CollectionClientOptions;

  constructor(
    private readonly transport: CollectionTransport,
    options: Partial<CollectionClientOptions> = {},
  ) {
    this.options = {
      cacheMs: typeof window === 'undefined' ? RESPONSE_CACHE_MS : defaultCacheMs(window.location.hostname),
      cacheBypass: [],
      now: () => Date.now(),
      sessionKey: () => JSON.stringify([getValidToken(Date.now()) ?? '', storage.getPortal() ?? '']),
      ...options,
    };
  }

  /** Changes options after creation (a test, or a screen that adds a bypass substring). */
  configure(options: Partial<CollectionClientOptions>): void {
    this.options = { ...this.options, ...options };
    this.cache.clear();
  }

  /** Forgets every cached answer (ours and the HTTP client's GETs). */
  clearCache(): void {
    this.cache.clear();
    this.transport.clearCache();
  }

  get<T>(name: string, id: string, options: CallOptions = {}): Promise<T> {
    return this.read<T>(['get', name, id], options, () =>
      this.transport.request<T>('GET', `${encode(name)}/${encode(id)}`),
    );
  }

  list<T>(name: string, filter: object = {}, options: CallOptions = {}): Promise<T> {
    return this.read<T>(['list', name, filter], options, () =>
      this.transport.request<T>('POST', encode(name), { body: filter }),
    );
  }

  ls<T>(name: string, since: string, options: CallOptions = {}): Promise<CollectionChanges<T>> {
    return this.read<CollectionChanges<T>>(['ls', name, since], options, () =>
      this.transport.request<CollectionChanges<T>>('POST', `${encode(name)}/ls`, { body: { since } }),
    );
  }

  /** Saves a record: `id` 'new' (or null) creates one. Clears the cache. */
  save<T>(name: string, id: string | null, record: object): Promise<T> {
    return this.write(() =>
      this.transport.request<T>('POST', `${encode(name)}/${encode(id ?? 'new')}`, { body: record }),
    );
  }

  /** Deletes a record. Clears the cache. */
  delete<T = void>(name: string, id: string): Promise<T> {
    return this.write(() => this.transport.request<T>('DELETE', `${encode(name)}/${encode(id)}`));
  }

  /** A remote method (`POST {collection}/{method}/{id}`). A call may change things, so it clears the cache. */
  call<T>(name: string, method: string, id: string, body: object = {}): Promise<T> {
    return this.write(() =>
      this.transport.request<T>('POST', `${encode(name)}/${encode(method)}/${encode(id)}`, { body }),
    );
  }

  private async write<T>(send: () => Promise<T>): Promise<T> {
    this.clearCache();
    try {
      return await send();
    } finally {
      // Answers read while the write was in flight may predate it.
      this.clearCache();
    }
  }

  private read<T>(args: unknown[], options: CallOptions, send: () => Promise<T>): Promise<T> {
    const key = JSON.stringify([...args, options.cacheKey ?? '', this.options.sessionKey()]);
    const { cacheMs, cacheBypass, now } = this.options;
    if (cacheMs <= 0 || cacheBypass.some((fragment) => fragment && key.includes(fragment))) return send();

    const at = now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > at) return hit.promise as Promise<T>;

    const promise = send();
    const entry: CacheEntry = { expires: at + cacheMs, promise };
    this.cache.set(key, entry);
    // A failed read is never served again from the cache.
    promise.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return promise;
  }
}

/** The app's collection client, over the app's HTTP client. */
export const collectionClient = new CollectionClient(api);

/** Clears the collection cache outright (brief §7). */
export function clearCollectionCache(): void {
  collectionClient.clearCache();
}

/** One collection's operations, bound to its name. Create it once, in the owning feature's `api/` file. */
export interface Collection<T> {
  readonly name: string;
  get(id: string, options?: CallOptions): Promise<T>;
  list<L = T[]>(filter?: object, options?: CallOptions): Promise<L>;
  ls(since: string, options?: CallOptions): Promise<CollectionChanges<T>>;
  save(id: string | null, record: object): Promise<T>;
  delete(id: string): Promise<void>;
  call<R>(method: string, id: string, body?: object): Promise<R>;
}

export function collection<T>(name: string, client: CollectionClient = collectionClient): Collection<T> {
  return {
    name,
    get: (id, options) => client.get<T>(name, id, options),
    list: <L = T[]>(filter?: object, options?: CallOptions) => client.list<L>(name, filter, options),
    ls: (since, options) => client.ls<T>(name, since, options),
    save: (id, record) => client.save<T>(name, id, record),
    delete: (id) => client.delete(name, id),
    call: <R>(method: string, id: string, body?: object) => client.call<R>(name, method, id, body),
  };
}
