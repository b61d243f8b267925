import type { CredentialsAck, DeviceStatus } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { DeviceRow } from '../../db/schema';
import { saveCredentialsAcks, saveLockStatuses, type StatusToSave } from './lock-reports.repository';
import type { AckToRecord } from './lock-reports.repository';
import { emitDomainEvent } from '../../base/events/domain-events';
import './device-link-events';

/**
 * How long reports wait for others to join their transaction. A change that reaches 10,000 locks
 * brings 10,000 credentials/ack and 10,000 status reports (each lock tells its new version) within a
 * second or two; one commit each (an fsync each on SQLite, about 5 ms here) held the server for a
 * minute. 10 ms makes them a few hundred commits, and is nothing to a lock that has applied its set.
 */
const WINDOW_MS = 50;

interface Waiting<T, R> {
  item: T;
  done: (result: R) => void;
  failed: (error: unknown) => void;
}

/**
 * What locks report about themselves after a change (a status that changed something, a
 * credentials/ack), written in groups: everything that arrives within WINDOW_MS, or while the
 * previous group is being written, goes into one transaction of set-based statements. Each call
 * resolves once its report is stored, as a single write did.
 */
export class LockReports {
  private statuses: Waiting<StatusToSave, void>[] = [];
  private acks: Waiting<AckToRecord, boolean>[] = [];
  private writing: Promise<void> | null = null;

  constructor(private readonly db: Database) {}

  /** A status report that changes what the lock's record says (heartbeats go to SeenLocks). */
  saveStatus(device: DeviceRow, status: Extract<DeviceStatus, { online: true }>): Promise<void> {
    return new Promise((done, failed) => {
      this.statuses.push({
        item: {
          deviceId: device.id,
          battery: status.battery,
          lockState: status.lockState,
          firmware: status.firmware,
          credentialsVersion: status.credentialsVersion,
        },
        done,
        failed,
      });
      this.writing ??= this.writeAll();
    });
  }

  /** Resolves once the ack is stored: true, or false for a version never sent or already superseded. */
  recordAck(device: DeviceRow, ack: CredentialsAck): Promise<boolean> {
    return new Promise((done, failed) => {
      this.acks.push({
        item: {
          portalId: device.portal_id,
          deviceId: device.id,
          version: ack.version,
          rejected: ack.rejected,
        },
        done,
        failed,
      });
      this.writing ??= this.writeAll();
    });
  }

  /** Resolves once everything reported so far is written (shutdown). */
  async drain(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async writeAll(): Promise<void> {
    while (this.statuses.length > 0 || this.acks.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
      const statuses = this.statuses;
      const acks = this.acks;
      this.statuses = [];
      this.acks = [];
      try {
        const recorded = await this.db.transaction().execute(async (trx) => {
          // A lock's latest status wins; its acks are recorded in the order they came.
          await saveLockStatuses(trx, [...new Map(statuses.map((s) => [s.item.deviceId, s.item])).values()]);
          const taken = await recordInOrder(trx, acks);
          // Heard in this transaction (features/webhooks: credential.confirmed / rejected).
          if (taken.size > 0) {
            const recordedAcks = acks.filter((ack) => taken.has(ack)).map((ack) => ack.item);
            await emitDomainEvent(trx, 'CredentialsAcked', { acks: recordedAcks, now: new Date() });
          }
          return taken;
        });
        for (const status of statuses) status.done();
        for (const ack of acks) ack.done(recorded.has(ack));
      } catch (error) {
        for (const waiting of [...statuses, ...acks]) waiting.failed(error);
      }
    }
    this.writing = null;
  }
}

/**
 * Records acks with at most one per lock per statement, a lock's acks in the order they came (an
 * ack for an older version arriving late never overwrites a newer confirmation).
 */
async function recordInOrder(trx: Database, acks: Waiting<AckToRecord, boolean>[]) {
  const taken = new Set<Waiting<AckToRecord, boolean>>();
  for (let rest = acks; rest.length > 0;) {
    const round = new Map<string, Waiting<AckToRecord, boolean>>();
    const later: Waiting<AckToRecord, boolean>[] = [];
    for (const waiting of rest) {
      if (round.has(waiting.item.deviceId)) later.push(waiting);
      else round.set(waiting.item.deviceId, waiting);
    }
    const saved = await saveCredentialsAcks(
      trx,
      [...round.values()].map((w) => w.item),
    );
    for (const waiting of round.values()) if (saved.has(waiting.item.deviceId)) taken.add(waiting);
    rest = later;
  }
  return taken;
}
