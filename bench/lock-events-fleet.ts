/**
 * The lock-events bench's fleet, run as a child process of bench/lock-events.bench.ts so the locks
 * and the "browser" have a core of their own, as they would on other machines. Each lock is its own
 * MQTT connection sending single events, keeping a few in flight until `events/ack` names them; the
 * browser is the live channel's WebSocket (end to end) or an MQTT subscriber (bare broker). Both
 * clocks are this process's, so lock-to-browser latency needs no clock sync.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import WebSocket from 'ws';

export interface FleetRunRequest {
  url: string;
  locks: { deviceId: string; secret: string }[];
  /** A credential the events name (a person's card), so the server resolves its holder. */
  credentialId: string | null;
  browser: { kind: 'websocket'; url: string; token: string; portalId: string } | { kind: 'mqtt' };
  inFlight: number;
  /**
   * Events per second offered by the whole fleet, spread evenly over its locks (each still keeping
   * at most `inFlight` awaiting their ack); null: as fast as acks come back (saturation).
   */
  rate: number | null;
  warmupSeconds: number;
  seconds: number;
}

export interface FleetRunResult {
  locks: number;
  rate: number | null;
  connectSeconds: number;
  /** Rate runs: events not sent because their lock already had `inFlight` awaiting an ack. */
  heldBack: number;
  /** Events acknowledged per second within the measured window. */
  ackedPerSecond: number;
  /** Events reaching the browser per second within the measured window. */
  browserPerSecond: number;
  p50: number;
  p99: number;
  /** Events sent in the window that never reached the browser (counted as infinitely late). */
  missing: number;
  /** Why the live channel closed the browser's socket during the run (too slow to keep up), if it did. */
  browserClosed: string | null;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Connects `items` with at most `concurrency` logins in flight. */
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

/** The browser: calls `arrived(eventId)` for each lock event it is shown. */
async function openBrowser(
  request: FleetRunRequest,
  arrived: (eventId: string) => void,
  closed: (why: string) => void,
) {
  const browser = request.browser;
  if (browser.kind === 'mqtt') {
    const client = await connectAsync(request.url, { clientId: `browser-${randomUUID()}`, keepalive: 0 });
    client.on('message', (_topic, payload) => {
      const body = JSON.parse(payload.toString()) as { eventId: string } | { eventId: string }[];
      for (const event of Array.isArray(body) ? body : [body]) arrived(event.eventId);
    });
    await client.subscribeAsync('lk/v1/+/events', { qos: 1 });
    return () => client.endAsync(true);
  }
  const socket = new WebSocket(browser.url);
  await new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; event?: { eventId: string } };
      if (message.type === 'ready')
        socket.send(JSON.stringify({ type: 'subscribe', portalId: browser.portalId }));
      else if (message.type === 'subscribed') resolve();
      else if (message.type === 'device.event') arrived(message.event!.eventId);
      else if (message.type === 'error') reject(new Error(String(data)));
    });
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token: browser.token })));
    socket.once('error', reject);
  });
  let closing = false;
  socket.once('close', (code, reason) => {
    if (!closing) closed(`${code} ${reason.toString()}`);
  });
  return async () => {
    closing = true;
    socket.close();
  };
}

