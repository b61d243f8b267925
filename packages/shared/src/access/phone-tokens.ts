import nacl from 'tweetnacl';
import naclUtil from 'tweetnacl-util';
import { z } from 'zod';
import {
  credentialEntrySchema,
  type AccessDecision,
  type CredentialEntry,
  type CredentialSet,
} from './access.schemas';
import { evaluateAccess } from './evaluate-access';

/**
 * Tokens a person's phone carries to a lock, which the lock checks offline: a QR code shown at the
 * reader (opens the door) and a credential hand-over for a lock that is offline (`synclock`). Both
 * are signed with the portal's Ed25519 key, whose public half travels in every credential set
 * (`qrKey`), so a lock that has synced once can check them without reaching the server.
 *
 * The portal's key pair comes from `signingKeyPairFromSeed` (seal.ts); the server derives the seed.
 *
 * Text form: `<prefix>.<base64url(JSON claims)>.<base64url(signature of "<prefix>.<claims>")>`.
 */

export const QR_TOKEN_PREFIX = 'LKQ1';
export const SYNC_TOKEN_PREFIX = 'LKS1';
/** A QR code works for two minutes: long enough to walk up to the reader, too short to share. */
export const QR_TOKEN_TTL_SECONDS = 120;
/** A carried credential update works for ten minutes: the walk from where there is signal. */
export const SYNC_TOKEN_TTL_SECONDS = 600;
/** How far ahead of the lock's clock a token's issue time may be (clocks drift). */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

const toBase64Url = (bytes: Uint8Array) =>
  naclUtil.encodeBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    return naclUtil.decodeBase64(padded);
  } catch {
    return null;
  }
}

/** Issue and expiry in whole seconds since the epoch (short claim names keep QR codes small). */
const timedClaims = { iat: z.number().int().nonnegative(), exp: z.number().int().nonnegative() };

/** What a QR token says: this person (`u`), this one-time nonce (`n`), this period. */
export const qrTokenClaimsSchema = z.object({ u: z.string().min(1), n: z.string().min(8), ...timedClaims });
export type QrTokenClaims = z.infer<typeof qrTokenClaimsSchema>;

/**
 * What a carried credential update says: for lock `d`, person `u`'s entries are `e` as of the
 * lock's desired set version `v` (the lock keeps everyone else's entries as they are).
 */
export const syncTokenClaimsSchema = z.object({
  d: z.string().min(1),
  u: z.string().min(1),
  v: z.number().int().min(0),
  e: z.array(credentialEntrySchema),
  ...timedClaims,
});
export type SyncTokenClaims = z.infer<typeof syncTokenClaimsSchema>;

export type TokenProblem = 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid';
export type TokenCheck<Claims> = { ok: true; claims: Claims } | { ok: false; problem: TokenProblem };

function sign(prefix: string, claims: object, secretKey: Uint8Array): string {
  const body = `${prefix}.${toBase64Url(naclUtil.decodeUTF8(JSON.stringify(claims)))}`;
  return `${body}.${toBase64Url(nacl.sign.detached(naclUtil.decodeUTF8(body), secretKey))}`;
}

