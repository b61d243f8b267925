import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_EMAIL: '3' });
});
afterAll(() => t.close());

describe('POST auth/create', () => {
  it('creates the person and their own portal, lower-casing and trimming the email', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api3/auth/create',
      payload: await t.sealWithPublishedKey({
        email: '  Grace.Hopper@Example.COM ',
        password: 'a sturdy passphrase',
        firstName: 'Grace',
        lastName: 'Hopper',
        portalName: 'Hopper Lofts',
      }),
    });
    expect(response.statusCode).toBe(201);
    const { token, expiresAt } = response.json();
    const claims = decodeJwt(token);
    expect(claims.exp).toBe(Math.floor(new Date(expiresAt).getTime() / 1000));
    expect(claims.exp! - Date.now() / 1000).toBeGreaterThan(3600);

    const session = (await t.request({ method: 'GET', url: '/api3/auth', token })).json();
    expect(session.user).toMatchObject({
      email: 'grace.hopper@example.com',
      firstName: 'Grace',
      platformRole: null,
    });
    expect(session.user).not.toHaveProperty('passwordHash');
    expect(session.portal).toMatchObject({ name: 'Hopper Lofts', ownerId: session.user._id, current: false });
    expect(session.portalOwned).toBe(session.portal._id);
    expect(session.roles).toEqual(['admin']);
    expect(session.permissions).toContain('portal.edit');
    expect(session.memberships).toEqual([
      {
        portal: { _id: session.portal._id, name: 'Hopper Lofts' },
        role: 'admin',
        status: 'active',
        owner: true,
      },
    ]);
  });

  it('stores the password as argon2id at 19 MiB and two passes, and signs in with it', async () => {
    // The suite hashes cheaply (apps/server/vitest.config.ts); a server runs without that variable.
    const cheap = process.env.LATCHKEY_TEST_CHEAP_PASSWORD_HASH;
    delete process.env.LATCHKEY_TEST_CHEAP_PASSWORD_HASH;
    try {
      const { email } = await t.signUp({ password: 'the production hash' });
      const user = await t.app.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect((await t.login(email, 'the production hash')).statusCode).toBe(200);
      expect((await t.login(email, 'not the production hash')).statusCode).toBe(401);
    } finally {
      if (cheap !== undefined) process.env.LATCHKEY_TEST_CHEAP_PASSWORD_HASH = cheap;
    }
  });

  it('answers 409 for an email that exists, whatever its case', async () => {
    const { email } = await t.signUp();
    const response = await t.request({
      method: 'POST',
      url: '/api3/auth/create',
      payload: t.seal({ email: email.toUpperCase(), password: 'another passphrase' }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'conflict',
      message: 'An account with this email already exists',
    });
  });

  it.each([
    [{ email: 'not-an-email', password: 'a sturdy passphrase' }, 'body.email'],
    [{ email: 'a@example.com', password: 'short' }, 'body.password'],
    [{ email: 'a@example.com', password: 'x'.repeat(129) }, 'body.password'],
    [{ email: 'a@example.com', password: 'password123' }, 'body.password'],
    [{ email: 'a@example.com', password: 'Iloveyou1' }, 'body.password'],
  ])('refuses bad input %j with a 400 naming the field', async (payload, field) => {
    const response = await t.request({ method: 'POST', url: '/api3/auth/create', payload: t.seal(payload) });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('bad_request');
    expect(error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('refuses a body that is not sealed', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api3/auth/create',
      payload: { email: 'plain@example.com', password: 'a sturdy passphrase' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/sealed envelope/);
  });
});

describe('sealed envelopes', () => {
  const payload = { email: 'nobody@example.com', password: 'whatever it is' };

  it('refuses a replayed envelope', async () => {
    const envelope = t.seal(payload);
    const first = await t.request({ method: 'POST', url: '/api3/auth/secure/login', payload: envelope });
    expect(first.statusCode).toBe(401);
    const replay = await t.request({ method: 'POST', url: '/api3/auth/secure/login', payload: envelope });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toBe('The sealed payload was already used');
  });

  it('refuses an envelope whose nonce is more than 5 minutes from our clock', async () => {
    for (const skew of [-6 * 60_000, 6 * 60_000]) {
      const response = await t.request({
        method: 'POST',
        url: '/api3/auth/secure/login',
        payload: t.seal(payload, Date.now() + skew),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/too old or from the future/);
    }
  });

  it('refuses a tampered envelope and one sealed to another key', async () => {
    const envelope = t.seal(payload);
    const m = Buffer.from(envelope.m, 'base64');
    m[3] = m[3]! ^ 0xff;
    const tampered = await t.request({
      method: 'POST',
      url: '/api3/auth/secure/login',
      payload: { ...envelope, m: m.toString('base64') },
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().error.message).toBe('The sealed payload does not open');
  });

  it('refuses malformed JSON and wrong content types with a 4xx', async () => {
    const broken = await t.request({
      method: 'POST',
      url: '/api3/auth/secure/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"m":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('bad_request');
    const text = await t.request({
      method: 'POST',
      url: '/api3/auth/secure/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(400);
    const xml = await t.request({
      method: 'POST',
      url: '/api3/auth/secure/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error.code).toBe('unsupported_media_type');
  });
});

describe('POST auth/secure/login', () => {
  it('signs in with the right password, whatever the case of the email', async () => {
    const { email } = await t.signUp({ password: 'correct horse battery' });
    const response = await t.login(email.toUpperCase(), 'correct horse battery');
    expect(response.statusCode).toBe(200);
    expect(decodeJwt(response.json().token).sub).toBeTypeOf('string');
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const { email } = await t.signUp();
    const wrong = await t.login(email, 'not the password');
    const unknown = await t.login('ghost@example.com', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.code).toBe('invalid_credentials');
  });

  it('answers 429 with Retry-After after too many failures for one email, even with the right password', async () => {
    const { email } = await t.signUp({ password: 'correct horse battery' });
    for (let i = 0; i < 3; i++) expect((await t.login(email, `wrong ${i}`)).statusCode).toBe(401);
    const blocked = await t.login(email, 'correct horse battery');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().error.code).toBe('rate_limited');
  });

  it("does not let one address's failures lock the owner out from another (OWASP)", async () => {
    const password = 'correct horse battery';
    const { email } = await t.signUp({ password });
    const from = (remoteAddress: string, tried: string) =>
      t.request({
        method: 'POST',
        url: '/api3/auth/secure/login',
        payload: t.seal({ email, password: tried }),
        remoteAddress,
      });
    const attacker = '203.0.113.7';
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await from(attacker, `guess ${i}`)).statusCode);
    // LOGIN_LIMIT_PER_EMAIL is 3 here.
    expect(statuses).toEqual([401, 401, 401, ...Array(9).fill(429)]);
    expect((await from(attacker, password)).statusCode).toBe(429);

    // The owner, from an address that has not failed for the account, signs in.
    expect((await from('198.51.100.20', password)).statusCode).toBe(200);
    // That does not give the attacker new guesses.
    expect((await from(attacker, password)).statusCode).toBe(429);
    // While the account has had that many failures, an address that fails once is refused at once.
    const another = '203.0.113.8';
    expect((await from(another, 'guess')).statusCode).toBe(401);
    const refused = await from(another, password);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps the admin host for platform staff', async () => {
    const { email } = await t.signUp({ password: 'correct horse battery' });
    const response = await t.login(email, 'correct horse battery', { systemType: 'admin' });
    expect(response.statusCode).toBe(403);
    const staff = await t.createSuperAdmin();
    expect(staff.token).toBeTypeOf('string');
  });
});

describe('sessions', () => {
  it('answers 401 without a token, with a tampered one and with an expired one', async () => {
    const { token, userId } = await t.signUp();
    expect((await t.request({ method: 'GET', url: '/api3/auth' })).statusCode).toBe(401);

    const [head, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forgedBody = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    const tampered = await t.request({
      method: 'GET',
      url: '/api3/auth',
      token: `${head}.${forgedBody}.${signature}`,
    });
    expect(tampered.statusCode).toBe(401);

    const expired = await new SignJWT({ typ: 'session', tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(t.app.secrets.jwtKey);
    const response = await t.request({ method: 'GET', url: '/api3/auth', token: expired });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toMatch(/expired/);

    const otherKey = await new SignJWT({ typ: 'session', tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expect((await t.request({ method: 'GET', url: '/api3/auth', token: otherKey })).statusCode).toBe(401);
  });

  it('revokes the token on sign-out', async () => {
    const { token } = await t.signUp();
    expect((await t.request({ method: 'POST', url: '/api3/auth/logout', token })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api3/auth', token })).statusCode).toBe(401);
  });
});

describe('own profile and password', () => {
  it('changes the name', async () => {
    const { token } = await t.signUp();
    const response = await t.request({
      method: 'POST',
      url: '/api3/auth/profile',
      token,
      payload: { firstName: ' Ada ', lastName: 'Lovelace' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    const tooLong = await t.request({
      method: 'POST',
      url: '/api3/auth/profile',
      token,
      payload: { firstName: 'x'.repeat(81), lastName: '' },
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('changes the password only with the current one, ending other sessions', async () => {
    const { token, email } = await t.signUp({ password: 'first passphrase 1' });
    const wrong = await t.request({
      method: 'POST',
      url: '/api3/auth/password',
      token,
      payload: t.seal({ currentPassword: 'not it', newPassword: 'second passphrase 2' }),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details[0].path).toBe('body.currentPassword');

    const changed = await t.request({
      method: 'POST',
      url: '/api3/auth/password',
      token,
      payload: t.seal({ currentPassword: 'first passphrase 1', newPassword: 'second passphrase 2' }),
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api3/auth', token })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'GET', url: '/api3/auth', token: changed.json().token })).statusCode,
    ).toBe(200);
    expect((await t.login(email, 'first passphrase 1')).statusCode).toBe(401);
    expect((await t.login(email, 'second passphrase 2')).statusCode).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('sign-in limits across servers (Redis)', () => {
  it('counts failures once for every server, so a second server refuses the address too', async () => {
    const limits = { REDIS_URL: redisUrl!, LOGIN_LIMIT_PER_EMAIL: '3' };
    const first = await TestApp.start(limits);
    // A second server on the same database and secrets, as behind a load balancer.
    const second = await TestApp.start({
      ...limits,
      DATA_DIR: first.app.config.DATA_DIR,
      ...(first.app.config.DATABASE_URL && { DATABASE_URL: first.app.config.DATABASE_URL }),
    });
    try {
      const password = 'correct horse battery';
      const { email } = await first.signUp({ password });
      const login = (server: TestApp, remoteAddress: string, tried: string) =>
        server.request({
          method: 'POST',
          url: '/api3/auth/secure/login',
          payload: server.seal({ email, password: tried }),
          remoteAddress,
        });
      for (let i = 0; i < 3; i++)
        expect((await login(first, '203.0.113.9', `guess ${i}`)).statusCode).toBe(401);
      expect((await login(second, '203.0.113.9', password)).statusCode).toBe(429);
      expect((await login(second, '198.51.100.21', password)).statusCode).toBe(200);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
