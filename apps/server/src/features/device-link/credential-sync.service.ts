import {
  SYNC_CENTER_STATES,
  type CredentialSet,
  type DeviceSync,
  type SyncCenterItem,
  type SyncCenterQuery,
  type SyncCenterState,
  type UserSync,
  personName,
} from '@latchkey/shared';
import { readConsistently, type Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';
import type { DeviceRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { findDevice } from '../devices/devices.repository';
import { getUserDevices } from '../access/access.service';
import { nameNonPersonCredentials } from '../access/entry-labels';
import { findMembers } from '../../base/tenancy/memberships.repository';
import { recomputeLocks, type CredentialChannel } from './credential-recompute';
import { findDesiredSet } from './credential-set-bodies';
import { findSyncStates, type SyncState } from './credential-recompute.repository';
import {
  findSync,
  listDesiredEntries,
  listRejections,
  listSyncCenter,
  markSetSent,
} from './device-link.repository';

export type { CredentialChannel } from './credential-recompute';

/**
 * Reads locks' sync state for status reports: those asked for in the same turn of the event loop
 * are read with one query (every lock of a large portal reports its new version at once).
 */
export class SyncStateReader {
  private waiting = new Map<
    string,
    { resolve: (state?: SyncState) => void; reject: (error: unknown) => void }[]
  >();

  constructor(private readonly db: Database) {}

  read(deviceId: string): Promise<SyncState | undefined> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => void this.readWaiting());
      this.waiting.set(deviceId, [...(this.waiting.get(deviceId) ?? []), { resolve, reject }]);
    });
  }

  private async readWaiting() {
    const waiting = this.waiting;
    this.waiting = new Map();
    try {
      const rows = new Map((await findSyncStates(this.db, [...waiting.keys()])).map((row) => [row.id, row]));
      for (const [deviceId, readers] of waiting)
        for (const reader of readers) reader.resolve(rows.get(deviceId));
    } catch (error) {
      for (const readers of waiting.values()) for (const reader of readers) reader.reject(error);
    }
  }
}

/**
 * After a lock connects or reports its status: makes sure it has (or is being sent) the newest
 * set, without rebuilding it when nothing changed: one read (shared with the other locks reporting
 * at the same moment), outside the portal's queue (a status from every lock of a large portal at
 * once must not wait in line for it), and the queue only when there is something to do. A lock
 * without a set gets its first, and one ahead of the server (a restored database) the next version
 * above its own. A lock in the recompute outbox (a change touched it and it was not recomputed yet:
 * a server stopped, or the recomputation is on its way) is left to it: answers 'in the outbox' so
 * the caller wakes it. A lock behind the desired version gets the stored set again, unchanged,
 * since the broker may have lost its retained copy (an embedded broker keeps retained messages in
 * memory only).
 */
export async function bringLockUpToDate(
  db: Database,
  device: DeviceRow,
  reportedVersion: number,
  link: {
    channel: CredentialChannel;
    states: SyncStateReader;
    inPortalQueue: (work: () => Promise<void>) => Promise<void>;
  },
): Promise<'in the outbox' | undefined> {
  const state = await link.states.read(device.id);
  if (state?.token) return 'in the outbox';
  if (!state || state.desired_version === null || reportedVersion > state.desired_version) {
    await link.inPortalQueue(async () => {
      await recomputeLocks(db, device.portal_id, [device.id], link.channel, { reportedVersion });
    });
    return;
  }
  if (reportedVersion >= state.desired_version) return;
  await link.inPortalQueue(async () => {
    const current = await findSync(db, device.portal_id, device.id);
    if (!current || reportedVersion >= current.desired_version) return;
    const desired = await findDesiredSet(db, device.portal_id, device.id);
    if (!desired) return;
    await link.channel.publish(device.id, desired.json);
    // Usually it was sent already (a status crossing its set on the way): no write then.
    if ((current.sent_version ?? 0) < current.desired_version) {
      await markSetSent(db, device.portal_id, device.id, current.desired_version);
    }
  });
}

/**
 * What each entry of the stored set is and whose, in words, for people reading the sync state:
 * the set itself says the kind and the person; names come from the portal's members and credentials.
 */
async function describeHolders(db: Database, portalId: string, desiredSet: CredentialSet | null) {
  const entries = desiredSet?.entries ?? [];
  const userIds = [...new Set(entries.flatMap((e) => (e.userId ? [e.userId] : [])))];
  const members = new Map((await findMembers(db, portalId, userIds)).map((m) => [m.id, m]));
  // Company codes, guests and stays are named as the lock's "Who can open" tab names them.
  const credentialIds = entries.filter((e) => e.holderType !== 'person').map((e) => e.credentialId);
  const names = await nameNonPersonCredentials(db, portalId, credentialIds);
  const byId = new Map(entries.map((entry) => [entry.credentialId, entry]));
  return (credentialId: string) => {
    const entry = byId.get(credentialId);
    if (!entry) return { kind: 'code' as const, holder: 'Removed', userId: null };
    const member = entry.userId ? members.get(entry.userId) : undefined;
    const holder =
      entry.holderType === 'person'
        ? member
          ? personName(member.first_name, member.last_name, member.email)
          : 'A former member'
        : (names.get(credentialId) ?? (entry.holderType === 'master' ? 'Master code' : 'Removed'));
    return { kind: entry.kind, holder, userId: entry.userId };
  };
}

