import crypto from 'node:crypto';
import { permissionsFor, type AppRole, type Session, type TokenResponse } from '@latchkey/shared';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { RequestAuth } from '../http/request-auth';
import { AppError } from '../http/errors';
import { listMembershipsOfUser } from '../tenancy/memberships.repository';
import { toPortal } from '../tenancy/portal.presenter';
import { isSealNonceRecorded, recordSealNonce } from './seal-nonces.repository';
import { readAuthEpoch, sessionCacheOf, type SessionPerson } from './session-cache';
import { toUserSummary } from './user.presenter';
import { findUserById } from './users.repository';

const SESSION_TOKEN_TYPE = 'session';

/** Signs a session token for a person; `exp` is in seconds, as the web client expects. */
export async function issueSessionToken(
  jwtKey: Uint8Array,
  user: Pick<UserRow, 'id' | 'token_version'>,
  ttlHours: number,
  /** Set when platform staff act as this person (support sessions). */
  impersonatorId?: string,
): Promise<TokenResponse> {
  const expSeconds = Math.floor(Date.now() / 1000 + ttlHours * 3600);
  const claims = {
    typ: SESSION_TOKEN_TYPE,
    tv: user.token_version,
    ...(impersonatorId && { imp: impersonatorId }),
  };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(expSeconds)
    .sign(jwtKey);
  return { token, expiresAt: new Date(expSeconds * 1000).toISOString() };
}

const PRE_AUTH_TOKEN_TYPE = 'pre_auth';
const PRE_AUTH_MINUTES = 5;
/** The seal_nonces key under which used pre-authentication token ids are kept (never a base64 key). */
const PRE_AUTH_TOKEN_KEY = 'pre-auth-token';

/**
 * After the password, before the second factor: a token good only for POST auth/twoFactorCode,
 * once (its id, `jti`, is recorded when it finishes a sign-in).
 */
export async function issuePreAuthToken(jwtKey: Uint8Array, user: Pick<UserRow, 'id' | 'token_version'>) {
  const expSeconds = Math.floor(Date.now() / 1000 + PRE_AUTH_MINUTES * 60);
  const preAuthToken = await new SignJWT({ typ: PRE_AUTH_TOKEN_TYPE, tv: user.token_version })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(expSeconds)
    .sign(jwtKey);
  return {
    twoFactorRequired: true as const,
    preAuthToken,
    expiresAt: new Date(expSeconds * 1000).toISOString(),
  };
}

/** A checked pre-authentication token: its person, and its id and expiry for `spendPreAuthToken`. */
export interface PreAuth {
  user: UserRow;
  tokenId: string;
  expiresAt: string;
}

/** The person behind a pre-authentication token; 401 if it is not one, expired, used or revoked. */
export async function authenticatePreAuthToken(
  db: Database,
  jwtKey: Uint8Array,
  token: string,
): Promise<PreAuth> {
  let claims: { sub?: string; tv?: unknown; typ?: unknown; jti?: string; exp?: number };
  try {
    ({ payload: claims } = await jwtVerify(token, jwtKey, { algorithms: ['HS256'] }));
  } catch {
    throw AppError.unauthorized('Sign in again: the step for the second factor has expired');
  }
  const user =
    claims.typ === PRE_AUTH_TOKEN_TYPE && typeof claims.sub === 'string'
      ? await findUserById(db, claims.sub)
      : undefined;
  if (!user || user.token_version !== claims.tv || user.status !== 'active') {
    throw AppError.unauthorized('Sign in again');
  }
  const preAuth = {
    user,
    tokenId: claims.jti ?? '',
    expiresAt: new Date((claims.exp ?? 0) * 1000).toISOString(),
  };
  if (!preAuth.tokenId || (await isSealNonceRecorded(db, PRE_AUTH_TOKEN_KEY, preAuth.tokenId))) {
    throw usedPreAuthToken();
  }
  return preAuth;
}

const usedPreAuthToken = () => AppError.unauthorized('Sign in again: this sign-in step was already used');

/**
 * Uses up a pre-authentication token once its second factor is accepted; 401 if another request
 * (on any server: the id is kept in the database) used it first.
 */
export async function spendPreAuthToken(db: Database, preAuth: PreAuth): Promise<void> {
  if (!(await recordSealNonce(db, PRE_AUTH_TOKEN_KEY, preAuth.tokenId, preAuth.expiresAt))) {
    throw usedPreAuthToken();
  }
}

