import { describe, expect, it } from 'vitest';
import {
  boxKeyPairFromSecret,
  decodeBase64,
  encodeBase64,
  newBoxKeyPair,
  openSealedPayload,
  sealedEnvelopeSchema,
  sealNonce,
  sealPayload,
  signingKeyPairFromSeed,
  signPayload,
  verifySignedPayload,
} from './seal';

const bytes = (from: number, to: number) => Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);

// Computed by hand with an independent implementation (Debian's python3-nacl 1.5):
//   server = PrivateKey(bytes(range(1,33))); client = PrivateKey(bytes(range(33,65)))
//   Box(client, server.public_key).encrypt(payload, nonce.encode()).ciphertext
//   SigningKey(bytes(range(65,97))).sign(b'{"action":"unlock","deviceId":"d1"}')
const vector = {
  serverPublic: 'B6N8vBQgk8i3VdwbEOhstCY3StFqqFPtC9/AsrhtHHw=',
  clientPublic: 'WGmv9FBUlzLLqu1eXfmzCm2jHLDldCutWtShp2jxpns=',
  nowMs: 1795318274123,
  nonce: '000000000001795318274123',
  payload: { email: 'ada@example.com', password: 'correct horse battery' },
  m: 'Uew8ni74JH1RwqkuH8LnJsHXpryc2+vqVpTgtGiHNNNhEeRDyPtQiRf/2rTd+ENgi48yPNZnitDKPE8F9Wb1/JpltfQXD7R2pCsD2QcI',
  signPublic: 'rcFAEfgtHFbZVqpPnXPYhYNhpgYEhSXg0Ixjjcdd2Mc=',
  signed:
    'iyesfNew9/J+x1xUxFwLCP/RW+VIwF5xhy0NdlVc5XWsTOHApTJpU71ZzB9A/GN7dA+09RhuhN7sJrcm9McIAXsiYWN0aW9uIjoidW5sb2NrIiwiZGV2aWNlSWQiOiJkMSJ9',
};

describe('sealed payloads', () => {
  const server = boxKeyPairFromSecret(bytes(1, 32));
  const client = boxKeyPairFromSecret(bytes(33, 64));

  it('matches the python3-nacl test vector byte for byte', () => {
    expect(encodeBase64(server.publicKey)).toBe(vector.serverPublic);
    expect(encodeBase64(client.publicKey)).toBe(vector.clientPublic);
    const envelope = sealPayload(vector.payload, server.publicKey, client, vector.nowMs);
    expect(envelope).toEqual({ m: vector.m, k: 2, n: vector.nonce, p: vector.clientPublic });
    expect(sealedEnvelopeSchema.parse(envelope)).toEqual(envelope);
  });

  it('opens the vector with the server secret key', () => {
    const envelope = { m: vector.m, k: 2 as const, n: vector.nonce, p: vector.clientPublic };
    expect(openSealedPayload(envelope, server.secretKey)).toEqual(vector.payload);
  });

  it('makes the nonce from the time in milliseconds, zero-padded to 24 characters', () => {
    expect(sealNonce(1)).toBe('000000000000000000000001');
    expect(sealNonce(vector.nowMs)).toHaveLength(24);
  });

  it('does not open a tampered box, a wrong key or a changed nonce', () => {
    const envelope = sealPayload({ a: 1 }, server.publicKey, newBoxKeyPair());
    const raw = decodeBase64(envelope.m);
    raw[5] = raw[5]! ^ 1;
    expect(openSealedPayload({ ...envelope, m: encodeBase64(raw) }, server.secretKey)).toBeUndefined();
    expect(openSealedPayload(envelope, newBoxKeyPair().secretKey)).toBeUndefined();
    expect(
      openSealedPayload({ ...envelope, n: sealNonce(Date.now() + 1) }, server.secretKey),
    ).toBeUndefined();
  });

  it('refuses envelopes of the wrong shape', () => {
    const good = sealPayload({ a: 1 }, server.publicKey, client);
    expect(sealedEnvelopeSchema.safeParse({ ...good, k: 1 }).success).toBe(false);
    expect(sealedEnvelopeSchema.safeParse({ ...good, n: '123' }).success).toBe(false);
    expect(sealedEnvelopeSchema.safeParse({ ...good, p: 'short' }).success).toBe(false);
    expect(sealedEnvelopeSchema.safeParse({ ...good, m: 'not base64!' }).success).toBe(false);
  });
});

describe('signed payloads', () => {
  const signer = signingKeyPairFromSeed(bytes(65, 96));

  it('matches the python3-nacl signature vector', () => {
    expect(encodeBase64(signer.publicKey)).toBe(vector.signPublic);
    expect(signPayload({ action: 'unlock', deviceId: 'd1' }, signer.secretKey)).toBe(vector.signed);
    expect(verifySignedPayload(vector.signed, signer.publicKey)).toEqual({
      action: 'unlock',
      deviceId: 'd1',
    });
  });

  it('rejects a signature from another key or a changed message', () => {
    const other = signingKeyPairFromSeed(bytes(1, 32));
    expect(verifySignedPayload(vector.signed, other.publicKey)).toBeUndefined();
    const raw = decodeBase64(vector.signed);
    raw[raw.length - 2] = raw[raw.length - 2]! ^ 1;
    expect(verifySignedPayload(encodeBase64(raw), signer.publicKey)).toBeUndefined();
    expect(verifySignedPayload('%%%', signer.publicKey)).toBeUndefined();
  });
});