/** GET device/{id}/sync: how far the lock's credential set got, credential by credential. */
export async function getDeviceSync(db: Database, portalId: string, deviceId: string): Promise<DeviceSync> {
  // One snapshot: an ack stored between reading the versions and the rejections would show a
  // confirmed set without the entries the lock refused.
  const { device, sync, rejections, entries, holderOf } = await readConsistently(db, async (trx) => {
    const device = await findDevice(trx, portalId, deviceId);
    if (!device) throw AppError.notFound('Lock');
    const sync = await findSync(trx, portalId, deviceId);
    const rejections = await listRejections(trx, portalId, deviceId);
    const entries = await listDesiredEntries(trx, portalId, deviceId);
    const desired = sync ? await findDesiredSet(trx, portalId, deviceId) : null;
    const holderOf = await describeHolders(trx, portalId, desired?.set ?? null);
    return { device, sync, rejections, entries, holderOf };
  });
  const rejectionById = new Map(rejections.map((r) => [r.credential_id, r]));
  const sent = sync?.sent_version ?? 0;
  const confirmed = sync?.confirmed_version ?? 0;
  return {
    deviceId,
    desiredVersion: sync?.desired_version ?? null,
    desiredAt: sync ? toIso(sync.desired_at) : null,
    sentVersion: sync?.sent_version ?? null,
    sentAt: toIso(sync?.sent_at ?? null),
    confirmedVersion: sync?.confirmed_version ?? null,
    confirmedAt: toIso(sync?.confirmed_at ?? null),
    reportedVersion: device.credentials_version,
    inSync: sync !== undefined && sync.confirmed_version === sync.desired_version,
    rejected: rejections.map((r) => ({
      credentialId: r.credential_id,
      version: r.version,
      reason: r.reason,
      rejectedAt: toIso(r.rejected_at),
    })),
    credentials: entries.map((entry) => {
      const rejection = rejectionById.get(entry.credential_id);
      const rejected = rejection !== undefined && rejection.version >= entry.since_version;
      return {
        credentialId: entry.credential_id,
        ...holderOf(entry.credential_id),
        sinceVersion: entry.since_version,
        state: rejected
          ? ('rejected' as const)
          : confirmed >= entry.since_version
            ? ('confirmed' as const)
            : sent >= entry.since_version
              ? ('sent' as const)
              : ('pending' as const),
        reason: rejected ? rejection.reason : null,
      };
    }),
    online: Number(device.online) === 1,
    lastSeenAt: toIso(device.last_seen_at),
  };
}

/**
 * GET portal/sync: every lock's credential sync for the sync center, paged. The state is the first
 * of SYNC_CENTER_STATES that applies (the repository filters by the same rules in SQL).
 */
export async function getSyncCenter(db: Database, portalId: string, query: SyncCenterQuery) {
  let state: SyncCenterState | undefined;
  if (query.filterBy === 'state') {
    if (!(SYNC_CENTER_STATES as readonly string[]).includes(query.filterValue!)) {
      const message = `must be one of ${SYNC_CENTER_STATES.join(', ')}`;
      throw AppError.badRequest(`filterValue ${message}`, [{ path: 'querystring.filterValue', message }]);
    }
    state = query.filterValue as SyncCenterState;
  }
  const { rows, total } = await listSyncCenter(db, portalId, { ...query, state });
  const items: SyncCenterItem[] = rows.map((row) => {
    const pendingCount = toCount(row.pending_count);
    const rejectedCount = toCount(row.rejected_count);
    const online = Number(row.online) === 1;
    const pending = row.desired_version !== null && (row.confirmed_version ?? 0) < row.desired_version;
    return {
      _id: row.id,
      name: row.name,
      online,
      lastSeenAt: toIso(row.last_seen_at),
      desiredVersion: row.desired_version,
      confirmedVersion: row.confirmed_version,
      pendingCount,
      rejectedCount,
      state:
        row.last_seen_at === null
          ? 'never_connected'
          : rejectedCount > 0
            ? 'failing'
            : pending
              ? 'pending'
              : online
                ? 'in_sync'
                : 'offline',
    };
  });
  return { items, total: toCount(total) };
}

/** GET user/{id}/sync: a person's credentials on each lock they reach, each with its state there. */
export async function getUserSync(db: Database, portalId: string, userId: string): Promise<UserSync> {
  const locks = await getUserDevices(db, portalId, userId);
  const answers = [];
  // A person reaches a handful of locks; each lock's state comes from its own stored set.
  for (const lock of locks) {
    const sync = await getDeviceSync(db, portalId, lock._id);
    answers.push({
      _id: lock._id,
      name: lock.name,
      online: sync.online,
      lastSeenAt: sync.lastSeenAt,
      credentials: sync.credentials.filter((credential) => credential.userId === userId),
    });
  }
  return { locks: answers };
}
