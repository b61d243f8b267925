import { permissionsFor, type AppRole, type Session, type TokenResponse } from '@latchkey/shared';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { RequestAuth } from '../../http/access';
import { AppError } from '../../http/errors';
import { toPortal } from '../portals/portal.presenter';
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

/** After the password, before the second factor: a token good only for POST auth/twoFactorCode. */
export async function issuePreAuthToken(jwtKey: Uint8Array, user: Pick<UserRow, 'id' | 'token_version'>) {
  const expSeconds = Math.floor(Date.now() / 1000 + PRE_AUTH_MINUTES * 60);
  const preAuthToken = await new SignJWT({ typ: PRE_AUTH_TOKEN_TYPE, tv: user.token_version })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(expSeconds)
    .sign(jwtKey);
  return {
    twoFactorRequired: true as const,
    preAuthToken,
    expiresAt: new Date(expSeconds * 1000).toISOString(),
  };
}

/** The person behind a pre-authentication token; 401 if it is not one, expired or revoked. */
export async function authenticatePreAuthToken(
  db: Database,
  jwtKey: Uint8Array,
  token: string,
): Promise<UserRow> {
  let claims: { sub?: string; tv?: unknown; typ?: unknown };
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
  return user;
}

/**
 * The person behind a session token (and the staff member acting as them, for support sessions);
 * 401 if it is expired, tampered with, revoked or theirs is suspended. A support session also ends
 * when its staff member is no longer platform staff.
 */
export async function authenticateToken(
  db: Database,
  jwtKey: Uint8Array,
  token: string,
): Promise<{ user: UserRow; impersonator: UserRow | null }> {
  let claims: { sub?: string; tv?: unknown; typ?: unknown; imp?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(token, jwtKey, { algorithms: ['HS256'] }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw AppError.unauthorized('Your session has expired; sign in again');
    throw AppError.unauthorized('Your session is not valid; sign in again');
  }
  if (claims.typ !== SESSION_TOKEN_TYPE || typeof claims.sub !== 'string') {
    throw AppError.unauthorized('Your session is not valid; sign in again');
  }
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
