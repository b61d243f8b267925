import {
  LOCK_MODELS,
  type CredentialEntry,
  type CredentialSet,
  type Lockout,
  type Schedule,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { CredentialRow, DeviceInviteRow, DeviceRow } from '../../db/schema';
import { inviteSchedule, inviteWindowOf } from './invite-schedule';
import { listStaysOfCredentials, nonPersonLabel, type StayOfCredential } from './entry-labels';
import type { MemberRecord } from '../../base/tenancy/memberships.repository';
import {
  findMembersIn,
  listBoundCredentials,
  listCodesAndCardsOf,
  listCompanyCredentials,
  listInvitesOfLocks,
  listLinksOfLocks,
  listLockoutsOfLocks,
  listSchedulesAtLocks,
} from './credential-sets.repository';

/** What a credential set entry came from, for previews that name who holds it. */
export interface EntrySource {
  /** Company code name, guest or stay and dates, or "Master code"; null for people. */
  label: string | null;
  /** The stay a stay guest's or cleaner's entry belongs to. */
  stay: StayOfCredential | null;
}

/** A lock's credential set with the members it was built from and a label per non-person entry. */
export interface LoadedCredentialSet {
  set: CredentialSet;
  members: MemberRecord[];
  sources: Map<string, EntrySource>;
}

/** Locks per slice: each slice is read with the same handful of queries. */
const LOCKS_PER_SLICE = 500;

/**
 * The credential sets of many locks of one portal (DESIGN §4), read a slice of locks at a time with
 * one query per kind of fact (links, schedules, bound credentials, people's codes and cards,
 * members, invites, lockouts) plus the portal's company codes once, instead of six queries per lock.
 * The rules, per lock: a person's codes and cards work wherever they have access, in their schedule
 * there; a fingerprint only at the lock it was enrolled on; a digital key at the locks it is linked
 * to, at any time within its validity; company codes at every keypad lock whose code length they
 * fit; a guest's code at the invite's lock in the invite's window; a master code always, even
 * through a lockout that exempts admins.
 */
export async function loadCredentialSets(
  db: Database,
  portalId: string,
  devices: readonly DeviceRow[],
): Promise<Map<string, LoadedCredentialSet>> {
  const loaded = new Map<string, LoadedCredentialSet>();
  if (devices.length === 0) return loaded;
  const company = await listCompanyCredentials(db, portalId);
  for (let start = 0; start < devices.length; start += LOCKS_PER_SLICE) {
    const slice = devices.slice(start, start + LOCKS_PER_SLICE);
    for (const [deviceId, set] of await loadSlice(db, portalId, slice, company)) loaded.set(deviceId, set);
  }
  return loaded;
}

/** A list per key, in insertion order. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Credentials in creation order, then by id: the order a lock's entries have always come in. */
function byCreation(a: CredentialRow, b: CredentialRow): number {
  const at = toIso(a.created_at);
  const bt = toIso(b.created_at);
  if (at !== bt) return at < bt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

async function loadSlice(
  db: Database,
  portalId: string,
  devices: readonly DeviceRow[],
  company: readonly CredentialRow[],
): Promise<Map<string, LoadedCredentialSet>> {
  const deviceIds = devices.map((d) => d.id);
  const [links, schedules, bound, invites, lockoutRows] = await Promise.all([
    listLinksOfLocks(db, portalId, deviceIds),
    listSchedulesAtLocks(db, portalId, deviceIds),
    listBoundCredentials(db, portalId, deviceIds),
    listInvitesOfLocks(db, portalId, deviceIds),
    listLockoutsOfLocks(db, portalId, deviceIds),
  ]);
  // Who reaches each lock, however (directly and/or through groups).
  const reachers = new Map<string, Set<string>>(deviceIds.map((id) => [id, new Set<string>()]));
  for (const row of [...links.direct, ...links.viaGroups]) reachers.get(row.device_id)!.add(row.user_id);
  const everyone = new Set<string>();
  for (const users of reachers.values()) for (const userId of users) everyone.add(userId);
  const keyHolders = bound.filter((c) => c.kind === 'key' && c.user_id).map((c) => c.user_id!);
  const stayCredentialIds = bound
    .filter((c) => c.holder_type === 'guest' && c.variant === 'stay')
    .map((c) => c.id);
  const [codesAndCards, members, stayByCredential] = await Promise.all([
    listCodesAndCardsOf(db, portalId, [...everyone]),
    findMembersIn(db, portalId, [...new Set([...everyone, ...keyHolders])]),
    listStaysOfCredentials(db, portalId, [...new Set(stayCredentialIds)]),
  ]);
  const codesByUser = groupBy(codesAndCards, (c) => c.user_id!);
  const memberById = new Map(members.map((m) => [m.id, m]));
  const memberOrder = new Map(members.map((m, i) => [m.id, i]));
  const boundByDevice = groupBy(bound, (c) => c.device_id);
  const inviteByCredential = new Map(invites.map((invite) => [invite.credential_id, invite]));
  const lockoutsByDevice = groupBy(lockoutRows, (l) => l.device_id);

  const sets = new Map<string, LoadedCredentialSet>();
  for (const device of devices) {
    const reaches = reachers.get(device.id)!;
    const here = boundByDevice.get(device.id) ?? [];
    const keyHoldersHere = new Set(here.filter((c) => c.kind === 'key' && c.user_id).map((c) => c.user_id!));
    // The people this lock's set is about, in findMembers' order (looked up, not filtered: a slice
    // of locks may concern tens of thousands of people).
    const deviceMembers = [...new Set([...reaches, ...keyHoldersHere])]
      .flatMap((id) => memberById.get(id) ?? [])
      .sort((a, b) => memberOrder.get(a.id)! - memberOrder.get(b.id)!);
    const credentials = new Map<string, CredentialRow>();
    for (const credential of company) credentials.set(credential.id, credential);
    for (const credential of here) {
      // A fingerprint works only for a person who reaches the lock it was enrolled on.
      if (credential.kind === 'fingerprint' && !reaches.has(credential.user_id ?? '')) continue;
      credentials.set(credential.id, credential);
    }
    for (const userId of reaches) {
      for (const credential of codesByUser.get(userId) ?? []) credentials.set(credential.id, credential);
    }
    sets.set(
      device.id,
      assembleSet(device, {
        members: deviceMembers,
        reaches,
        schedules,
        credentials: [...credentials.values()].sort(byCreation),
        inviteByCredential,
        stayByCredential,
        lockouts: (lockoutsByDevice.get(device.id) ?? []).map((r) => ({
          lockoutId: r.id,
          from: toIso(r.starts_at),
          until: toIso(r.ends_at),
          exemptAdmins: Number(r.exempt_admins) === 1,
        })),
      }),
    );
  }
  return sets;
}

function fitsLength(code: string, limits: { min: number; max: number }): boolean {
  return code.length >= limits.min && code.length <= limits.max;
}

/** One lock's set from the facts about it (no queries). */
function assembleSet(
  device: DeviceRow,
  facts: {
    members: MemberRecord[];
    reaches: Set<string>;
    schedules: Map<string, Schedule>;
    credentials: CredentialRow[];
    inviteByCredential: Map<string, DeviceInviteRow>;
    stayByCredential: Map<string, StayOfCredential>;
    lockouts: Lockout[];
  },
): LoadedCredentialSet {
  const { members, reaches, schedules } = facts;
  const memberById = new Map(members.map((m) => [m.id, m]));
  const codeLength = LOCK_MODELS[device.model].codeLength;
  const entries: CredentialEntry[] = [];
  const sources = new Map<string, EntrySource>();
  const person = (member: MemberRecord, schedule: Schedule | null) => ({
    holderType: 'person' as const,
    userId: member.id,
    userRole: member.role,
    // An invited person's codes and cards work: the portal handed them out (see the app entry below).
    userStatus: member.status === 'suspended' ? ('suspended' as const) : ('active' as const),
    schedule,
  });
  const validity = (credential: CredentialRow) => ({
    validFrom: toIso(credential.valid_from),
    validUntil: toIso(credential.valid_until),
  });

  // Opening from the app works for everyone with access, in their schedule, once they have joined:
  // an invitation not yet accepted may have reached someone else's account (docs/decisions.md).
  for (const member of members) {
    if (member.status === 'invited' || !reaches.has(member.id)) continue;
    entries.push({
      ...person(member, schedules.get(`${member.id} ${device.id}`) ?? null),
      credentialId: `remote:${member.id}`,
      kind: 'remote',
      secret: member.id,
      validFrom: null,
      validUntil: null,
    });
  }
  for (const credential of facts.credentials) {
    const base = { credentialId: credential.id, kind: credential.kind, secret: credential.secret };
    if (credential.holder_type === 'person') {
      const member = credential.user_id ? memberById.get(credential.user_id) : undefined;
      if (!member) continue;
      // A key works at its locks whenever it is valid; everything else follows the person's schedule.
      const schedule =
        credential.kind === 'key' ? null : (schedules.get(`${member.id} ${device.id}`) ?? null);
      entries.push({ ...base, ...person(member, schedule), ...validity(credential) });
      continue;
    }
    if (credential.holder_type === 'company' && (!codeLength || !fitsLength(credential.secret, codeLength))) {
      continue;
    }
    const invite = facts.inviteByCredential.get(credential.id);
    // A stay's guest (features/stays) has no invite: the credential's validity is the stay.
    if (credential.holder_type === 'guest' && !invite && credential.variant !== 'stay') continue;
    entries.push({
      ...base,
      holderType: credential.holder_type,
      userId: null,
      userRole: credential.holder_type === 'master' ? 'admin' : null,
      userStatus: 'active',
      schedule: invite ? inviteSchedule(inviteWindowOf(invite)) : null,
      ...validity(credential),
    });
    const stay = facts.stayByCredential.get(credential.id);
    sources.set(credential.id, {
      label: nonPersonLabel(credential, { inviteName: invite?.name, stay }),
      stay: stay ?? null,
    });
  }
  const set: CredentialSet = {
    deviceId: device.id,
    version: 0,
    timeZone: device.time_zone,
    entries,
    lockouts: facts.lockouts,
  };
  return { set, members, sources };
}
