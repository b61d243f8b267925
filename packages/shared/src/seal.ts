import nacl from 'tweetnacl';
import naclUtil from 'tweetnacl-util';
import { z } from 'zod';
import { SEAL_NONCE_LENGTH, SEAL_SCHEME_VERSION } from './constants';

/**
 * Sealed payloads (brief §7, §9): JSON encrypted with a NaCl box (X25519 + XSalsa20-Poly1305)
 * from a per-page-load client key pair to the server's public key. The nonce is the current
 * time in milliseconds, zero-padded to 24 digits, whose 24 ASCII bytes are the box nonce.
 */

const base64Key = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'must be a base64 32-byte key');

/** The envelope a sealed request body travels in. */
export const sealedEnvelopeSchema = z.object({
  m: z
    .string()
    .min(1)
    .max(65_536)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
  k: z.literal(SEAL_SCHEME_VERSION),
  n: z.string().regex(new RegExp(`^\\d{${SEAL_NONCE_LENGTH}}$`), 'must be 24 digits'),
  p: base64Key,
});
export type SealedEnvelope = z.infer<typeof sealedEnvelopeSchema>;

/** The server's public key as served at GET auth/sealKey. */
export const sealKeyResponseSchema = z.object({
  publicKey: base64Key,
  k: z.literal(SEAL_SCHEME_VERSION),
});
export type SealKeyResponse = z.infer<typeof sealKeyResponseSchema>;

export interface BoxKeyPair {
  publicKey: Uint8Array;
  secretKey: Uint8Array;
}

/** A fresh client key pair (the browser makes one per page load). */
export function newBoxKeyPair(): BoxKeyPair {
  return nacl.box.keyPair();
}

/** The key pair whose secret key is the given 32 bytes. */
export function boxKeyPairFromSecret(secretKey: Uint8Array): BoxKeyPair {
  return nacl.box.keyPair.fromSecretKey(secretKey);
}

/** The nonce for a moment: milliseconds since the epoch, left-padded with zeros to 24 characters. */
export function sealNonce(nowMs: number = Date.now()): string {
  return String(Math.trunc(nowMs)).padStart(SEAL_NONCE_LENGTH, '0');
}

export const encodeBase64 = naclUtil.encodeBase64;
export const decodeBase64 = naclUtil.decodeBase64;

/** Seals a JSON-serialisable payload for the holder of `serverPublicKey`. */
export function sealPayload(
  payload: unknown,
  serverPublicKey: Uint8Array,
  clientKeys: BoxKeyPair,
  nowMs: number = Date.now(),
): SealedEnvelope {
  const n = sealNonce(nowMs);
  const message = naclUtil.decodeUTF8(JSON.stringify(payload));
  const box = nacl.box(message, naclUtil.decodeUTF8(n), serverPublicKey, clientKeys.secretKey);
  return { m: encodeBase64(box), k: SEAL_SCHEME_VERSION, n, p: encodeBase64(clientKeys.publicKey) };
}

/**
 * Opens an envelope with the server's secret key. Returns the parsed JSON, or `undefined`
 * when the box does not open (wrong key, tampered ciphertext) or does not hold JSON.
 */
export function openSealedPayload(envelope: SealedEnvelope, serverSecretKey: Uint8Array): unknown {
  const opened = nacl.box.open(
    decodeBase64(envelope.m),
    naclUtil.decodeUTF8(envelope.n),
    decodeBase64(envelope.p),
    serverSecretKey,
  );
  if (!opened) return undefined;
  try {
    return JSON.parse(naclUtil.encodeUTF8(opened));
  } catch {
    return undefined;
  }
}

/** Signs a JSON payload with an Ed25519 secret key; returns the signed message in base64. */
export function signPayload(payload: unknown, signingSecretKey: Uint8Array): string {
  return encodeBase64(nacl.sign(naclUtil.decodeUTF8(JSON.stringify(payload)), signingSecretKey));
}

/** The payload of a base64 signed message, or `undefined` if the signature does not verify. */
export function verifySignedPayload(signed: string, signingPublicKey: Uint8Array): unknown {
  let message: Uint8Array | null;
  try {
    message = nacl.sign.open(decodeBase64(signed), signingPublicKey);
  } catch {
    return undefined;
  }
  if (!message) return undefined;
  try {
    return JSON.parse(naclUtil.encodeUTF8(message));
  } catch {
    return undefined;
  }
}

/** A fresh Ed25519 signing key pair for `signPayload`. */
export function newSigningKeyPair(): BoxKeyPair {
  return nacl.sign.keyPair();
}

/** The signing key pair derived from a 32-byte seed. */
export function signingKeyPairFromSeed(seed: Uint8Array): BoxKeyPair {
  return nacl.sign.keyPair.fromSeed(seed);
}
