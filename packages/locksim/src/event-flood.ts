import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { connectAsync, type MqttClient } from 'mqtt';

/**
 * Many locks sending lock events as fast as their acks allow, as device protocol v1 asks of a real
 * lock: at most `inFlight` events awaiting `events/ack`, and an event whose ack has not come after
 * `resendAfterMs` is sent again (the same event id). What a fleet needs resent is what the broker or
 * the servers lost on the way, so a run that loses nothing resends nothing. Used by the scale-out
 * test (it fails on any resend) and the broker bench (events/s).
 */
export interface EventFloodOptions {
  /** The locks' listener. */
  url: string;
  locks: { deviceId: string; secret: string }[];
  eventsPerLock: number;
  inFlight: number;
  /** Device protocol v1: a lock resends what is not acknowledged after 5 s. */
  resendAfterMs?: number;
  /** Gives up on events not acknowledged by then (they count as unacknowledged). */
  timeoutMs?: number;
  /** Logins in flight at once while the fleet connects. */
  connectConcurrency?: number;
}

export interface EventFloodResult {
  sent: number;
  acknowledged: number;
  /** Events sent again because their ack had not come within `resendAfterMs`. */
  resent: number;
  /** Acks naming an event already acknowledged (a resend that was not needed after all). */
  duplicateAcks: number;
  /** Events never acknowledged within `timeoutMs`. */
  unacknowledged: number;
  connectSeconds: number;
  /** The longest any event waited for its ack, in ms (resends included). */
  slowestAckMs: number;
  /** From the first event sent to the last acknowledged. */
  seconds: number;
  eventsPerSecond: number;
  /** Every event id, per lock, to check what the server stored. */
  eventIds: Map<string, string[]>;
}

/** Runs `work` over `items` with at most `concurrency` at once. */
async function inBatches<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

export async function floodEvents(options: EventFloodOptions): Promise<EventFloodResult> {
  const resendAfterMs = options.resendAfterMs ?? 5000;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const eventIds = new Map<string, string[]>();
  let sent = 0;
  let acknowledged = 0;
  let resent = 0;
  let duplicateAcks = 0;
  let lastAckAt = 0;
  let slowestAckMs = 0;
  const total = options.locks.length * options.eventsPerLock;
  let allAcknowledged: () => void = () => {};
  const done = new Promise<void>((resolve) => (allAcknowledged = resolve));

  const connectStarted = performance.now();
  const locks = await inBatches(options.locks, options.connectConcurrency ?? 50, async (lock) => {
    const client: MqttClient = await connectAsync(
      options.url,
      {
        clientId: lock.deviceId,
        username: lock.deviceId,
        password: lock.secret,
        protocolVersion: 4,
        reconnectPeriod: 0,
        keepalive: 60,
        connectTimeout: 30_000,
      },
      false,
    );
    const topic = `lk/v1/${lock.deviceId}/events`;
    const ids = Array.from({ length: options.eventsPerLock }, () => randomUUID());
    eventIds.set(lock.deviceId, ids);
    /** Events awaiting their ack, with the timer that resends each. */
    const waiting = new Map<string, NodeJS.Timeout>();
    const firstSentAt = new Map<string, number>();
    let nextIndex = 0;
    const publish = (eventId: string) =>
      client.publish(
        topic,
        JSON.stringify({ eventId, ts: new Date().toISOString(), type: 'unlock', method: 'manual' }),
        { qos: 1 },
      );
    const resendLater = (eventId: string) =>
      setTimeout(() => {
        resent++;
        publish(eventId);
        waiting.set(eventId, resendLater(eventId));
      }, resendAfterMs);
    const sendNext = () => {
      while (waiting.size < options.inFlight && nextIndex < ids.length) {
        const eventId = ids[nextIndex++]!;
        sent++;
        firstSentAt.set(eventId, performance.now());
        publish(eventId);
        waiting.set(eventId, resendLater(eventId));
      }
    };
    client.on('message', (_topic, payload) => {
      const { eventIds: acked } = JSON.parse(payload.toString()) as { eventIds: string[] };
      for (const eventId of acked) {
        const timer = waiting.get(eventId);
        if (!timer) {
          duplicateAcks++;
          continue;
        }
        clearTimeout(timer);
        waiting.delete(eventId);
        acknowledged++;
        lastAckAt = performance.now();
        slowestAckMs = Math.max(slowestAckMs, lastAckAt - firstSentAt.get(eventId)!);
      }
      if (acknowledged === total) allAcknowledged();
      sendNext();
    });
    await client.subscribeAsync(`${topic}/ack`, { qos: 1 });
    return { client, sendNext, waiting };
  });
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  const started = performance.now();
  for (const lock of locks) lock.sendNext();
  let timeout: NodeJS.Timeout | undefined;
  await Promise.race([
    done,
    new Promise<void>((resolve) => {
      timeout = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timeout);
  for (const lock of locks) for (const timer of lock.waiting.values()) clearTimeout(timer);
  await inBatches(locks, 100, ({ client }) => client.endAsync(true));
  const seconds = ((acknowledged === total ? lastAckAt : performance.now()) - started) / 1000;
  return {
    sent,
    acknowledged,
    resent,
    duplicateAcks,
    unacknowledged: total - acknowledged,
    connectSeconds,
    slowestAckMs: Math.round(slowestAckMs),
    seconds,
    eventsPerSecond: acknowledged / seconds,
    eventIds,
  };
}
