import crypto from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

// Two-factor sign-in. Codes are computed here with an independent RFC 6238 implementation (node's
// HMAC), not with the library the server uses.

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** RFC 6238 TOTP (HMAC-SHA1, 30-second steps) at a Unix time in seconds. */
function totp(secret: Buffer, unixSeconds: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const mac = crypto.createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(value).padStart(digits, '0');
}

const RFC_SEED = Buffer.from('12345678901234567890');
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP', () => {
  it.each(RFC_VECTORS)('matches the RFC 6238 SHA-1 vector at T=%i', async (time, expected) => {
    expect(totp(RFC_SEED, time, 8)).toBe(expected);
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // base32 of the RFC seed
    expect(await generate({ secret, epoch: time, digits: 8 })).toBe(expected);
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);

async function enableFor(email: string, password: string) {
  const person = await t.signUp({ email, password });
  const get = (url: string) => t.request({ method: 'GET', url: `/api3/${url}`, token: person.token });
  const state = (await get('auth/twoFactor')).json();
  expect(state).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
  expect(state.qrCode).toMatch(/^data:image\/png;base64,/);
  const secret = base32Decode(new URL(state.otpauthUri).searchParams.get('secret')!);
  expect(state.otpauthUri).toContain('issuer=Latchkey');
  // The pending secret stays until refreshed.
  expect((await get('auth/twoFactor')).json().otpauthUri).toBe(state.otpauthUri);

  const change = (payload: object) =>
    t.request({ method: 'POST', url: '/api3/auth/twoFactor', token: person.token, payload: t.seal(payload) });
  const wrong = await change({ enable: true, code: totp(secret, now() - 3600) });
  expect(wrong.statusCode).toBe(400);
  // The time the code was made for: the tests ask for the very code used here (and the next
  // step's), not for whatever step the clock is in by then; under load a test can cross a 30 s
  // boundary, and a code of the new step is rightly accepted.
  const enabledAt = now();
  const enableCode = totp(secret, enabledAt);
  const enabled = await change({ enable: true, code: enableCode });
  expect(enabled.statusCode).toBe(200);
  expect(enabled.json().recoveryCodes).toHaveLength(10);
  return {
    person,
    secret,
    enabledAt,
    enableCode,
    recoveryCodes: enabled.json().recoveryCodes as string[],
    change,
  };
}

describe('two-factor sign-in', () => {
  it('asks for a code after the password, accepts each code once, and refuses a pre-auth token as a session', async () => {
    const { secret, enabledAt, enableCode } = await enableFor('tara@example.com', 'tara passphrase 1');
    const login = await t.login('tara@example.com', 'tara passphrase 1');
    expect(login.statusCode).toBe(200);
    const challenge = login.json();
    expect(challenge).toMatchObject({ twoFactorRequired: true });
    expect(challenge.token).toBeUndefined();
    expect(
      (await t.request({ method: 'GET', url: '/api3/auth', token: challenge.preAuthToken })).statusCode,
    ).toBe(401);

    const finish = (code: string, token = challenge.preAuthToken) =>
      t.request({ method: 'POST', url: '/api3/auth/twoFactorCode', token, payload: { code } });
    expect((await finish('000000')).statusCode).toBe(400);
    expect((await finish('12ab')).statusCode).toBe(400);
    // The code used to turn it on cannot be used again; the next step's code can.
    expect((await finish(enableCode)).statusCode).toBe(400);
    const nextCode = totp(secret, enabledAt + 30);
    const done = await finish(nextCode);
    expect(done.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api3/auth', token: done.json().token })).statusCode).toBe(
      200,
    );
    // The pre-authentication token finished a sign-in: it is used up, even with a fresh code.
    const reused = await finish(totp(secret, enabledAt + 60));
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error.message).toMatch(/already used/);
    // A new one does not take the code already used.
    const again = (await t.login('tara@example.com', 'tara passphrase 1')).json().preAuthToken;
    expect((await finish(nextCode, again)).statusCode).toBe(400);
    expect(
      (await t.request({ method: 'POST', url: '/api3/auth/twoFactorCode', payload: { code: '123456' } }))
        .statusCode,
    ).toBe(401);
    const state = (
      await t.request({ method: 'GET', url: '/api3/auth/twoFactor', token: done.json().token })
    ).json();
    expect(state).toEqual({ enabled: true, otpauthUri: null, qrCode: null, recoveryCodesLeft: 10 });
  });

  it('takes a recovery code once, limits wrong codes, and turns off with password and code', async () => {
    const { recoveryCodes, change } = await enableFor('uma@example.com', 'uma passphrase 1');
    const challenge = async () => (await t.login('uma@example.com', 'uma passphrase 1')).json().preAuthToken;
    const finish = (token: string, code: string) =>
      t.request({ method: 'POST', url: '/api3/auth/twoFactorCode', token, payload: { code } });
    const token = await challenge();
    expect((await finish(token, recoveryCodes[0]!.toUpperCase())).statusCode).toBe(200);
    expect((await finish(await challenge(), recoveryCodes[0]!)).statusCode).toBe(400);

    expect(
      (await change({ enable: false, password: 'wrong password', code: recoveryCodes[1] })).statusCode,
    ).toBe(400);
    const off = await change({ enable: false, password: 'uma passphrase 1', code: recoveryCodes[1] });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false, recoveryCodes: [] });
    expect((await t.login('uma@example.com', 'uma passphrase 1')).json().token).toBeTruthy();

    const { person } = await enableFor('vic@example.com', 'vic passphrase 1');
    const vic = (await t.login('vic@example.com', 'vic passphrase 1')).json().preAuthToken;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await finish(vic, '000000')).statusCode);
    // Five wrong codes in five minutes, counting the wrong one at set-up: then 429.
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    expect(person.userId).toBeTruthy();
  });

  it('makes a new secret only while off', async () => {
    const person = await t.signUp({ email: 'wes@example.com' });
    const first = (
      await t.request({ method: 'GET', url: '/api3/auth/twoFactor', token: person.token })
    ).json();
    const refreshed = await t.request({
      method: 'POST',
      url: '/api3/auth/refreshTwoFactor',
      token: person.token,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().otpauthUri).not.toBe(first.otpauthUri);
    const { person: on } = await enableFor('xia@example.com', 'xia passphrase 1');
    expect(
      (await t.request({ method: 'POST', url: '/api3/auth/refreshTwoFactor', token: on.token })).statusCode,
    ).toBe(409);
  });
});

describe('pre-authentication tokens', () => {
  it('finish one sign-in only, on every server of the database', async () => {
    const { secret, enabledAt } = await enableFor('yan@example.com', 'yan passphrase 1');
    const preAuthToken = (await t.login('yan@example.com', 'yan passphrase 1')).json().preAuthToken;
    // A second server on the same database, as behind a load balancer.
    const other = await TestApp.start({
      DATA_DIR: t.app.config.DATA_DIR,
      ...(t.app.config.DATABASE_URL && { DATABASE_URL: t.app.config.DATABASE_URL }),
    });
    try {
      const finish = (app: TestApp, code: string) =>
        app.request({
          method: 'POST',
          url: '/api3/auth/twoFactorCode',
          token: preAuthToken,
          payload: { code },
        });
      expect((await finish(t, totp(secret, enabledAt + 30))).statusCode).toBe(200);
      const replay = await finish(other, totp(secret, enabledAt + 60));
      expect(replay.statusCode).toBe(401);
      expect(replay.json().error.code).toBe('unauthorized');
    } finally {
      await other.close();
    }
  });
});
