import { describe, expect, it } from 'vitest';
import { encodeBase64, signingKeyPairFromSeed } from '../seal';
import type { CredentialEntry, CredentialSet } from './access.schemas';
import {
  applySyncClaims,
  evaluateQrScan,
  QR_TOKEN_TTL_SECONDS,
  signQrToken,
  signSyncToken,
  TOKEN_CLOCK_SKEW_SECONDS,
  verifyQrToken,
  verifySyncToken,
} from './phone-tokens';

const portalKeys = signingKeyPairFromSeed(new Uint8Array(32).fill(7));
const otherKeys = signingKeyPairFromSeed(new Uint8Array(32).fill(9));
const qrKey = encodeBase64(portalKeys.publicKey);
const issuedAt = new Date('2026-11-24T10:00:00Z');
const seconds = (n: number) => new Date(issuedAt.getTime() + n * 1000);

function personEntry(
  userId: string,
  kind: CredentialEntry['kind'],
  secret: string,
  hours?: [string, string],
) {
  return {
    credentialId: kind === 'remote' ? `remote:${userId}` : `${kind}-${userId}`,
    kind,
    secret,
    holderType: 'person',
    userId,
    userRole: 'user',
    userStatus: 'active',
    schedule: hours ? { windows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: hours[0], end: hours[1] }] } : null,
    validFrom: null,
    validUntil: null,
  } satisfies CredentialEntry;
}

function lockSet(entries: CredentialEntry[], version = 3): CredentialSet {
  return { deviceId: 'lock-1', version, timeZone: 'UTC', entries, lockouts: [], qrKey };
}

