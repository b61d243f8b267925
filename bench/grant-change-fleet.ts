/**
 * The grant-change bench's locks, run as a child process of bench/grant-change.bench.ts so that they
 * have a core of their own, as locks on other machines would. Each is a simulated lock
 * (packages/locksim): it applies the credential sets it receives and acknowledges them, exactly as
 * against the real server. The parent asks, over IPC, to connect a fleet, to be told when given
 * locks have applied a version above the one they held, and to stop.
 */
import { LockFleet } from '@latchkey/locksim';

export type FleetRequest =
  | { type: 'start'; url: string; locks: { deviceId: string; secret: string }[] }
  | { type: 'versions' }
  | { type: 'waitAbove'; versions: Record<string, number> }
  | { type: 'stop' };

export type FleetAnswer =
  | { type: 'started'; failed: number }
  | { type: 'versions'; versions: Record<string, number> }
  | { type: 'reached' }
  | { type: 'stopped' }
  | { type: 'error'; message: string };

let fleet: LockFleet | null = null;
/** The newest version each lock applied. */
const applied = new Map<string, number>();
/** Locks still below what the parent waits for: lock → version to exceed. */
let waiting: Map<string, number> | null = null;

const send = (answer: FleetAnswer) => process.send!(answer);

function checkWaiting(deviceId?: string) {
  if (!waiting) return;
  if (deviceId !== undefined) {
    const above = waiting.get(deviceId);
    if (above !== undefined && (applied.get(deviceId) ?? 0) > above) waiting.delete(deviceId);
  }
  if (waiting.size === 0) {
    waiting = null;
    send({ type: 'reached' });
  }
}

async function handle(request: FleetRequest) {
  switch (request.type) {
    case 'start': {
      applied.clear();
      fleet = new LockFleet({
        url: request.url,
        locks: request.locks,
        heartbeatSeconds: 0,
        connectConcurrency: 100,
        reconnectPeriodMs: 1000,
      });
      fleet.on('credentialsApplied', ({ deviceId, version }) => {
        applied.set(deviceId, Math.max(version, applied.get(deviceId) ?? 0));
        checkWaiting(deviceId);
      });
      const result = await fleet.start();
      return send({ type: 'started', failed: result.failed.length });
    }
    case 'versions':
      return send({ type: 'versions', versions: Object.fromEntries(applied) });
    case 'waitAbove':
      waiting = new Map(
        Object.entries(request.versions).filter(([deviceId, above]) => (applied.get(deviceId) ?? 0) <= above),
      );
      return checkWaiting();
    case 'stop':
      await fleet?.stop();
      fleet = null;
      return send({ type: 'stopped' });
  }
}

process.on('message', (request: FleetRequest) => {
  handle(request).catch((error: unknown) => send({ type: 'error', message: String(error) }));
});
