import crypto from 'node:crypto';
import type { CredentialSet } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { DeviceCredentialSyncRow } from '../../db/schema';
import { inSlices } from '../access/credential-sets.repository';
import { loadCredentialSets } from '../access/credential-sets';
import { onLocksTouched } from '../../base/access-changes/touched-locks';
import { findDevices } from '../devices/devices.repository';
import { findSetBodies, setBody, setMessage, storeSetBodies } from './credential-set-bodies';
import {
  deleteRecomputeRows,
  findSyncsOf,
  markSetsSent,
  readRecomputeOutbox,
  replaceDesiredEntriesOf,
  storeDesiredSets,
  type DesiredSet,
} from './credential-recompute.repository';

/** How sets reach locks: the broker (retained, QoS 1), and the portal key a set names (`qrKey`). */
export interface CredentialChannel {
  /** Publishes a set, already serialised (it is stored as the same text). */
  publish: (deviceId: string, setJson: string) => Promise<void>;
  qrKeyOf: (portalId: string) => string;
}

/** JSON with object keys sorted, so equal content always hashes the same (entry hashes). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** The set in a stable order (database answers are not ordered by id), without a version yet. */
export function normalise(set: CredentialSet): CredentialSet {
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    ...set,
    version: 0,
    entries: [...set.entries].sort((a, b) => byId(a.credentialId, b.credentialId)),
    lockouts: [...set.lockouts].sort((a, b) => byId(a.lockoutId, b.lockoutId)),
  };
}

/** Locks recomputed together: their sets are read, compared, stored and published as one slice. */
const LOCKS_PER_SLICE = 2000;

export interface RecomputeOptions {
  /** The version the lock reported (one lock's status). */
  reportedVersion?: number;
  /** Runs in the transaction that marks a slice's sets sent, with the locks of the slice now settled. */
  settle?: (trx: Database, deviceIds: string[]) => Promise<void>;
}

export interface RecomputeOutcome {
  /** Locks handed a new (or a stored but never sent) set, with its version. */
  published: { deviceId: string; version: number }[];
  /**
   * Locks whose recomputation is done: published, unchanged, or gone. The others lost a race for
   * the next version to another server and must be recomputed again.
   */
  settled: Set<string>;
}

/**
 * Recomputes the credential sets of some locks of a portal, a slice at a time: the sets are built
 * together (loadCredentialSets), each compared with the stored one by content hash, only the
 * changed ones stored under their lock's next version (one transaction per slice) and published,
 * then marked sent. A set stored but never handed to the broker (the server stopped in between)
 * is published now. `reportedVersion` (one lock's status) makes a lock that holds a newer version
 * than the server knows (a restored database) take the next one above it.
 */
export async function recomputeLocks(
  db: Database,
  portalId: string,
  deviceIds: readonly string[],
  channel: CredentialChannel,
  options: RecomputeOptions = {},
): Promise<RecomputeOutcome> {
  const outcome: RecomputeOutcome = { published: [], settled: new Set() };
  const ids = [...new Set(deviceIds)];
  for (let start = 0; start < ids.length; start += LOCKS_PER_SLICE) {
    await recomputeSlice(db, portalId, ids.slice(start, start + LOCKS_PER_SLICE), channel, options, outcome);
  }
  return outcome;
}

async function recomputeSlice(
  db: Database,
  portalId: string,
  ids: string[],
  channel: CredentialChannel,
  options: RecomputeOptions,
  outcome: RecomputeOutcome,
): Promise<void> {
  const settledHere = new Set<string>();
  // A lock deleted since it was touched has nothing to recompute (its set was withdrawn).
  const devices = await inSlices(ids, (slice) => findDevices(db, portalId, slice));
  const live = new Set(devices.map((d) => d.id));
  for (const id of ids) if (!live.has(id)) settledHere.add(id);
  const [built, syncs] = await Promise.all([
    loadCredentialSets(db, portalId, devices),
    findSyncsOf(
      db,
      portalId,
      devices.map((d) => d.id),
    ),
  ]);
  const syncOf = new Map<string, DeviceCredentialSyncRow>(syncs.map((row) => [row.device_id, row]));
  const qrKey = channel.qrKeyOf(portalId);
  const reported = options.reportedVersion ?? 0;
  const changed: (DesiredSet & { message: CredentialSet; json: string })[] = [];
  // Bodies by hash: the content of the changed sets, most often one for a whole slice of locks.
  const bodies = new Map<string, string>();
  const unsentRows: DeviceCredentialSyncRow[] = [];
  for (const device of devices) {
    const set = normalise({ ...built.get(device.id)!.set, qrKey });
    // The builder makes every object with its keys in one order and normalise orders the lists, so
    // the plain text is stable; sorting keys for the hash (canonicalJson) cost a tenth of a
    // 10,000-lock recomputation and most of its garbage.
    const body = setBody(set);
    const hash = sha256(body);
    const current = syncOf.get(device.id);
    const lockIsAhead = current !== undefined && reported > current.desired_version;
    if (current && current.desired_hash === hash && !lockIsAhead) {
      settledHere.add(device.id);
      if ((current.sent_version ?? 0) < current.desired_version) unsentRows.push(current);
      continue;
    }
    bodies.set(hash, body);
    const version = Math.max(current?.desired_version ?? 0, reported) + 1;
    changed.push({
      deviceId: device.id,
      previousVersion: current?.desired_version ?? null,
      version,
      hash,
      message: { ...set, version },
      json: setMessage(device.id, version, body),
    });
  }
  // A set stored but never handed to the broker (the server stopped in between) goes out as stored.
  const unsentBodies =
    unsentRows.length === 0
      ? new Map<string, string>()
      : await findSetBodies(
          db,
          portalId,
          unsentRows.map((row) => row.desired_hash),
        );
  const unsent = unsentRows.flatMap((row) => {
    const body = unsentBodies.get(row.desired_hash);
    return body
      ? [
          {
            deviceId: row.device_id,
            version: row.desired_version,
            json: setMessage(row.device_id, row.desired_version, body),
          },
        ]
      : [];
  });
  const stored =
    changed.length === 0
      ? new Set<string>()
      : await db.transaction().execute(async (trx) => {
          await storeSetBodies(trx, portalId, bodies);
          const won = await storeDesiredSets(trx, portalId, changed);
          await replaceDesiredEntriesOf(
            trx,
            portalId,
            changed
              .filter((c) => won.has(c.deviceId))
              .map((c) => ({
                deviceId: c.deviceId,
                version: c.version,
                entries: c.message.entries.map((entry) => ({
                  credentialId: entry.credentialId,
                  hash: sha256(canonicalJson(entry)),
                })),
              })),
          );
          return won;
        });
  const toPublish = [
    ...changed
      .filter((c) => stored.has(c.deviceId))
      .map((c) => ({ deviceId: c.deviceId, version: c.version, json: c.json })),
    ...unsent,
  ];
  for (const c of changed) if (stored.has(c.deviceId)) settledHere.add(c.deviceId);
  await Promise.all(toPublish.map(({ deviceId, json }) => channel.publish(deviceId, json)));
  const sent = toPublish.map(({ deviceId, version }) => ({ deviceId, version }));
  if (sent.length > 0 || (options.settle && settledHere.size > 0)) {
    await db.transaction().execute(async (trx) => {
      await markSetsSent(trx, portalId, sent);
      await options.settle?.(trx, [...settledHere]);
    });
  }
  outcome.published.push(...sent);
  for (const id of settledHere) outcome.settled.add(id);
}