describe('QR tokens', () => {
  const { token, expiresAt } = signQrToken(
    { userId: 'sam', nonce: 'nonce-0001', issuedAt },
    portalKeys.secretKey,
  );

  it('carry the person and a nonce, signed, valid for QR_TOKEN_TTL_SECONDS', () => {
    expect(token).toMatch(/^LKQ1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(expiresAt.getTime() - issuedAt.getTime()).toBe(QR_TOKEN_TTL_SECONDS * 1000);
    expect(verifyQrToken(token, qrKey, seconds(1))).toEqual({
      ok: true,
      claims: {
        u: 'sam',
        n: 'nonce-0001',
        iat: seconds(0).getTime() / 1000,
        exp: expiresAt.getTime() / 1000,
      },
    });
  });

  it('expire at exp, and are refused while their issue time is beyond the allowed clock skew', () => {
    expect(verifyQrToken(token, qrKey, seconds(QR_TOKEN_TTL_SECONDS - 1)).ok).toBe(true);
    expect(verifyQrToken(token, qrKey, seconds(QR_TOKEN_TTL_SECONDS))).toEqual({
      ok: false,
      problem: 'expired',
    });
    expect(verifyQrToken(token, qrKey, seconds(-TOKEN_CLOCK_SKEW_SECONDS)).ok).toBe(true);
    expect(verifyQrToken(token, qrKey, seconds(-TOKEN_CLOCK_SKEW_SECONDS - 1))).toEqual({
      ok: false,
      problem: 'not_yet_valid',
    });
  });

  it("refuse another portal's key, altered claims, garbage and the other token kind", () => {
    const [prefix, claims, signature] = token.split('.');
    const forged = encodeBase64(
      new TextEncoder().encode(JSON.stringify({ u: 'admin', n: 'nonce-0001', iat: 0, exp: 9e9 })),
    )
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(verifyQrToken(token, encodeBase64(otherKeys.publicKey), seconds(1))).toEqual({
      ok: false,
      problem: 'bad_signature',
    });
    expect(verifyQrToken(`${prefix}.${forged}.${signature}`, qrKey, seconds(1))).toEqual({
      ok: false,
      problem: 'bad_signature',
    });
    expect(verifyQrToken(`${prefix}.${claims}`, qrKey, seconds(1)).ok).toBe(false);
    expect(verifyQrToken('482916', qrKey, seconds(1))).toEqual({ ok: false, problem: 'malformed' });
    expect(verifyQrToken(token, null, seconds(1))).toEqual({ ok: false, problem: 'bad_signature' });
    const sync = signSyncToken(
      { deviceId: 'lock-1', userId: 'sam', version: 1, entries: [], issuedAt },
      portalKeys.secretKey,
    );
    expect(verifyQrToken(sync.token, qrKey, seconds(1))).toEqual({ ok: false, problem: 'malformed' });
  });

  it("open like the person's app, within their schedule; other tokens say why not", () => {
    const set = lockSet([personEntry('sam', 'remote', 'sam', ['09:00', '17:00'])]);
    expect(evaluateQrScan(set, token, seconds(1))).toEqual({
      decision: { granted: true, credentialId: 'remote:sam', userId: 'sam' },
      claims: expect.objectContaining({ u: 'sam', n: 'nonce-0001' }),
    });
    const late = signQrToken(
      { userId: 'sam', nonce: 'nonce-0002', issuedAt: seconds(9 * 3600) },
      portalKeys.secretKey,
    );
    expect(evaluateQrScan(set, late.token, seconds(9 * 3600)).decision).toMatchObject({
      granted: false,
      reason: 'outside_schedule',
    });
    expect(evaluateQrScan(set, token, seconds(QR_TOKEN_TTL_SECONDS))).toEqual({
      decision: { granted: false, reason: 'expired' },
      claims: null,
    });
    const stranger = signQrToken({ userId: 'eve', nonce: 'nonce-0003', issuedAt }, portalKeys.secretKey);
    expect(evaluateQrScan(set, stranger.token, seconds(1)).decision).toEqual({
      granted: false,
      reason: 'unknown_credential',
    });
    expect(evaluateQrScan({ ...set, qrKey: null }, token, seconds(1)).decision).toEqual({
      granted: false,
      reason: 'unknown_credential',
    });
  });
});

describe('carried credential updates (synclock)', () => {
  const samNew = personEntry('sam', 'code', '555111');
  const sync = signSyncToken(
    { deviceId: 'lock-1', userId: 'sam', version: 4, entries: [samNew], issuedAt },
    portalKeys.secretKey,
  );

  it("replace only the person's entries and keep the lock's version", () => {
    const check = verifySyncToken(sync.token, qrKey, seconds(5));
    if (!check.ok) throw new Error(check.problem);
    const before = lockSet([personEntry('sam', 'code', '111111'), personEntry('ada', 'code', '222222')]);
    const after = applySyncClaims(before, check.claims);
    expect(after?.version).toBe(3);
    expect(after?.entries.map((e) => e.secret).sort()).toEqual(['222222', '555111']);
  });

  it('do not apply to another lock, to a newer set than they were cut from, or once expired', () => {
    const check = verifySyncToken(sync.token, qrKey, seconds(5));
    if (!check.ok) throw new Error(check.problem);
    expect(applySyncClaims({ ...lockSet([]), deviceId: 'lock-2' }, check.claims)).toBeNull();
    expect(applySyncClaims(lockSet([], 5), check.claims)).toBeNull();
    expect(verifySyncToken(sync.token, qrKey, seconds(600))).toEqual({ ok: false, problem: 'expired' });
  });

  it("never carry another person's entries, even when the signed list holds them", () => {
    const mixed = signSyncToken(
      {
        deviceId: 'lock-1',
        userId: 'sam',
        version: 4,
        entries: [samNew, personEntry('eve', 'code', '999999')],
        issuedAt,
      },
      portalKeys.secretKey,
    );
    const check = verifySyncToken(mixed.token, qrKey, seconds(5));
    if (!check.ok) throw new Error(check.problem);
    expect(applySyncClaims(lockSet([]), check.claims)?.entries.map((e) => e.userId)).toEqual(['sam']);
  });
});
