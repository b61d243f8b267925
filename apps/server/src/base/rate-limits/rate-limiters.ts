import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError } from '../http/errors';

/** One limit: `points` per `duration` seconds, counted per key. */
export interface LimitOptions {
  keyPrefix: string;
  points: number;
  duration: number;
}

/**
 * Where the rate limits are counted: in this process, or in Redis (REDIS_URL) so that every server
 * of a deployment shares them and a restart does not clear them. Redis keys carry a namespace
 * derived from the token signing secret, which all servers of one deployment share (secrets.ts):
 * deployments (and test servers) on one Redis do not count against each other.
 */
export class RateLimitStore {
  private constructor(
    private readonly redis: Redis | null,
    private readonly namespace: string,
  ) {}

  /** The in-process store, or a connected Redis store; a Redis outage falls back to the process. */
  static async open(options: {
    redisUrl?: string;
    signingKey: Uint8Array;
    log: FastifyBaseLogger;
  }): Promise<RateLimitStore> {
    if (!options.redisUrl) return new RateLimitStore(null, '');
    const namespace = crypto
      .createHmac('sha256', options.signingKey)
      .update('latchkey rate limits')
      .digest('hex')
      .slice(0, 16);
    // Loaded only with REDIS_URL: ioredis costs about 0.1 s of CPU at every start.
    const { Redis } = await import('ioredis');
    const redis = new Redis(options.redisUrl, {
      connectionName: 'latchkey-rate-limits',
      // A request waits for one try, not for a reconnect: the in-process fallback answers instead.
      maxRetriesPerRequest: 1,
    });
    // ioredis reconnects by itself; without a listener an outage would crash the process.
    redis.on('error', (error: Error) =>
      options.log.warn({ err: error }, 'rate limits: Redis connection error'),
    );
    // Wait for the first connection (or its failure), so limits count in Redis from the first request.
    await new Promise<void>((resolve) => {
      redis.once('ready', resolve);
      redis.once('error', () => resolve());
    });
    return new RateLimitStore(redis, `latchkey:rl:${namespace}:`);
  }

  /** A limiter on this store; on Redis it falls back to an in-process one while Redis is away. */
  limiter(options: LimitOptions): RateLimiterAbstract {
    if (!this.redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      keyPrefix: this.namespace + options.keyPrefix,
      storeClient: this.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

/** Counts one point; 429 (with Retry-After) once the key has used up its points. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    throw asRateLimited(rejection);
  }
}

/** A limiter's refusal as the API's 429; other errors unchanged. */
export function asRateLimited(rejection: unknown): unknown {
  return rejection instanceof RateLimiterRes
    ? AppError.rateLimited(rejection.msBeforeNext / 1000)
    : rejection;
}
