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
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createAccount } from '../src/features/auth/account.service';
import { insertMembership } from '../src/features/portals/memberships.repository';
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
    const { databaseUrl, dropDatabase } = await freshPostgresDatabase();
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'false',
      MAIL_POLL_MS: '0', // tests send due mail themselves (app.mail.sendDue())
      MQTT_PORT: '0', // each test app embeds its own broker on a free port
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

  /** Signs a person up through the API; answers their token, id and own portal id. */
  async signUp(input: Partial<CreateAccountInput> = {}) {
    const email = input.email ?? `person-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const response = await this.request({
      method: 'POST',
      url: '/api3/auth/create',
      payload: this.seal({ password: 'a sturdy passphrase', firstName: 'Test', ...input, email }),
    });
    if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.body}`);
    const { token } = response.json<TokenResponse>();
    const session = (await this.request({ method: 'GET', url: '/api3/auth', token })).json();
    return { token, email, userId: session.user._id as string, portalId: session.portalOwned as string };
  }

  /** Adds an existing person to a portal directly in the database (invitations come later). */
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
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
