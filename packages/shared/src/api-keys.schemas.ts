import { z } from 'zod';
import { idSchema, instantInput, lineText } from './safe-input';

// API keys (issue 21, item 1): a portal's keys for its PMS, ERP and scripts. A key acts in its
// portal as an admin limited to its scopes: `<area>:read` or `<area>:write` (write implies read).

/** What a key may be given access to: one area per part of the portal a script may use. */
export const API_KEY_AREAS = [
  'devices',
  'people',
  'groups',
  'credentials',
  'lockouts',
  'events',
  'rentals',
  'zones',
  'readers',
  'webhooks',
  'reports',
  'billing',
] as const;
export type ApiKeyArea = (typeof API_KEY_AREAS)[number];

/** Areas a key may only read (a script never changes the bills or the plan). */
export const READ_ONLY_API_KEY_AREAS: readonly ApiKeyArea[] = ['billing', 'events'];

/**
 * The area of a route's feature folder (the route registry's `feature`). A route may set its own
 * (`config.apiArea`, e.g. per collection); a route whose feature has no area is refused to keys.
 * `api-keys` has none on purpose: a key never mints or revokes keys; nor `search`, the operator's
 * palette, which reads every kind of record at once (a script has each list's own search).
 */
export const API_KEY_AREA_OF_FEATURE: Readonly<Record<string, ApiKeyArea>> = {
  devices: 'devices',
  'device-link': 'devices',
  access: 'devices',
  dashboard: 'devices',
  alerts: 'devices',
  members: 'people',
  invitations: 'people',
  // And the target's area (devices or groups), checked by its handler: a lock or a group changes.
  'bulk-access': 'people',
  groups: 'groups',
  credentials: 'credentials',
  invites: 'credentials',
  lockouts: 'lockouts',
  events: 'events',
  audit: 'events',
  listings: 'rentals',
  stays: 'rentals',
  calendars: 'rentals',
  'rental-center': 'rentals',
  reviews: 'rentals',
  sharelock: 'rentals',
  zones: 'zones',
  readers: 'readers',
  webhooks: 'webhooks',
  reports: 'reports',
  billing: 'billing',
};

export type ApiKeyScope = `${ApiKeyArea}:${'read' | 'write'}`;

/** Every scope a key may hold. */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = API_KEY_AREAS.flatMap((area) =>
  READ_ONLY_API_KEY_AREAS.includes(area)
    ? [`${area}:read` as const]
    : [`${area}:read` as const, `${area}:write` as const],
);

/** The scope a request needs: GET (and HEAD) read, anything else writes. */
export function scopeFor(area: ApiKeyArea, method: string, readsOnly = false): ApiKeyScope {
  return `${area}:${readsOnly || method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`;
}

/** Whether `scopes` grant `needed` (write implies read). */
export function scopesGrant(scopes: readonly string[], needed: ApiKeyScope): boolean {
  if (scopes.includes(needed)) return true;
  const [area, level] = needed.split(':');
  return level === 'read' && scopes.includes(`${area}:write`);
}

/** Every key starts with this; then its 8-character public prefix, `_` and the secret. */
export const API_KEY_TOKEN_START = 'lk_live_';
/** `lk_live_<prefix>_<secret>`: prefix 8 lowercase hex-like characters, secret 43 base64url. */
export const API_KEY_PATTERN = /^lk_live_([a-z0-9]{8})_([A-Za-z0-9_-]{32,64})$/;

/** The longest a key may live. */
export const API_KEY_MAX_DAYS = 730;
/** The most addresses (IPs or CIDR ranges) a key may be limited to. */
export const API_KEY_MAX_ADDRESSES = 20;

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** An IPv4 or IPv6 address, optionally with a CIDR length (`10.0.0.0/8`, `2001:db8::/32`). */
export function isAddressOrRange(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !address) return false;
  const v4 = ipv4.test(address);
  const v6 = !v4 && /^[0-9a-fA-F:.]+$/.test(address) && address.includes(':') && address.length <= 45;
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES as [ApiKeyScope, ...ApiKeyScope[]]);

/** POST portal/apikeys: a new key. */
export const apiKeyCreateSchema = z.object({
  name: lineText().min(1, 'is required').max(80),
  scopes: z
    .array(apiKeyScopeSchema)
    .min(1, 'must name at least one scope')
    .max(API_KEY_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'names a scope twice'),
  /** Null: never expires. At most API_KEY_MAX_DAYS from now. */
  expiresAt: instantInput()
    .nullable()
    .default(null)
    .refine((at) => at === null || new Date(at).getTime() > Date.now(), 'must be in the future')
    .refine(
      (at) => at === null || new Date(at).getTime() <= Date.now() + API_KEY_MAX_DAYS * 86_400_000,
      `must be within ${API_KEY_MAX_DAYS} days`,
    ),
  /** Empty: any address. */
  allowedAddresses: z
    .array(lineText().max(50).refine(isAddressOrRange, 'is not an IP address or CIDR range'))
    .max(API_KEY_MAX_ADDRESSES)
    .default([]),
});
export type ApiKeyCreateInput = z.input<typeof apiKeyCreateSchema>;

/** A key as the list shows it: never its secret. */
export const apiKeyRecordSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** `lk_live_<prefix>`: how the key is recognised in logs and in the change log. */
  prefix: z.string(),
  scopes: z.array(z.string()),
  allowedAddresses: z.array(z.string()),
  createdBy: z.object({ _id: z.string(), name: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeyRecordSchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to POST portal/apikeys: the key, and its secret, shown this once. */
export const apiKeyCreatedSchema = z.object({ key: apiKeyRecordSchema, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const apiKeyIdParamsSchema = z.object({ id: idSchema });