async function run(request: FleetRunRequest): Promise<FleetRunResult> {
  const sentAt = new Map<string, number>();
  const arrivedAt = new Map<string, number>();
  let browserClosed: string | null = null;
  const closeBrowser = await openBrowser(
    request,
    (eventId) => {
      if (!arrivedAt.has(eventId)) arrivedAt.set(eventId, performance.now());
    },
    (why) => (browserClosed = why),
  );

  let pumping = true;
  let acked = 0;
  const connectStarted = performance.now();
  const clients = await inBatches(request.locks, 100, async (lock) => {
    const client: MqttClient = await connectAsync(request.url, {
      clientId: lock.deviceId,
      username: lock.deviceId,
      password: lock.secret,
      reconnectPeriod: 0,
      keepalive: 0,
      connectTimeout: 60_000,
    });
    const topic = `lk/v1/${lock.deviceId}/events`;
    const state = { inFlight: 0 };
    const send = () => {
      state.inFlight++;
      const eventId = randomUUID();
      sentAt.set(eventId, performance.now());
      const event = {
        eventId,
        ts: new Date().toISOString(),
        type: 'unlock',
        method: request.credentialId ? 'rfid' : 'manual',
        credentialId: request.credentialId,
      };
      client.publish(topic, JSON.stringify(event), { qos: 1 });
    };
    client.on('message', (_topic, payload) => {
      const { eventIds } = JSON.parse(payload.toString()) as { eventIds: string[] };
      for (let i = 0; i < eventIds.length; i++) {
        acked++;
        state.inFlight--;
        if (pumping && request.rate === null) send();
      }
    });
    await client.subscribeAsync(`lk/v1/${lock.deviceId}/events/ack`, { qos: 1 });
    return { client, send, state };
  });
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  let heldBack = 0;
  let ticker: NodeJS.Timeout | null = null;
  if (request.rate === null) {
    for (const { send } of clients) for (let i = 0; i < request.inFlight; i++) send();
  } else {
    // One timer for the whole fleet: every tick, the events due since the last one, lock after lock.
    const rate = request.rate;
    let cursor = 0;
    let due = 0;
    let last = performance.now();
    ticker = setInterval(() => {
      const now = performance.now();
      due += ((now - last) / 1000) * rate;
      last = now;
      for (; due >= 1; due--) {
        const lock = clients[cursor]!;
        cursor = (cursor + 1) % clients.length;
        if (lock.state.inFlight >= request.inFlight) heldBack++;
        else lock.send();
      }
    }, 5);
  }
  // At saturation every lock starts with a full window: 10,000 locks are 50,000 events at once,
  // which take a while to work through; the measured window starts once that first wave is.
  const firstWave = request.rate === null ? clients.length * request.inFlight : 0;
  const waveDeadline = performance.now() + 120_000;
  while (acked < firstWave && performance.now() < waveDeadline) await sleep(50);
  await sleep(request.warmupSeconds * 1000);
  // The parent measures its own CPU time over the window (broker and server, or the bare broker).
  process.send!({ mark: 'start' });
  const windowStart = performance.now();
  const ackedAtStart = acked;
  const heldBackAtStart = heldBack;
  await sleep(request.seconds * 1000);
  const windowEnd = performance.now();
  const ackedInWindow = acked - ackedAtStart;
  process.send!({ mark: 'end', acked: ackedInWindow });
  const heldBackInWindow = heldBack - heldBackAtStart;
  pumping = false;
  if (ticker) clearInterval(ticker);
  // Everything sent is let through before the next run (a backlog would spill into it), and what
  // was sent in the window gets a moment more to reach the browser before it counts as lost.
  const drainDeadline = performance.now() + 120_000;
  while (acked < sentAt.size && performance.now() < drainDeadline) await sleep(50);
  await sleep(1000);

  const latencies: number[] = [];
  let missing = 0;
  let browserInWindow = 0;
  for (const [eventId, sent] of sentAt) {
    const arrived = arrivedAt.get(eventId);
    if (arrived !== undefined && arrived >= windowStart && arrived < windowEnd) browserInWindow++;
    if (sent < windowStart || sent >= windowEnd) continue;
    if (arrived === undefined) missing++;
    latencies.push(arrived === undefined ? Infinity : arrived - sent);
  }
  latencies.sort((a, b) => a - b);
  await inBatches(clients, 200, ({ client }) => client.endAsync(true));
  await closeBrowser();
  const seconds = (windowEnd - windowStart) / 1000;
  return {
    locks: request.locks.length,
    rate: request.rate,
    connectSeconds,
    heldBack: heldBackInWindow,
    ackedPerSecond: ackedInWindow / seconds,
    browserPerSecond: browserInWindow / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    missing,
    browserClosed,
  };
}

process.on('message', (request: FleetRunRequest) => {
  run(request).then(
    (result) => process.send!({ done: true, ok: true, result }),
    (error: unknown) =>
      process.send!({ done: true, ok: false, error: String((error as Error).stack ?? error) }),
  );
});
// The bench is done with this fleet.
process.on('disconnect', () => process.exit(0));
