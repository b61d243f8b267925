import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  decodeBase64,
  newBoxKeyPair,
  PORTAL_OVERRIDE_HEADER,
  sealPayload,
  type CreateAccountInput,
  type TokenResponse,
} from '@latchkey/shared';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createAccount } from '../src/features/auth/accounts';
import { insertMembership } from '../src/base/tenancy/memberships.repository';
import type { MembershipStatus, PortalRole } from '@latchkey/shared';

/**
 * The real server over a fresh database built by the migrations: a SQLite file in a temporary
 * folder, or, when TEST_DATABASE_URL names a PostgreSQL server, a new database on it.
 */
export class TestApp {
  private constructor(
    readonly app: FastifyInstance,
    private readonly cleanup: () => Promise<void>,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<TestApp> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-test-'));
    // A second server of a test names the first one's database (or, on SQLite, its folder) in `env`.
    const { databaseUrl, dropDatabase } = env.DATABASE_URL
      ? { databaseUrl: undefined, dropDatabase: async () => {} }
      : await freshPostgresDatabase();
    if (!databaseUrl && !env.DATABASE_URL && !env.DATA_DIR) {
      // The migrations ran once for the suite (global-setup.ts); the app finds none left to apply.
      const migrated = inject('migratedSqliteFile');
      fs.copyFileSync(migrated, path.join(dataDir, path.basename(migrated)));
    }
    const config = loadConfig({
      DATA_DIR: dataDir,
      // Silent; TEST_LOG_LEVEL=error shows what the apps log while chasing a failure.
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DEMO_DATA: 'false',
      MAIL_POLL_MS: '0', // tests send due mail themselves (app.mail.sendDue())
      BILLING_CLOSE_INTERVAL_S: '0', // tests close months themselves (billing.service.ts closeMonth)
      MQTT_PORT: '0', // each test app embeds its own broker on a free port
      // Tests of other features add as many locks as they need; plan tests turn the Free plan's
      // allowance on (subscription-integrity.test.ts).
      PLAN_LOCK_LIMITS: 'false',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
      ...env,
    });
    let app: FastifyInstance;
    try {
      app = await buildApp(config);
    } catch (error) {
      // A start-up refusal (a taken MQTT_PORT) leaves no database or folder behind.
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
    await app.ready();
    return new TestApp(app, async () => {
      await app.close();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  }

  close(): Promise<void> {
    return this.cleanup();
  }

  /** A request as a client sends it; `token` and `portal` set the auth and override headers. */
  request(options: InjectOptions & { token?: string; portal?: string }) {
    const { token, portal, headers, ...rest } = options;
    return this.app.inject({
      ...rest,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(portal && { [PORTAL_OVERRIDE_HEADER]: portal }),
        ...headers,
      },
    });
  }

  /** Seals a payload to this server's public key, as the web client does. */
  seal(payload: unknown, nowMs?: number) {
    return sealPayload(payload, this.app.secrets.seal.publicKey, newBoxKeyPair(), nowMs);
  }

  /** Seals with the key the server publishes, proving GET auth/sealKey is the right one. */
  async sealWithPublishedKey(payload: unknown) {
    const { publicKey } = (await this.request({ method: 'GET', url: '/api3/auth/sealKey' })).json();
    return sealPayload(payload, decodeBase64(publicKey), newBoxKeyPair());
  }

  async login(email: string, password: string, extra: Record<string, unknown> = {}) {
    return this.request({
      method: 'POST',
      url: '/api3/auth/secure/login',
      payload: this.seal({ email, password, ...extra }),
    });
  }

  /**
   * Signs a person up through the API; answers their token, id and own portal id. Their address
   * counts as confirmed (as if they had followed the verification mail, which tests of that flow
   * do for real with `verified: false`): an unconfirmed account may not invite anyone.
   */
  async signUp({ verified = true, ...input }: Partial<CreateAccountInput> & { verified?: boolean } = {}) {
    const email = input.email ?? `person-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const response = await this.request({
      method: 'POST',
      url: '/api3/auth/create',
      payload: this.seal({ password: 'a sturdy passphrase', firstName: 'Test', ...input, email }),
    });
    if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.body}`);
    const { token } = response.json<TokenResponse>();
    if (verified) {
      await this.app.db
        .updateTable('users')
        .set({ email_verified_at: new Date().toISOString() })
        .where('email', '=', email.trim().toLowerCase())
        .execute();
    }
    const session = (await this.request({ method: 'GET', url: '/api3/auth', token })).json();
    return { token, email, userId: session.user._id as string, portalId: session.portalOwned as string };
  }

  /**
   * Adds a person as an admin does (POST portal/user, an invitation by mail) and has them accept it
   * through the mailed link, choosing `password` if they have no account yet. Answers their id and,
   * for a new account, the session the acceptance signs them in with.
   */
  async addPerson(
    adminToken: string,
    input: { email: string; firstName?: string; lastName?: string; role?: PortalRole; portal?: string },
    password = 'a sturdy passphrase',
  ) {
    const { portal, ...body } = input;
    const added = await this.request({
      method: 'POST',
      url: '/api3/portal/user',
      token: adminToken,
      portal,
      payload: body,
    });
    if (added.statusCode !== 201) throw new Error(`adding ${input.email} failed: ${added.body}`);
    const userId = added.json().member._id as string;
    const answer = await this.request({
      method: 'POST',
      url: '/api3/user/inviteResponse',
      payload: this.seal({ token: await this.invitationToken(input.email), accept: true, password }),
      // The person follows the link from their own place (link uses are limited per address).
      remoteAddress: `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
    });
    if (answer.statusCode !== 200) throw new Error(`accepting for ${input.email} failed: ${answer.body}`);
    return { userId, token: (answer.json().session?.token as string | undefined) ?? null };
  }

  /** The link token of the newest invitation mailed to `email`. */
  async invitationToken(email: string): Promise<string> {
    const mails = await this.app.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', email.trim().toLowerCase())
      .where('template', '=', 'invitation')
      .orderBy('created_at', 'desc')
      .execute();
    const token = mails[0]?.text_body.match(/\/invite\?token=([\w-]+)/)?.[1];
    if (!token) throw new Error(`no invitation mailed to ${email}`);
    return token;
  }

  /** Adds an existing person to a portal directly in the database, skipping the invitation. */
  async addMember(portalId: string, userId: string, role: PortalRole, status: MembershipStatus = 'active') {
    const now = new Date().toISOString();
    await insertMembership(this.app.db, {
      portal_id: portalId,
      user_id: userId,
      role,
      status,
      created_at: now,
      updated_at: now,
    });
  }

  /** A platform superAdmin, made directly (there is no public way to become one). */
  async createSuperAdmin() {
    const email = `staff-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createAccount(
      this.app.db,
      { email, password: 'staff passphrase 1', firstName: 'Staff', lastName: '' },
      { platformRole: 'superAdmin' },
    );
    const { token } = (await this.login(email, 'staff passphrase 1')).json<TokenResponse>();
    return { token, email };
  }
}

async function freshPostgresDatabase(): Promise<{ databaseUrl?: string; dropDatabase: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { dropDatabase: async () => {} };
  const name = `latchkey_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const template = inject('migratedPostgresTemplate');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dropDatabase: async () => {
      // Without FORCE: wait for the app's pool to finish closing rather than cut it off.
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`drop database if exists ${name}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await client.end();
    },
  };
}
