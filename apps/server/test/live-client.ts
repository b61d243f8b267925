import type { AddressInfo } from 'node:net';
import { liveServerMessageSchema, type LiveServerMessage } from '@latchkey/shared';
import WebSocket from 'ws';
import type { TestApp } from './test-app';

/** A real WebSocket client: every message it receives, and how it was closed. */
export class LiveClient {
  readonly messages: LiveServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(liveServerMessageSchema.parse(JSON.parse(String(data))));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static async open(url: string): Promise<LiveClient> {
    const socket = new WebSocket(url);
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits for the first message (from `from` on) of this type; fails after `timeoutMs`. */
  async next<T extends LiveServerMessage['type']>(
    type: T,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<Extract<LiveServerMessage, { type: T }>> {
    const found = await this.waitFor((m) => m.type === type, `a ${type} message`, options);
    return found as Extract<LiveServerMessage, { type: T }>;
  }

  /** Waits for the first message (from `from` on) that matches; fails after `timeoutMs`. */
  async waitFor(
    matches: (message: LiveServerMessage) => boolean,
    what: string,
    { from = 0, timeoutMs = 3000 } = {},
  ): Promise<LiveServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(matches);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The portal messages received (not ready, subscribed or error). Messages reach a socket in the
   * order they were published, so once a later marker has arrived, what has not will not.
   */
  portalMessages(from = 0): LiveServerMessage[] {
    return this.messages.slice(from).filter((m) => !['ready', 'subscribed', 'error'].includes(m.type));
  }

  /** Authenticates and subscribes, waiting for each answer; the `subscribed` answer. */
  async join(token: string, portalId: string, missedMs?: number) {
    await this.authenticate(token);
    return this.subscribe(portalId, missedMs);
  }

  async authenticate(token: string): Promise<void> {
    this.send({ type: 'auth', token });
    await this.next('ready');
  }

  /** Subscribes (asking for what was published in the last `missedMs`); the `subscribed` answer. */
  async subscribe(portalId: string, missedMs?: number) {
    const from = this.messages.length;
    this.send({ type: 'subscribe', portalId, ...(missedMs === undefined ? {} : { missedMs }) });
    const answer = await Promise.race([this.next('subscribed', { from }), this.next('error', { from })]);
    if (answer.type === 'error') throw new Error(`subscribe refused: ${answer.message}`);
    return answer;
  }

  close(): void {
    this.socket.close();
  }
}

/** Starts the app listening on a free port; answers the live channel's URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/api3/live`;
}
