import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

/** What a Latchkey client needs: the server's address and a portal's API key. */
export interface LatchkeyClientOptions {
  /** The server, e.g. `https://locks.example.com` (the API lives under /api3). */
  baseUrl: string;
  /** A portal's API key, `lk_live_…` (Settings → API keys); it acts in that portal with its scopes. */
  apiKey: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request (beside the key). */
  headers?: Record<string, string>;
}

/** A client whose paths, parameters, bodies and answers are typed from the API's OpenAPI document. */
export type LatchkeyClient = Client<paths, 'application/json'>;

/**
 * A typed client of the Latchkey API, calling with `Authorization: Bearer <apiKey>`:
 * `const { data, error } = await client.GET('/api3/portal/devices', { params: { query: { limit: 50 } } })`.
 * An error answer is `{ error: { code, message, details? } }` (e.g. `api_key_scope_missing`).
 */
export function createLatchkeyClient(options: LatchkeyClientOptions): LatchkeyClient {
  return createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch && { fetch: options.fetch }),
  });
}