/** What a checked session token says. */
interface SessionClaims {
  sub: string;
  tv: unknown;
  imp?: unknown;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/** Verified tokens kept per server (by signing key); the oldest go first beyond this. */
const MAX_VERIFIED_TOKENS = 10_000;
const verifiedTokens = new WeakMap<Uint8Array, Map<string, SessionClaims>>();

const expiredSession = () => AppError.unauthorized('Your session has expired; sign in again');
const invalidSession = () => AppError.unauthorized('Your session is not valid; sign in again');

/**
 * The claims of a session token; 401 if it is expired, tampered with or not a session token. A
 * token's signature is checked once per server: the same text has the same signature, so the
 * claims of a verified token are kept (checking an HMAC through WebCrypto, key import included,
 * cost more than the rest of the token check). Its expiry is checked on every use.
 */
async function sessionClaims(jwtKey: Uint8Array, token: string): Promise<SessionClaims> {
  let verified = verifiedTokens.get(jwtKey);
  if (!verified) verifiedTokens.set(jwtKey, (verified = new Map()));
  const kept = verified.get(token);
  if (kept) {
    if (kept.exp <= Math.floor(Date.now() / 1000)) {
      verified.delete(token);
      throw expiredSession();
    }
    return kept;
  }
  let claims: { sub?: string; tv?: unknown; typ?: unknown; imp?: unknown; exp?: number };
  try {
    ({ payload: claims } = await jwtVerify(token, jwtKey, { algorithms: ['HS256'] }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw expiredSession();
    throw invalidSession();
  }
  if (claims.typ !== SESSION_TOKEN_TYPE || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') {
    throw invalidSession();
  }
  const checked: SessionClaims = { sub: claims.sub, tv: claims.tv, imp: claims.imp, exp: claims.exp };
  verified.set(token, checked);
  if (verified.size > MAX_VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
  return checked;
}

/** The person behind checked claims, read now; 401 if revoked, suspended, or staff no longer. */
async function personBehind(
  db: Database,
  claims: SessionClaims,
): Promise<{ user: UserRow; impersonator: UserRow | null }> {
  const user = await findUserById(db, claims.sub);
  if (!user || user.token_version !== claims.tv) {
    throw AppError.unauthorized('Your session has ended; sign in again');
  }
  if (user.status !== 'active') throw AppError.unauthorized('Your account is suspended');
  let impersonator: UserRow | null = null;
  if (claims.imp !== undefined) {
    impersonator = typeof claims.imp === 'string' ? ((await findUserById(db, claims.imp)) ?? null) : null;
    if (!impersonator || impersonator.platform_role !== 'superAdmin' || impersonator.status !== 'active') {
      throw AppError.unauthorized('This support session has ended');
    }
  }
  return { user, impersonator };
}

/**
 * The person behind a session token (and the staff member acting as them, for support sessions);
 * 401 if it is expired, tampered with, revoked or theirs is suspended. A support session also ends
 * when its staff member is no longer platform staff. Reads the person now (the live channel's
 * session checks); API requests use authenticateSession.
 */
export async function authenticateToken(
  db: Database,
  jwtKey: Uint8Array,
  token: string,
): Promise<{ user: UserRow; impersonator: UserRow | null }> {
  return personBehind(db, await sessionClaims(jwtKey, token));
}

/**
 * authenticateToken for an API request, with the person's memberships: kept per token version by
 * the session cache while the auth epoch stands still (session-cache.ts), so a revocation,
 * suspension or role change anywhere counts from the next request on every server.
 */
export async function authenticateSession(
  db: Database,
  jwtKey: Uint8Array,
  token: string,
): Promise<SessionPerson> {
  const claims = await sessionClaims(jwtKey, token);
  // Read before the person: a change committed after this read moves the epoch past what is kept.
  const epoch = await readAuthEpoch(db);
  const cache = sessionCacheOf(db);
  const key = JSON.stringify([claims.sub, claims.tv, claims.imp ?? null]);
  const kept = cache.get(key, epoch);
  if (kept) return kept;
  const { user, impersonator } = await personBehind(db, claims);
  const person = { user, impersonator, memberships: await listMembershipsOfUser(db, user.id) };
  cache.set(key, epoch, person);
  return person;
}

/** GET auth: who is signed in, their portals, where this request acts and what they may do. */
export function describeSession(auth: RequestAuth, features: string[]): Session {
  const owned = auth.memberships.find((m) => m.portal.owner_user_id === auth.user.id);
  const roles: AppRole[] = [];
  if (auth.acting) roles.push(auth.acting.role);
  if (auth.isSuperAdmin) roles.push('superAdmin');
  return {
    user: toUserSummary(auth.user),
    portalOwned: owned?.portal.id ?? null,
    memberships: auth.memberships.map((m) => ({
      portal: { _id: m.portal.id, name: m.portal.name },
      role: m.role,
      status: m.status,
      owner: m.portal.owner_user_id === auth.user.id,
    })),
    portal: auth.acting ? toPortal(auth.acting.portal) : null,
    roles,
    permissions: permissionsFor(roles),
    features,
    impersonatedBy: auth.impersonator ? { _id: auth.impersonator.id, email: auth.impersonator.email } : null,
  };
}
