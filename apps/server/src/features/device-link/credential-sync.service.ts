import crypto from 'node:crypto';
import {
  SYNC_CENTER_STATES,
  type CredentialSet,
  type CredentialsAck,
  type DeviceSync,
  type SyncCenterItem,
  type SyncCenterQuery,
  type SyncCenterState,
  type UserSync,
} from '@latchkey/shared';
import { readConsistently, type Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';
import type { DeviceRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { buildCredentialSet } from '../access/access.service';
import { findDevice } from '../devices/devices.repository';
import { getUserDevices } from '../access/access.service';
import { findMembers } from '../portals/memberships.repository';
import {
  findSync,
  listDesiredEntries,
  listRejections,
  listSyncCenter,
  markSetSent,
  replaceDesiredEntries,
  saveCredentialsAck,
  storeDesiredSet,
} from './device-link.repository';

/** How sets reach locks: the broker (retained, QoS 1), and the portal key a set names (`qrKey`). */
export interface CredentialChannel {
  publish: (deviceId: string, set: CredentialSet) => Promise<void>;
  qrKeyOf: (portalId: string) => string;
}

/** JSON with object keys sorted, so equal content always hashes the same. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** The set in a stable order (database answers are not ordered by id), without a version yet. */
function normalise(set: CredentialSet): CredentialSet {
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    ...set,
    version: 0,
    entries: [...set.entries].sort((a, b) => byId(a.credentialId, b.credentialId)),
    lockouts: [...set.lockouts].sort((a, b) => byId(a.lockoutId, b.lockoutId)),
  };
}

/**
 * Computes a lock's credential set with the access engine's own builder and, when its content
 * differs from the stored one (or the lock holds a version the server no longer knows), stores it
 * under the next version and publishes it. Answers the version published, or null if unchanged.
 */
export async function syncLockCredentials(
  db: Database,
  device: DeviceRow,
  channel: CredentialChannel,
  options: { reportedVersion?: number } = {},
): Promise<number | null> {
  const built = await buildCredentialSet(db, device.portal_id, device);
  const set = normalise({ ...built, qrKey: channel.qrKeyOf(device.portal_id) });
  const hash = sha256(canonicalJson(set));
  const current = await findSync(db, device.portal_id, device.id);
  // A lock that reports a newer version than the server knows (a restored database) must still
  // take the next set, so versions continue above what it holds.
  const reported = options.reportedVersion ?? 0;
  const lockIsAhead = current !== undefined && reported > current.desired_version;
  if (current && current.desired_hash === hash && !lockIsAhead) return null;
  const version = Math.max(current?.desired_version ?? 0, reported) + 1;
  const message: CredentialSet = { ...set, version };
  const stored = await db.transaction().execute(async (trx) => {
    const won = await storeDesiredSet(trx, device.portal_id, device.id, current?.desired_version ?? null, {
      version,
      hash,
      set: JSON.stringify(message),
    });
    if (won) {
      await replaceDesiredEntries(
        trx,
        device.portal_id,
        device.id,
        version,
        message.entries.map((entry) => ({
          credentialId: entry.credentialId,
          hash: sha256(canonicalJson(entry)),
        })),
      );
    }
    return won;
  });
  if (!stored) return null;
  await channel.publish(device.id, message);
  await markSetSent(db, device.portal_id, device.id, version);
  return version;
}

/**
 * After a lock connects or reports its status: makes sure it has (or is being sent) the newest
 * set. A lock behind the desired version gets the stored set again, unchanged, since the broker
 * may have lost its retained copy (an embedded broker keeps retained messages in memory only).
 */
export async function bringLockUpToDate(
  db: Database,
  device: DeviceRow,
  reportedVersion: number,
  channel: CredentialChannel,
): Promise<void> {
  const published = await syncLockCredentials(db, device, channel, { reportedVersion });
  if (published !== null) return;
  const current = await findSync(db, device.portal_id, device.id);
  if (!current || reportedVersion >= current.desired_version) return;
  await channel.publish(device.id, JSON.parse(current.desired_set) as CredentialSet);
  await markSetSent(db, device.portal_id, device.id, current.desired_version);
}

/** Records a lock's credentials/ack; an ack for a version never sent is ignored. */
export async function recordCredentialsAck(db: Database, device: DeviceRow, ack: CredentialsAck) {
  const current = await findSync(db, device.portal_id, device.id);
  if (!current || ack.version > current.desired_version) return false;
  // An ack for an older version arriving late must not overwrite a newer confirmation.
  if (current.confirmed_version !== null && ack.version < current.confirmed_version) return false;
  await db
    .transaction()
    .execute((trx) => saveCredentialsAck(trx, device.portal_id, device.id, ack.version, ack.rejected));
  return true;
}

/**
 * What each entry of the stored set is and whose, in words, for people reading the sync state:
 * the set itself says the kind and the person; names come from the portal's members and credentials.
 */
async function describeHolders(db: Database, portalId: string, desiredSet: string | null) {
  const entries = desiredSet ? (JSON.parse(desiredSet) as CredentialSet).entries : [];
  const userIds = [...new Set(entries.flatMap((e) => (e.userId ? [e.userId] : [])))];
  const members = new Map((await findMembers(db, portalId, userIds)).map((m) => [m.id, m]));
  const credentialIds = entries.filter((e) => e.holderType === 'company').map((e) => e.credentialId);
  const names =
    credentialIds.length === 0
      ? new Map<string, string>()
      : new Map(
          (
            await db
              .selectFrom('credentials')
              .select(['id', 'name'])
              .where('portal_id', '=', portalId)
              .where('id', 'in', credentialIds)
              .execute()
          ).map((row) => [row.id, row.name ?? '']),
        );
  const byId = new Map(entries.map((entry) => [entry.credentialId, entry]));
  return (credentialId: string) => {
    const entry = byId.get(credentialId);
    if (!entry) return { kind: 'code' as const, holder: 'Removed', userId: null };
    const member = entry.userId ? members.get(entry.userId) : undefined;
    const holder =
      entry.holderType === 'person'
        ? member
          ? [member.first_name, member.last_name].filter(Boolean).join(' ') || member.email
          : 'A former member'
        : entry.holderType === 'company'
          ? `Company code: ${names.get(credentialId) || 'unnamed'}`
          : entry.holderType === 'guest'
            ? 'Guest'
            : 'Master code';
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
    const holderOf = await describeHolders(trx, portalId, sync?.desired_set ?? null);
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
