import { EventEmitter } from 'node:events';
import { connect, type MqttClient } from 'mqtt';
import {
  enrollCancelSchema,
  enrollRequestSchema,
  parseReaderTopic,
  readerReads,
  readerTopic,
  type EnrollmentKind,
  type EnrollRequest,
  type EnrollResult,
  type ReaderKind,
  type ReaderServerTopic,
  type ReaderStatus,
  type ReaderTopic,
} from '@latchkey/shared';

export interface SimulatedReaderOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1883. */
  url: string;
  readerId: string;
  secret: string;
  /** What it reads (default both). */
  kind?: ReaderKind;
  firmware?: string;
  /** Status heartbeat while connected (default 30 s; 0 turns it off). */
  heartbeatSeconds?: number;
  /** The reader's clock, for expiries and status times. */
  now?: () => Date;
  reconnectPeriodMs?: number;
}

/** What the reader did with a card or a finger presented to it. */
export type Presentation =
  | { answered: true; requestId: string; kind: EnrollmentKind; value: string }
  | { answered: false; reason: string };

export interface SimulatedReaderEvents {
  connected: [readerId: string];
  disconnected: [readerId: string];
  /** The server asks for a card or a finger: the reader waits for one until expiresAt. */
  enrollRequested: [request: EnrollRequest];
  /** The reader answered a request. */
  answered: [result: EnrollResult];
  /** A request ended without an answer: cancelled by the server, or past its expiry. */
  requestEnded: [ended: { requestId: string; why: 'cancelled' | 'expired' }];
  ignored: [ignored: { topic: string; reason: string }];
  connectionError: [error: Error];
}

/**
 * A desk enrollment reader (docs/device-protocol.md §7) over its own MQTT connection, as a lock
 * connects: its reader id as client id and username, its secret as password, a retained status with
 * a last will. It waits for one `enroll` request at a time and answers it with the next card tapped or
 * finger scanned (the newest request replaces a waiting one, which is answered `busy`).
 */
export class SimulatedReader extends EventEmitter<SimulatedReaderEvents> {
  readonly readerId: string;
  readonly kind: ReaderKind;
  private readonly options: SimulatedReaderOptions;
  private readonly now: () => Date;
  private client: MqttClient | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private expiry: NodeJS.Timeout | null = null;
  private waiting: EnrollRequest | null = null;

  constructor(options: SimulatedReaderOptions) {
    super();
    this.options = options;
    this.readerId = options.readerId;
    this.kind = options.kind ?? 'both';
    this.now = options.now ?? (() => new Date());
  }

  /** The request the reader waits on, if any. */
  get pending(): EnrollRequest | null {
    return this.waiting;
  }

  get online(): boolean {
    return this.client?.connected ?? false;
  }

  private topic(topic: ReaderTopic | ReaderServerTopic): string {
    return readerTopic(this.readerId, topic);
  }

