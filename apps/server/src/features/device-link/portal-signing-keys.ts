import crypto from 'node:crypto';
import { encodeBase64, signingKeyPairFromSeed, type BoxKeyPair } from '@latchkey/shared';

/**
 * Each portal's Ed25519 key for what a phone carries to a lock (QR codes, credential updates for
 * an offline lock; packages/shared phone-tokens.ts). The seed is derived from the server's secret
 * and the portal id, so every server process sharing JWT_SECRET has the same keys with nothing
 * stored; changing the secret changes the keys, and locks get the new public key with their next
 * credential set.
 */
export class PortalSigningKeys {
  private readonly cache = new Map<string, BoxKeyPair>();

  constructor(private readonly serverSecret: Uint8Array) {}

  keyPairOf(portalId: string): BoxKeyPair {
    let keys = this.cache.get(portalId);
    if (!keys) {
      const seed = crypto
        .createHmac('sha256', this.serverSecret)
        .update(`latchkey portal signing key v1\0${portalId}`)
        .digest();
      keys = signingKeyPairFromSeed(new Uint8Array(seed));
      this.cache.set(portalId, keys);
    }
    return keys;
  }

  /** The public key as a credential set carries it (`qrKey`). */
  publicKeyOf(portalId: string): string {
    return encodeBase64(this.keyPairOf(portalId).publicKey);
  }
}
