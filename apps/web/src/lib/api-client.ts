import {
  API_BASE_PATH,
  CLIENT_VERSION,
  CLIENT_VERSION_HEADER,
  hasBinaryAnswer,
  MSGPACK_MEDIA_TYPE,
  PORTAL_OVERRIDE_HEADER,
  RESPONSE_CACHE_MS,
  type BoxKeyPair,
  type SealedEnvelope,
} from '@latchkey/shared';
import { paths } from '@/config/paths';
import { getValidToken, isTokenValid } from './auth-token';
import { storage } from './storage';

/**
 * The one HTTP client of the web app (brief §7–8, DESIGN §6): base path, `version: web`,
 * Authorization and portal-override headers, bytes decoded as JSON, 401 → root, 404 quiet,
 * a short GET response cache cleared on writes, and sealed bodies.
 */

export interface ApiErrorDetail {
  path: string;
  message: string;
}

/** Every failed call rejects with this: the HTTP status and the server's error code and message. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ApiErrorDetail[] = [],
    /** Seconds to wait before trying again (429 Retry-After), when the server said so. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  /** Query-string parameters; null and undefined ones are left out. */
  query?: Record<string, QueryValue>;
  /** JSON body (POST, PUT, PATCH, DELETE), a Blob sent as it is (uploads), or a multipart FormData. */
  body?: unknown;
  /** Seal the body for the server's public key (brief §7). */
  sealed?: boolean;
  /** Extra part of the GET cache key, for callers that must not share cached answers. */
  cacheKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  /** Base path or absolute URL of the API. */
  baseUrl: string;
  /** Lifetime of cached GET answers in ms; 0 turns the cache off. */
  cacheMs: number;
  /** URLs containing any of these substrings are never cached. */
  cacheBypass: readonly string[];
  /** Called after a 401 answer to a call that carried a token (the token is already cleared). */
  onUnauthorized: () => void;
  /** Called when the server refused the stored portal override (it is already cleared). */
  onPortalOverrideDenied: () => void;
  fetch: typeof fetch;
  now: () => number;
  /** Seals a body; by default with GET auth/sealKey and a key pair made once per page load. */
  seal?: (body: unknown) => Promise<SealedEnvelope>;
}

interface CacheEntry {
  expires: number;
  promise: Promise<unknown>;
}

/**
 * The sealing codec (NaCl), fetched with the first sealed call (signing in, say) rather than with
 * every page: no screen needs it to show itself.
 */
const loadSealing = () => import('./sealing');

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The response cache lifetime for a host: none on the developer's own machine (brief §7, §9). */
export function defaultCacheMs(hostname: string): number {
  return LOCAL_HOSTS.has(hostname) ? 0 : RESPONSE_CACHE_MS;
}

function defaultBaseUrl(): string {
  const fromEnv = import.meta.env.VITE_API_BASE;
  return fromEnv && fromEnv.trim() ? fromEnv.trim() : API_BASE_PATH;
}

function joinUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const url = `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

const utf8 = new TextDecoder();

/**
 * The MessagePack decoder, loaded when the first call that may answer MessagePack is sent (beside
 * its answer, not after it: a round trip less before the screen shows) rather than with every page
 * (plain maps: the server writes no msgpackr records).
 */
let msgpack: Promise<(bytes: Uint8Array) => unknown> | null = null;
function loadMsgpack() {
  msgpack ??= import('msgpackr/unpack').then(({ Unpackr }) => {
    const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
    return (bytes: Uint8Array) => unpackr.unpack(bytes) as unknown;
  });
  return msgpack;
}

/** A MessagePack answer (brief §7: "decoded ... as an encoded octet stream for some types"). */
export async function decodeMsgpack(bytes: ArrayBuffer): Promise<unknown> {
  return (await loadMsgpack())(new Uint8Array(bytes));
}

function decodeBody(bytes: ArrayBuffer, contentType: string | null): unknown {
  if (bytes.byteLength === 0) return undefined;
  // Files (an invoice's PDF, a support request's image) come as their bytes.
  if (
    contentType?.includes('application/octet-stream') ||
    contentType?.includes('application/pdf') ||
    contentType?.startsWith('image/')
  )
    return bytes;
  const text = utf8.decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(status: number, body: unknown, headers: Headers): ApiError {
  const retryHeader = headers.get('retry-after');
  const retrySeconds = retryHeader !== null && /^\d+$/.test(retryHeader.trim()) ? Number(retryHeader) : null;
  const error =
    typeof body === 'object' && body !== null && 'error' in body
      ? (body as { error: { code?: unknown; message?: unknown; details?: unknown } }).error
      : undefined;
  const code = typeof error?.code === 'string' ? error.code : status >= 500 ? 'internal' : `http_${status}`;
  const message =
    typeof error?.message === 'string' && error.message
      ? error.message
      : `Request failed with status ${status}`;
  const details = Array.isArray(error?.details)
    ? error.details.filter(
        (d): d is ApiErrorDetail =>
          typeof d === 'object' && d !== null && typeof d.path === 'string' && typeof d.message === 'string',
      )
    : [];
  return new ApiError(status, code, message, details, retrySeconds);
}

export class ApiClient {
  private options: ApiClientOptions;
  private readonly cache = new Map<string, CacheEntry>();
  private sealKey: Promise<Uint8Array> | null = null;
  private clientKeys: BoxKeyPair | null = null;

  constructor(options: Partial<ApiClientOptions> = {}) {
    this.options = {
      baseUrl: defaultBaseUrl(),
      cacheMs: typeof window === 'undefined' ? RESPONSE_CACHE_MS : defaultCacheMs(window.location.hostname),
      cacheBypass: ['auth'],
      onUnauthorized: () => window.location.assign(paths.root.href()),
      onPortalOverrideDenied: () => {},
      fetch: (...args) => globalThis.fetch(...args),
      now: () => Date.now(),
      ...options,
    };
  }

  /** Changes options after creation (boot wires the navigation in). */
  configure(options: Partial<ApiClientOptions>): void {
    this.options = { ...this.options, ...options };
    this.cache.clear();
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Forgets every cached GET answer. */
  clearCache(): void {
    this.cache.clear();
  }

  get<T>(path: string, options: Omit<RequestOptions, 'body' | 'sealed'> = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  delete<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  /** Sends one call. GET answers may come from the cache; any other method clears it first. */
  request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const upper = method.toUpperCase();
    if (upper !== 'GET') return this.send(upper, path, options, false) as Promise<T>;

    const url = joinUrl(this.options.baseUrl, path, options.query);
    const cacheable =
      this.options.cacheMs > 0 && !this.options.cacheBypass.some((fragment) => url.includes(fragment));
    if (!cacheable) return this.send(upper, path, options, false) as Promise<T>;

    const key = JSON.stringify([
      url,
      getValidToken(this.options.now()),
      storage.getPortal(),
      options.cacheKey ?? '',
    ]);
    const now = this.options.now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit.promise as Promise<T>;

    const promise = this.send(upper, path, options, false);
    const entry: CacheEntry = { expires: now + this.options.cacheMs, promise };
    this.cache.set(key, entry);
    // A failed call is never served again from the cache.
    promise.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return promise as Promise<T>;
  }

  private async send(
    method: string,
    path: string,
    options: RequestOptions,
    retried: boolean,
  ): Promise<unknown> {
    if (method !== 'GET') this.cache.clear();

    const url = joinUrl(this.options.baseUrl, path, options.query);
    const storedToken = storage.getAuthToken();
    const token = isTokenValid(storedToken, this.options.now()) ? storedToken : null;
    const override = storage.getPortal();
    const binary = hasBinaryAnswer(method, path);
    if (binary) void loadMsgpack();
    const headers: Record<string, string> = {
      // The large lists (BINARY_ANSWER_ROUTES) come as MessagePack, JSON if the server will not.
      Accept: binary ? `${MSGPACK_MEDIA_TYPE}, application/json;q=0.9` : 'application/json',
      [CLIENT_VERSION_HEADER]: CLIENT_VERSION,
      ...options.headers,
    };
    // A caller's own Authorization (the pre-authentication token of a two-factor sign-in) wins.
    if (token && !headers.Authorization) headers.Authorization = `Bearer ${token}`;
    if (override) headers[PORTAL_OVERRIDE_HEADER] = override;

    let body: string | Blob | FormData | undefined;
    if (options.body instanceof FormData) {
      // Fields and files (a support request with images): the browser writes the boundary.
      body = options.body;
    } else if (options.body instanceof Blob) {
      // A file goes as it is (an image upload), typed by itself.
      body = options.body;
      headers['Content-Type'] = options.body.type || 'application/octet-stream';
    } else if (options.body !== undefined) {
      const payload = options.sealed ? await this.seal(options.body) : options.body;
      body = JSON.stringify(payload);
      headers['Content-Type'] = 'application/json';
    }

    let response: Response;
    try {
      response = await this.options.fetch(url, { method, headers, body, credentials: 'same-origin' });
    } catch (cause) {
      const error = new ApiError(0, 'network_error', 'Could not reach the server. Check your connection.');
      console.error(`${method} ${url} failed`, cause);
      throw error;
    }

    const contentType = response.headers.get('content-type');
    const bytes = await response.arrayBuffer();
    const data = contentType?.startsWith(MSGPACK_MEDIA_TYPE)
      ? await decodeMsgpack(bytes)
      : decodeBody(bytes, contentType);
    if (response.ok) return data;

    const error = toApiError(response.status, data, response.headers);

    if (response.status === 403 && error.code === 'portal_override_denied' && override && !retried) {
      // The stored portal may no longer be ours to act in: fall back to the own portal, once.
      storage.setPortal(null);
      storage.setPortalContext(null);
      this.cache.clear();
      this.options.onPortalOverrideDenied();
      return this.send(method, path, options, true);
    }

    if (response.status === 401 && storedToken) {
      // The session ended (revoked elsewhere, or the stored token expired while the page was
      // open and so was not sent): forget it and start from the root. A sign-in attempt has no
      // stored token (the sign-in screens drop an expired one), so its 401 is only shown.
      storage.clearAuth();
      this.cache.clear();
      this.options.onUnauthorized();
      throw error;
    }

    // A server fault is an error in the console; a refusal (4xx: bad input, a conflict, a limit)
    // is the screen's to show, and only a warning here. A 404 is what a dead link answers.
    const line = `${method} ${url} → ${response.status} ${error.code}: ${error.message}`;
    if (response.status >= 500) console.error(line);
    else if (response.status !== 404) console.warn(line);
    throw error;
  }

  /**
   * A body sealed for the server (brief §7), to send as it is through another call: the API
   * console's sealed calls. Ordinary calls say `sealed: true` instead.
   */
  sealBody(body: unknown): Promise<SealedEnvelope> {
    return this.seal(body);
  }

  private async seal(body: unknown): Promise<SealedEnvelope> {
    if (this.options.seal) return this.options.seal(body);
    const [codec, serverKey] = await Promise.all([loadSealing(), this.loadSealKey()]);
    this.clientKeys ??= codec.newBoxKeyPair();
    return codec.sealPayload(body, serverKey, this.clientKeys, this.options.now());
  }

  /** GET auth/sealKey once per page load (while the codec loads); a failed fetch may be tried again. */
  private loadSealKey(): Promise<Uint8Array> {
    this.sealKey ??= Promise.all([loadSealing(), this.get<unknown>('auth/sealKey')])
      .then(([codec, answer]) => codec.decodeBase64(codec.sealKeyResponseSchema.parse(answer).publicKey))
      .catch((error: unknown) => {
        this.sealKey = null;
        throw error;
      });
    return this.sealKey;
  }
}

/** The app's client; boot points its 401 handling at the router. */
export const api = new ApiClient();
