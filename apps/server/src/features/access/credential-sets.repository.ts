import type { Schedule } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { CredentialRow, DeviceInviteRow, LockoutRow } from '../../db/schema';
import { findMembers, type MemberRecord } from '../../base/tenancy/memberships.repository';

// What credential sets are built from, read for many locks at once (credential-sets.ts): each
// function is one query per slice of ids, whatever the number of locks in the slice.

/** Ids per `in (…)` list, under both databases' bound-parameter limits. */
export const IDS_PER_QUERY = 1000;

/** Runs `query` over `ids` in slices and concatenates the answers, in slice order. */
export async function inSlices<T>(ids: readonly string[], query: (slice: string[]) => Promise<T[]>) {
  const rows: T[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    rows.push(...(await query(ids.slice(start, start + IDS_PER_QUERY))));
  }
  return rows;
}

/** Who reaches each of these locks directly, and through which groups (group names for previews). */
export async function listLinksOfLocks(db: Database, portalId: string, deviceIds: string[]) {
  const [direct, viaGroups] = await Promise.all([
    db
      .selectFrom('device_users')
      .select(['user_id', 'device_id'])
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', deviceIds)
      .execute(),
    db
      .selectFrom('group_devices as gd')
      .innerJoin('group_users as gu', (j) =>
        j.onRef('gu.group_id', '=', 'gd.group_id').onRef('gu.portal_id', '=', 'gd.portal_id'),
      )
      .innerJoin('groups as g', (j) =>
        j.onRef('g.id', '=', 'gd.group_id').onRef('g.portal_id', '=', 'gd.portal_id'),
      )
      .select(['gu.user_id', 'gd.device_id', 'g.id as group_id', 'g.name as group_name'])
      .where('gd.portal_id', '=', portalId)
      .where('gd.device_id', 'in', deviceIds)
      .orderBy('g.name')
      .execute(),
  ]);
  return { direct, viaGroups };
}

/** People's schedules at these locks, keyed "userId deviceId". */
export async function listSchedulesAtLocks(
  db: Database,
  portalId: string,
  deviceIds: string[],
): Promise<Map<string, Schedule>> {
  const rows = await db
    .selectFrom('user_device_schedules')
    .select(['user_id', 'device_id', 'schedule_json'])
    .where('portal_id', '=', portalId)
    .where('device_id', 'in', deviceIds)
    .execute();
  return new Map(rows.map((r) => [`${r.user_id} ${r.device_id}`, JSON.parse(r.schedule_json) as Schedule]));
}

/**
 * Live credentials bound to these locks that may belong in their sets, one row per credential and
 * lock: guest and master codes, digital keys that someone holds, and people's fingerprints (which
 * count only where their holder has access; the builder checks that).
 */
export function listBoundCredentials(
  db: Database,
  portalId: string,
  deviceIds: string[],
): Promise<(CredentialRow & { device_id: string })[]> {
  return db
    .selectFrom('credential_devices as cd')
    .innerJoin('credentials as c', (j) =>
      j.onRef('c.id', '=', 'cd.credential_id').onRef('c.portal_id', '=', 'cd.portal_id'),
    )
    .selectAll('c')
    .select('cd.device_id')
    .where('cd.portal_id', '=', portalId)
    .where('cd.device_id', 'in', deviceIds)
    .where('c.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('c.holder_type', 'in', ['guest', 'master']),
        eb.and([eb('c.kind', '=', 'key'), eb('c.variant', '=', 'digital'), eb('c.user_id', 'is not', null)]),
        eb.and([eb('c.holder_type', '=', 'person'), eb('c.kind', '=', 'fingerprint')]),
      ]),
    )
    .execute();
}

/** The live codes and cards of these people: they work wherever their holder has access. */
export function listCodesAndCardsOf(db: Database, portalId: string, userIds: string[]) {
  return inSlices(userIds, (slice) =>
    db
      .selectFrom('credentials')
      .selectAll()
      .where('portal_id', '=', portalId)
      .where('user_id', 'in', slice)
      .where('kind', 'in', ['code', 'rfid'])
      .where('holder_type', '=', 'person')
      .where('revoked_at', 'is', null)
      .execute(),
  );
}

/** The portal's live company credentials (they reach every lock whose keypad takes them). */
export function listCompanyCredentials(db: Database, portalId: string): Promise<CredentialRow[]> {
  return db
    .selectFrom('credentials')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('holder_type', '=', 'company')
    .where('revoked_at', 'is', null)
    .execute();
}

/** The live guest invites of these locks. */
export function listInvitesOfLocks(
  db: Database,
  portalId: string,
  deviceIds: string[],
): Promise<DeviceInviteRow[]> {
  return db
    .selectFrom('device_invites')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('device_id', 'in', deviceIds)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Every lockout that covers one of these locks (past, present and future), with the lock. */
export function listLockoutsOfLocks(
  db: Database,
  portalId: string,
  deviceIds: string[],
): Promise<(LockoutRow & { device_id: string })[]> {
  return db
    .selectFrom('lockouts as l')
    .innerJoin('lockout_devices as ld', (j) =>
      j.onRef('ld.lockout_id', '=', 'l.id').onRef('ld.portal_id', '=', 'l.portal_id'),
    )
    .selectAll('l')
    .select('ld.device_id')
    .where('l.portal_id', '=', portalId)
    .where('ld.device_id', 'in', deviceIds)
    .execute();
}

/** Members with these ids, in findMembers' order when they fit one slice. */
export function findMembersIn(db: Database, portalId: string, userIds: string[]): Promise<MemberRecord[]> {
  return inSlices(userIds, (slice) => findMembers(db, portalId, slice));
}
