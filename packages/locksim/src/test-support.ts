import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import type { CredentialEntry, CredentialSet } from '@latchkey/shared';

// Test helpers: a real in-process MQTT broker and a plain mqtt.js client playing the server.

export const SERVER_LOGIN = { username: 'latchkey-server', password: 'server-secret' };

export interface TestBroker {
  url: string;
  broker: Aedes;
  close(): Promise<void>;
}

/**
 * An aedes broker that lets in the server and the given devices by secret, on a free port or on
 * `listenPort` (to restart a broker where its clients expect it).
 */
export async function startBroker(
  deviceSecrets: Record<string, string>,
  listenPort = 0,
): Promise<TestBroker> {
  const secrets = new Map(
    Object.entries({ ...deviceSecrets, [SERVER_LOGIN.username]: SERVER_LOGIN.password }),
  );
  const broker = await Aedes.createBroker({
    authenticate: (_client, username, password, done) => {
      if (username !== undefined && secrets.get(username) === password?.toString('utf8'))
        return done(null, true);
      const refusal = new Error('bad username or password') as AuthenticateError;
      refusal.returnCode = 4; // BAD_USERNAME_OR_PASSWORD (a const enum, not importable here)
      done(refusal, false);
    },
  });
  const server = createServer(broker.handle);
  server.listen(listenPort, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    broker,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ReceivedMessage {
  topic: string;
  body: unknown;
  retain: boolean;
}

/**
 * The server side of the protocol for a test: records every message under lk/v1/ and lets a test
 * wait for the first one (already received or still to come) that matches.
 */
export class FakeServer {
  readonly received: ReceivedMessage[] = [];
  private waiters: { match: (message: ReceivedMessage) => boolean; resolve: (m: ReceivedMessage) => void }[] =
    [];

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      const text = payload.toString('utf8');
      const message = { topic, body: parseBody(text), retain: packet.retain };
      this.received.push(message);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.match(message)) return true;
        waiter.resolve(message);
        return false;
      });
    });
  }

  static async connect(url: string): Promise<FakeServer> {
    const client = await connectAsync(url, { ...SERVER_LOGIN, clientId: 'test-server', reconnectPeriod: 0 });
    const server = new FakeServer(client);
    await client.subscribeAsync('lk/v1/#', { qos: 1 });
    return server;
  }

  /** The first message on `topic` matching `match`, counting those from `after` on. */
  waitFor(
    topic: string,
    match: (body: unknown) => boolean = () => true,
    { after = 0 }: { after?: number } = {},
  ): Promise<ReceivedMessage> {
    const matches = (message: ReceivedMessage) => message.topic === topic && match(message.body);
    const earlier = this.received.slice(after).find(matches);
    if (earlier) return Promise.resolve(earlier);
    return new Promise((resolve) => this.waiters.push({ match: matches, resolve }));
  }

  /** Messages on `topic` so far. */
  on(topic: string): unknown[] {
    return this.received.filter((message) => message.topic === topic).map((message) => message.body);
  }

  async publish(topic: string, body: unknown, { retain = false } = {}): Promise<void> {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    await this.client.publishAsync(topic, payload, { qos: 1, retain });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}

/** JSON bodies parsed; the test's own deliberately broken payloads kept as text. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A credential entry with the defaults of an active person with no limits. */
export function entry(
  overrides: Partial<CredentialEntry> & Pick<CredentialEntry, 'credentialId' | 'kind' | 'secret'>,
) {
  return {
    holderType: 'person',
    userId: 'user-1',
    userRole: 'user',
    userStatus: 'active',
    schedule: null,
    validFrom: null,
    validUntil: null,
    ...overrides,
  } satisfies CredentialEntry;
}

export function credentialSet(deviceId: string, version: number, entries: CredentialEntry[]): CredentialSet {
  return { deviceId, version, timeZone: 'Europe/Berlin', entries, lockouts: [] };
}