/** Outbox rows read per pass. */
const OUTBOX_PAGE = 10_000;

/**
 * Keeps locks' credential sets current from the recompute outbox (features/access/touched-locks.ts):
 * a committed change to access wakes it, and it recomputes the locks waiting there, portal by
 * portal (each inside `runInPortal`, so it never races the status path for a version), deleting a
 * lock's row once done unless a newer change touched it meanwhile. It drains whatever is left when
 * it starts (a change whose server stopped before recomputing), and every `sweepEveryMs` takes
 * rows older than `orphanAfterMs` (left by a server that stopped; the server that made a change
 * recomputes it within milliseconds).
 */
export class CredentialRecompute {
  private draining: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly channel: CredentialChannel,
    private readonly runInPortal: (portalId: string, work: () => Promise<void>) => Promise<void>,
    private readonly options: { sweepEveryMs: number; orphanAfterMs: number },
  ) {}

  start(): void {
    this.unsubscribe = onLocksTouched(this.db, () => this.wake());
    this.wake();
    this.timer = setInterval(() => {
      const before = new Date(Date.now() - this.options.orphanAfterMs).toISOString();
      void this.run(before);
    }, this.options.sweepEveryMs);
    this.timer.unref();
  }

  /** Drains the outbox soon; a wake while draining runs one more pass after it. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    void this.run();
  }

  /** Resolves once every lock touched so far has been recomputed (shutdown; tests). */
  async flush(): Promise<void> {
    this.wake();
    while (this.draining) await this.draining;
  }

  async stop(): Promise<void> {
    await this.flush();
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
  }

  private run(touchedBefore?: string): Promise<void> {
    if (this.draining || this.stopped) return this.draining ?? Promise.resolve();
    const pass = (async () => {
      try {
        do {
          this.again = false;
          await this.drain(touchedBefore);
          touchedBefore = undefined;
        } while (this.again && !this.stopped);
      } catch (error) {
        this.log.error({ err: error }, 'device link: recomputing touched locks failed; retried by the sweep');
      } finally {
        this.draining = null;
      }
    })();
    this.draining = pass;
    return pass;
  }

  /** One or more passes over the outbox, until a pass settles nothing more. */
  private async drain(touchedBefore?: string): Promise<void> {
    for (;;) {
      const rows = await readRecomputeOutbox(this.db, { limit: OUTBOX_PAGE, touchedBefore });
      if (rows.length === 0) return;
      let settledAny = false;
      const byPortal = new Map<string, typeof rows>();
      for (const row of rows) {
        const portalRows = byPortal.get(row.portal_id);
        if (portalRows) portalRows.push(row);
        else byPortal.set(row.portal_id, [row]);
      }
      for (const [portalId, portalRows] of byPortal) {
        await this.runInPortal(portalId, async () => {
          const rowOf = new Map(portalRows.map((r) => [r.device_id, r]));
          const { published, settled } = await recomputeLocks(
            this.db,
            portalId,
            portalRows.map((r) => r.device_id),
            this.channel,
            {
              // Out of the outbox in the same commit as the sets are marked sent.
              settle: (trx, deviceIds) =>
                deleteRecomputeRows(
                  trx,
                  deviceIds.map((id) => rowOf.get(id)!),
                ),
            },
          );
          settledAny ||= settled.size > 0;
          if (published.length > 0) {
            this.log.info(
              { portalId, locks: portalRows.length, published: published.length },
              'device link: credentials recomputed',
            );
          }
        });
      }
      if (rows.length < OUTBOX_PAGE || !settledAny) return;
    }
  }
}
