import crypto from 'node:crypto';
import net from 'node:net';
import { API_KEY_PATTERN, API_KEY_TOKEN_START } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ApiKeyRow, PortalRow, UserRow } from '../../db/schema';
import { AppError } from '../http/errors';
import { findPortalById } from '../tenancy/portals.repository';

// API keys as a request presents them (features/api-keys makes and lists them; docs/decisions.md
// "API keys"). Here, in base, because the one onRequest hook (http/access.ts) authenticates them and
// base imports no feature.

/** Whether a bearer token is an API key (anything else is a session token). */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_TOKEN_START);
}

/**
 * The stored form of a key: hex SHA-256 of the whole key. A key carries 256 random bits, so a fast
 * hash is enough (nothing to guess, nothing for a slow hash to slow down), and checking one costs
 * microseconds on every request, where a password hash would cost tens of milliseconds.
 */
export function hashApiKey(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new key: `lk_live_<8-char prefix>_<43-char secret>`, its prefix and its hash. */
export function newApiKeySecret(): { token: string; prefix: string; hash: string } {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const prefix = Array.from(crypto.randomBytes(8), (byte) => alphabet[byte % alphabet.length]).join('');
  const token = `${API_KEY_TOKEN_START}${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
  return { token, prefix, hash: hashApiKey(token) };
}

/** What a request made with a key knows about it. */
export interface PresentedApiKey {
  row: ApiKeyRow;
  scopes: string[];
  portal: PortalRow;
}

/** `::ffff:10.0.0.1` (IPv4 on an IPv6 socket) as `10.0.0.1`. */
function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
}

/** Whether `ip` is one of `allowed` (addresses and CIDR ranges); an empty list allows any. */
export function addressAllowed(allowed: readonly string[], ip: string): boolean {
  if (allowed.length === 0) return true;
  const address = plainAddress(ip);
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!family) return false;
  const list = new net.BlockList();
  for (const entry of allowed) {
    const [base, bits] = entry.split('/');
    const entryFamily = net.isIPv4(base!) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(base!, entryFamily);
    else list.addSubnet(base!, Number(bits), entryFamily);
  }
  return list.check(address, family);
}

/**
 * The key behind a bearer token, checked: known by its prefix, the hash equal (compared in constant
 * time), not revoked, not expired, presented from an allowed address. Read from the database on
 * every request (one indexed row, as a session's auth epoch is), so a revocation on any server
 * counts on every server from the next request.
 */
export async function authenticateApiKey(db: Database, token: string, ip: string): Promise<PresentedApiKey> {
  const match = API_KEY_PATTERN.exec(token);
  if (!match) throw new AppError('api_key_invalid', 'This API key is not valid', 401);
  const row = await db.selectFrom('api_keys').selectAll().where('prefix', '=', match[1]!).executeTakeFirst();
  const presented = Buffer.from(hashApiKey(token), 'hex');
  const stored = Buffer.from(row?.secret_hash ?? '0'.repeat(64), 'hex');
  if (!row || !crypto.timingSafeEqual(presented, stored)) {
    throw new AppError('api_key_invalid', 'This API key is not valid', 401);
  }
  if (row.revoked_at) throw new AppError('api_key_revoked', 'This API key was revoked', 401);
  if (row.expires_at && new Date(toIso(row.expires_at)).getTime() <= Date.now()) {
    throw new AppError('api_key_expired', 'This API key has expired', 401);
  }
  if (!addressAllowed(JSON.parse(row.allowed_addresses_json) as string[], ip)) {
    throw new AppError('api_key_address_not_allowed', 'This API key may not be used from this address', 403);
  }
  const portal = await findPortalById(db, row.portal_id);
  if (!portal) throw new AppError('api_key_invalid', 'This API key is not valid', 401);
  return { row, scopes: JSON.parse(row.scopes_json) as string[], portal };
}

/**
 * The person a key's requests act as, for handlers that read `signedIn(request).user`: never
 * stored and no member of anything, with the key's id (so per-sender limits count per key) and its
 * name where a person's name is shown (an invitation's "invited by"). Changes are audited as the key
 * (ChangeContext.apiKeyId), not as this.
 */
export function apiKeyActor(row: ApiKeyRow): UserRow {
  return {
    id: row.id,
    email: `api-key-${row.prefix}@keys.invalid`,
    password_hash: '',
    first_name: `API key '${row.name}'`,
    last_name: '',
    platform_role: null,
    status: 'active',
    token_version: 0,
    email_verified_at: row.created_at,
    totp_secret: null,
    totp_enabled_at: null,
    totp_last_step: null,
    created_at: row.created_at,
    updated_at: row.created_at,
  };
}

/** The last time each key's use was written, per server: at most one write a minute per key. */
const lastUseWritten = new Map<string, number>();
const LAST_USE_EVERY_MS = 60_000;

/**
 * Records a key's last use (time and address) at most once a minute per key: skipped in this
 * process within the minute, and the update itself only moves a value older than a minute, so
 * several servers write it once a minute between them.
 */
export async function noteApiKeyUse(db: Database, row: ApiKeyRow, ip: string): Promise<void> {
  const now = Date.now();
  if (now - (lastUseWritten.get(row.id) ?? 0) < LAST_USE_EVERY_MS) return;
  lastUseWritten.set(row.id, now);
  if (lastUseWritten.size > 10_000) lastUseWritten.delete(lastUseWritten.keys().next().value!);
  const before = new Date(now - LAST_USE_EVERY_MS).toISOString();
  await db
    .updateTable('api_keys')
    .set({ last_used_at: nowIso(), last_used_ip: plainAddress(ip) })
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
    .execute();
}