  /** Connects (or reconnects after goOffline); resolves once connected, rejects when refused. */
  start(): Promise<void> {
    if (this.client) return this.client.connected ? Promise.resolve() : waitForConnect(this.client);
    const retries = (this.options.reconnectPeriodMs ?? 1000) > 0;
    const client = connect(this.options.url, {
      clientId: this.readerId,
      username: this.readerId,
      password: this.options.secret,
      clean: true,
      resubscribe: false,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 1000,
      keepalive: 30,
      will: {
        topic: this.topic('status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    client.on('connect', () => void this.onConnect(client));
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
    client.on('close', () => {
      this.stopHeartbeat();
      this.emit('disconnected', this.readerId);
    });
    client.on('error', (error) => this.emit('connectionError', error));
    return waitForConnect(client, retries);
  }

  /** 'drop' cuts the connection (the broker publishes the last will); 'clean' says goodbye first. */
  async goOffline(mode: 'drop' | 'clean' = 'drop'): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    this.stopHeartbeat();
    this.clearWaiting();
    if (mode === 'clean' && client.connected) {
      const goodbye: ReaderStatus = { online: false, ts: this.now().toISOString() };
      await client.publishAsync(this.topic('status'), JSON.stringify(goodbye), { qos: 1, retain: true });
    }
    await client.endAsync(mode === 'drop');
  }

  stop(): Promise<void> {
    return this.goOffline('clean');
  }

  /** A card is tapped: answers the waiting card request with its UID. */
  tap(uid: string): Promise<Presentation> {
    return this.present('rfid', uid);
  }

  /** A finger is enrolled: answers the waiting fingerprint request with the template id it got. */
  finger(templateId: string): Promise<Presentation> {
    return this.present('fingerprint', templateId);
  }

  /**
   * Publishes any `enroll/result` as it is, for tests of what the server ignores (an unknown
   * request, another reader's, an expired one).
   */
  async sendResult(result: EnrollResult): Promise<void> {
    const client = this.client;
    if (!client?.connected) throw new Error(`${this.readerId} is not connected`);
    await client.publishAsync(this.topic('enroll/result'), JSON.stringify(result), { qos: 1 });
  }

  /**
   * Publishes on any topic, for tests of the broker's ACL: true once the broker acknowledged it,
   * false when it ended the connection instead (MQTT 3.1.1 refuses a publish so).
   */
  publishRaw(topic: string, payload: string): Promise<boolean> {
    const client = this.client;
    if (!client?.connected) return Promise.reject(new Error(`${this.readerId} is not connected`));
    return new Promise((resolve) => {
      client.once('close', () => resolve(false));
      client.publishAsync(topic, payload, { qos: 1 }).then(
        () => resolve(true),
        () => resolve(false),
      );
    });
  }

  private async present(kind: EnrollmentKind, value: string): Promise<Presentation> {
    const request = this.waiting;
    if (!readerReads(this.kind, kind)) {
      return {
        answered: false,
        reason: `this reader reads no ${kind === 'rfid' ? 'cards' : 'fingerprints'}`,
      };
    }
    if (!request) return { answered: false, reason: 'no enrollment is waiting' };
    if (request.kind !== kind)
      return { answered: false, reason: `the waiting enrollment asks for ${request.kind}` };
    if (new Date(request.expiresAt) <= this.now()) {
      this.endWaiting('expired');
      return { answered: false, reason: 'the waiting enrollment expired' };
    }
    this.clearWaiting();
    const result: EnrollResult = { requestId: request.requestId, ok: true, kind, value };
    await this.sendResult(result);
    this.emit('answered', result);
    return { answered: true, requestId: request.requestId, kind, value };
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.emit('connected', this.readerId);
    try {
      await client.subscribeAsync([this.topic('enroll'), this.topic('enroll/cancel')], { qos: 1 });
    } catch (error) {
      this.emit('connectionError', error as Error);
      return;
    }
    if (client !== this.client) return;
    this.publishStatus();
    const seconds = this.options.heartbeatSeconds ?? 30;
    this.stopHeartbeat();
    if (seconds > 0) this.heartbeat = setInterval(() => this.publishStatus(), seconds * 1000);
  }

  private publishStatus(): void {
    const status: ReaderStatus = {
      online: true,
      firmware: this.options.firmware ?? 'locksim-reader-1.0',
      ts: this.now().toISOString(),
    };
    this.client?.publish(this.topic('status'), JSON.stringify(status), { qos: 1, retain: true });
  }

  private onMessage(topic: string, payload: Buffer): void {
    const parsed = parseReaderTopic(topic);
    if (!parsed || parsed.readerId !== this.readerId) {
      this.emit('ignored', { topic, reason: 'not this reader’s topic' });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.emit('ignored', { topic, reason: 'not JSON' });
      return;
    }
    if (parsed.topic === 'enroll/cancel') {
      const cancel = enrollCancelSchema.safeParse(json);
      if (cancel.success && this.waiting?.requestId === cancel.data.requestId) this.endWaiting('cancelled');
      return;
    }
    const request = enrollRequestSchema.safeParse(json);
    if (!request.success) {
      this.emit('ignored', { topic, reason: 'invalid enroll request' });
      return;
    }
    void this.onEnroll(request.data);
  }

  private async onEnroll(request: EnrollRequest): Promise<void> {
    const refuse = async (error: 'unsupported' | 'expired' | 'busy', requestId = request.requestId) => {
      const result: EnrollResult = { requestId, ok: false, error };
      await this.sendResult(result).catch((failure: Error) => this.emit('connectionError', failure));
      this.emit('answered', result);
    };
    if (!readerReads(this.kind, request.kind)) return refuse('unsupported');
    const remaining = new Date(request.expiresAt).getTime() - this.now().getTime();
    if (remaining <= 0) return refuse('expired');
    const previous = this.waiting;
    if (previous && previous.requestId !== request.requestId) await refuse('busy', previous.requestId);
    this.clearWaiting();
    this.waiting = request;
    this.expiry = setTimeout(() => this.endWaiting('expired'), remaining);
    this.emit('enrollRequested', request);
  }

  private endWaiting(why: 'cancelled' | 'expired'): void {
    const request = this.waiting;
    this.clearWaiting();
    if (request) this.emit('requestEnded', { requestId: request.requestId, why });
  }

  private clearWaiting(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
    this.waiting = null;
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

function waitForConnect(client: MqttClient, retries = true): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      client.off('connect', onConnect);
      client.off('error', onError);
    };
    const onConnect = () => {
      settle();
      resolve();
    };
    const onError = (error: Error & { code?: unknown }) => {
      // A refused login (a CONNACK code) ends the wait; network errors are retried by mqtt.js.
      if (retries && typeof error.code !== 'number') return;
      settle();
      reject(error);
    };
    client.on('connect', onConnect);
    client.on('error', onError);
  });
}
