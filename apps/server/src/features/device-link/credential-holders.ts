import type { DeviceEvent } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { findCommandSenders, findCredentialHolders, findPeopleIn } from './device-link.repository';

/** The `remote:` entries of a credential set carry the person's id (access.service). */
export const REMOTE_PREFIX = 'remote:';

/** What a lock event says that can name a person. */
export interface EventSubject {
  portalId: string;
  deviceId: string;
  credentialId: string | null;
  commandId: string | null;
}

/** The person behind an event: the id stored with it, and how the logs and live channel show them. */
export interface EventPerson {
  userId: string | null;
  user: DeviceEvent['user'];
}

const pairKey = (portalId: string, id: string) => `${portalId} ${id}`;

/**
 * Who is behind each event of a batch: the holder of the credential presented (an app's `remote:`
 * entry names a person, who must be a member of the lock's portal), else the person who sent the
 * portal command the event carried out (an admin may hold no credential there).
 *
 * Read from the database in the transaction that stores the batch, three or four queries whatever
 * its size, rather than kept in memory: a credential handed to someone else or revoked on another
 * server is seen by the very next batch, so an event is never attributed from a stale copy.
 */
export async function resolveEventPeople(db: Database, subjects: EventSubject[]): Promise<EventPerson[]> {
  const remoteIds = new Set<string>();
  const credentialIds = new Set<string>();
  const commandIds = new Set<string>();
  for (const subject of subjects) {
    const credentialId = subject.credentialId;
    if (credentialId?.startsWith(REMOTE_PREFIX)) remoteIds.add(credentialId.slice(REMOTE_PREFIX.length));
    else if (credentialId) credentialIds.add(credentialId);
    if (subject.commandId) commandIds.add(subject.commandId);
  }
  const [holders, senders] = await Promise.all([
    findCredentialHolders(db, credentialIds),
    findCommandSenders(db, commandIds),
  ]);
  // Ids are unique across portals; a row counts only for an event of its own portal (and lock).
  const holderOf = new Map(holders.map((row) => [pairKey(row.portal_id, row.id), row.user_id]));
  const senderOf = new Map(
    senders.map((row) => [`${pairKey(row.portal_id, row.device_id)} ${row.id}`, row.user_id]),
  );

  // Each event's possible people: the remote entry's, the credential's holder, the command's sender.
  const candidates = subjects.map((subject) => {
    const credentialId = subject.credentialId;
    const remote = credentialId?.startsWith(REMOTE_PREFIX) ? credentialId.slice(REMOTE_PREFIX.length) : null;
    const holder =
      credentialId && !remote ? (holderOf.get(pairKey(subject.portalId, credentialId)) ?? null) : null;
    const sender = subject.commandId
      ? (senderOf.get(`${pairKey(subject.portalId, subject.deviceId)} ${subject.commandId}`) ?? null)
      : null;
    return { remote, holder, sender };
  });
  const people = await findPeopleIn(
    db,
    candidates.flatMap((c) => [c.remote, c.holder, c.sender].filter((id): id is string => id !== null)),
    subjects.map((subject) => subject.portalId),
  );
  const account = new Map(people.map((row) => [row.id, row]));
  const membership = new Map(
    people.flatMap((row) => (row.portal_id ? [[pairKey(row.portal_id, row.id), row] as const] : [])),
  );

  return subjects.map((subject, index) => {
    const { remote, holder, sender } = candidates[index]!;
    // The app's entry counts only for a member of the portal (of any status).
    const remoteMember = remote && membership.has(pairKey(subject.portalId, remote)) ? remote : null;
    const userId = remoteMember ?? holder ?? sender;
    const person = userId ? account.get(userId) : undefined;
    if (!userId || !person) return { userId, user: null };
    // As the event logs show a person (memberNameColumn): the portal's label for them, else their own name.
    const member = membership.get(pairKey(subject.portalId, userId));
    const first = member?.member_first_name ?? person.first_name;
    const last = member?.member_last_name ?? person.last_name;
    const name = [first, last].filter(Boolean).join(' ') || person.email;
    return { userId, user: { _id: userId, name } };
  });
}