function verify<Claims extends { iat: number; exp: number }>(
  prefix: string,
  schema: z.ZodType<Claims>,
  token: string,
  publicKeyBase64: string | null | undefined,
  instant: Date,
): TokenCheck<Claims> {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || parts[0] !== prefix) return { ok: false, problem: 'malformed' };
  const claimBytes = fromBase64Url(parts[1]!);
  const signature = fromBase64Url(parts[2]!);
  if (!claimBytes || !signature || signature.length !== nacl.sign.signatureLength) {
    return { ok: false, problem: 'malformed' };
  }
  let publicKey: Uint8Array;
  try {
    publicKey = naclUtil.decodeBase64(publicKeyBase64 ?? '');
  } catch {
    return { ok: false, problem: 'bad_signature' };
  }
  if (publicKey.length !== nacl.sign.publicKeyLength) return { ok: false, problem: 'bad_signature' };
  const signed = naclUtil.decodeUTF8(`${parts[0]}.${parts[1]}`);
  if (!nacl.sign.detached.verify(signed, signature, publicKey))
    return { ok: false, problem: 'bad_signature' };
  let claims: Claims;
  try {
    const parsed = schema.safeParse(JSON.parse(naclUtil.encodeUTF8(claimBytes)));
    if (!parsed.success) return { ok: false, problem: 'malformed' };
    claims = parsed.data;
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  const now = Math.floor(instant.getTime() / 1000);
  if (claims.iat > now + TOKEN_CLOCK_SKEW_SECONDS) return { ok: false, problem: 'not_yet_valid' };
  if (now >= claims.exp) return { ok: false, problem: 'expired' };
  return { ok: true, claims };
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** A QR token for a person, valid QR_TOKEN_TTL_SECONDS from `issuedAt`. */
export function signQrToken(
  input: { userId: string; nonce: string; issuedAt: Date },
  secretKey: Uint8Array,
): { token: string; expiresAt: Date } {
  const iat = seconds(input.issuedAt);
  const exp = iat + QR_TOKEN_TTL_SECONDS;
  const claims: QrTokenClaims = { u: input.userId, n: input.nonce, iat, exp };
  return { token: sign(QR_TOKEN_PREFIX, claims, secretKey), expiresAt: new Date(exp * 1000) };
}

export function verifyQrToken(token: string, publicKeyBase64: string | null | undefined, instant: Date) {
  return verify(QR_TOKEN_PREFIX, qrTokenClaimsSchema, token, publicKeyBase64, instant);
}

/** A person's entries for one lock, for their phone to carry there; valid SYNC_TOKEN_TTL_SECONDS. */
export function signSyncToken(
  input: { deviceId: string; userId: string; version: number; entries: CredentialEntry[]; issuedAt: Date },
  secretKey: Uint8Array,
): { token: string; expiresAt: Date } {
  const iat = seconds(input.issuedAt);
  const exp = iat + SYNC_TOKEN_TTL_SECONDS;
  const claims: SyncTokenClaims = {
    d: input.deviceId,
    u: input.userId,
    v: input.version,
    e: input.entries,
    iat,
    exp,
  };
  return { token: sign(SYNC_TOKEN_PREFIX, claims, secretKey), expiresAt: new Date(exp * 1000) };
}

export function verifySyncToken(token: string, publicKeyBase64: string | null | undefined, instant: Date) {
  return verify(SYNC_TOKEN_PREFIX, syncTokenClaimsSchema, token, publicKeyBase64, instant);
}

/** What the lock decides for a scanned QR code, and the genuine token's claims, if it was one. */
export interface QrScan {
  decision: AccessDecision;
  /** Set when the token was genuine and current: the lock remembers its nonce until `exp` (single use). */
  claims: QrTokenClaims | null;
}

/**
 * The lock's decision for scanned text: a genuine, current token of this portal opens like the
 * person's app (their `remote` entry, in their schedule); anything else is an unknown credential
 * (an expired token says so). Remembering used nonces (single use) is the lock's job.
 */
export function evaluateQrScan(credentialSet: CredentialSet, scanned: string, instant: Date): QrScan {
  const check = verifyQrToken(scanned, credentialSet.qrKey, instant);
  if (!check.ok) {
    const reason =
      check.problem === 'expired' || check.problem === 'not_yet_valid' ? check.problem : 'unknown_credential';
    return { decision: { granted: false, reason }, claims: null };
  }
  return {
    decision: evaluateAccess(credentialSet, { kind: 'remote', secret: check.claims.u }, instant),
    claims: check.claims,
  };
}

/**
 * The lock's set after a carried update: the person's entries replaced by the token's, everything
 * else kept, the version unchanged (the lock reports the last full set it received). Null when
 * the token is not for this lock or is older than the set the lock already holds.
 */
export function applySyncClaims(credentialSet: CredentialSet, claims: SyncTokenClaims): CredentialSet | null {
  if (claims.d !== credentialSet.deviceId || claims.v < credentialSet.version) return null;
  const theirs = claims.e.filter((entry) => entry.userId === claims.u);
  return {
    ...credentialSet,
    entries: [...credentialSet.entries.filter((entry) => entry.userId !== claims.u), ...theirs],
  };
}
