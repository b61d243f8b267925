import type { CredentialRejection, LockState } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { inRowSlices, integer, runPrepared, valuesList, writesRowByRow } from '../../db/values-list';
import { inSlices } from '../access/credential-sets.repository';

// What locks report about themselves, written for many locks per statement (lock-reports.ts).

/** A status report that changes the lock's record. */
export interface StatusToSave {
  deviceId: string;
  battery: number;
  lockState: LockState;
  firmware: string;
  credentialsVersion: number;
}

/** Records status reports (at most one per lock): each lock is online, seen now, with what it said. */
export async function saveLockStatuses(db: Database, statuses: readonly StatusToSave[]): Promise<void> {
  const now = nowIso();
  if (writesRowByRow(db)) {
    for (const s of statuses) {
      await runPrepared(
        db,
        `update devices set online = 1, last_seen_at = ?, battery = ?, lock_state = ?, firmware = ?,
           credentials_version = ?, updated_at = ? where id = ?`,
        [now, s.battery, s.lockState, s.firmware, s.credentialsVersion, now, s.deviceId],
      );
    }
    return;
  }
  await inRowSlices(statuses, async (slice) => {
    const values = valuesList(
      slice.map(
        (s) =>
          sql`(${s.deviceId}, ${integer(s.battery)}, ${s.lockState}, ${s.firmware}, ${integer(s.credentialsVersion)})`,
      ),
    );
    await sql`
      update devices as d
      set online = 1, last_seen_at = ${now}, battery = v.column2, lock_state = v.column3,
        firmware = v.column4, credentials_version = v.column5, updated_at = ${now}
      from (values ${values}) as v
      where d.id = v.column1`.execute(db);
  });
}

/** A lock's credentials/ack, to record with others. */
export interface AckToRecord {
  portalId: string;
  deviceId: string;
  version: number;
  rejected: { credentialId: string; reason: CredentialRejection }[];
}

/**
 * Records many locks' credentials/ack (at most one per lock): the confirmed version, unless the
 * lock was never sent that version or has confirmed a newer one since, and exactly the entries
 * refused in it. Answers the locks whose ack was recorded.
 */
export async function saveCredentialsAcks(db: Database, acks: readonly AckToRecord[]): Promise<Set<string>> {
  const recorded = new Set<string>();
  const now = nowIso();
  if (writesRowByRow(db)) {
    for (const a of acks) {
      const changed = await runPrepared(
        db,
        `update device_credential_sync set confirmed_version = ?, confirmed_at = ?
         where device_id = ? and portal_id = ? and desired_version >= ?
           and (confirmed_version is null or confirmed_version <= ?)`,
        [a.version, now, a.deviceId, a.portalId, a.version, a.version],
      );
      if (changed > 0) recorded.add(a.deviceId);
    }
  } else {
    await inRowSlices(acks, async (slice) => {
      const values = valuesList(slice.map((a) => sql`(${a.deviceId}, ${integer(a.version)}, ${a.portalId})`));
      const { rows } = await sql<{ device_id: string }>`
        update device_credential_sync as s
        set confirmed_version = v.column2, confirmed_at = ${now}
        from (values ${values}) as v
        where s.device_id = v.column1 and s.portal_id = v.column3 and s.desired_version >= v.column2
          and (s.confirmed_version is null or s.confirmed_version <= v.column2)
        returning device_id`.execute(db);
      for (const row of rows) recorded.add(row.device_id);
    });
  }
  const taken = acks.filter((a) => recorded.has(a.deviceId));
  const byPortal = new Map<string, string[]>();
  for (const ack of taken) {
    const deviceIds = byPortal.get(ack.portalId);
    if (deviceIds) deviceIds.push(ack.deviceId);
    else byPortal.set(ack.portalId, [ack.deviceId]);
  }
  for (const [portalId, deviceIds] of byPortal) {
    await inSlices(deviceIds, async (slice) => {
      await db
        .deleteFrom('device_credential_rejections')
        .where('portal_id', '=', portalId)
        .where('device_id', 'in', slice)
        .execute();
      return [];
    });
  }
  const rejections = taken.flatMap((ack) =>
    [...new Map(ack.rejected.map((r) => [r.credentialId, r])).values()].map((r) => ({
      portal_id: ack.portalId,
      device_id: ack.deviceId,
      credential_id: r.credentialId,
      version: ack.version,
      reason: r.reason,
      rejected_at: now,
    })),
  );
  await inRowSlices(rejections, async (slice) => {
    await db.insertInto('device_credential_rejections').values(slice).execute();
  });
  return recorded;
}
