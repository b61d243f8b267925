import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** Receives each published message of a watched portal, as the JSON text sent to sockets. */
export type LiveDelivery = (portalId: string, json: string) => void;

/**
 * Carries live messages between the servers that publish them and the servers holding the
 * subscribed sockets. A server watches a portal while at least one of its sockets subscribes to it.
 */
export interface LiveBus {
  /** True when every portal's messages reach this server, watched or not (one process). */
  readonly deliversEveryPortal: boolean;
  publish(portalId: string, json: string): Promise<void>;
  /** Resolves once messages published afterwards are delivered here. */
  watch(portalId: string): Promise<void>;
  unwatch(portalId: string): Promise<void>;
  close(): Promise<void>;
}

/** One server process: a published message goes straight to this process's sockets. */
export class InProcessLiveBus implements LiveBus {
  readonly deliversEveryPortal = true;

  constructor(private readonly deliver: LiveDelivery) {}

  async publish(portalId: string, json: string): Promise<void> {
    this.deliver(portalId, json);
  }
  async watch(): Promise<void> {}
  async unwatch(): Promise<void> {}
  async close(): Promise<void> {}
}

const CHANNEL_PREFIX = 'latchkey:live:';

/**
 * Several server processes: messages go through Redis pub/sub, one channel per portal, and each
 * server subscribes only to the portals its sockets watch. The publisher hears its own message
 * back from Redis like every other server, so local sockets are not served twice.
 */
export class RedisLiveBus implements LiveBus {
  readonly deliversEveryPortal = false;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  /** Portal id → how many local subscriptions watch it. */
  private readonly watchers = new Map<string, number>();

  constructor(url: string, deliver: LiveDelivery, log: FastifyBaseLogger) {
    // Loaded only with REDIS_URL: ioredis costs about 0.1 s of CPU at every start.
    const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    // Auto-pipelining: the live messages of one batch of lock events go out in one write.
    this.publisher = new Redis(url, { connectionName: 'latchkey-live-publish', enableAutoPipelining: true });
    this.subscriber = new Redis(url, { connectionName: 'latchkey-live-subscribe' });
    for (const client of [this.publisher, this.subscriber]) {
      // ioredis reconnects by itself; without a listener an outage would crash the process.
      client.on('error', (error: Error) => log.warn({ err: error }, 'live channel: Redis connection error'));
    }
    this.subscriber.on('message', (channel: string, json: string) => {
      if (channel.startsWith(CHANNEL_PREFIX)) deliver(channel.slice(CHANNEL_PREFIX.length), json);
    });
  }

  async publish(portalId: string, json: string): Promise<void> {
    await this.publisher.publish(CHANNEL_PREFIX + portalId, json);
  }

  async watch(portalId: string): Promise<void> {
    const count = this.watchers.get(portalId) ?? 0;
    this.watchers.set(portalId, count + 1);
    // Every watcher awaits a SUBSCRIBE: replies come in order on the one connection, so even the
    // second watcher of a portal whose first SUBSCRIBE is still in flight resumes only after it.
    await this.subscriber.subscribe(CHANNEL_PREFIX + portalId);
  }

  async unwatch(portalId: string): Promise<void> {
    const count = (this.watchers.get(portalId) ?? 0) - 1;
    if (count > 0) {
      this.watchers.set(portalId, count);
      return;
    }
    this.watchers.delete(portalId);
    await this.subscriber.unsubscribe(CHANNEL_PREFIX + portalId);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }
}
