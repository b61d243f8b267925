import {
  evaluateAccess,
  explainEntry,
  formatDateTime,
  formatWallClock,
  LOCKOUT_IN_EFFECT,
  lockoutHoldingOut,
  lockoutsInEffect,
  type CredentialSet,
  type DeviceAccess,
  type DeviceUser,
  type AccessDenialReason,
  type DeviceCommandRequest,
  type Lockout,
  type MemberAccessTime,
  type MemberDevice,
  type Schedule,
  personName,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { DeviceRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevice, findDevices } from '../devices/devices.repository';
import { findMember, findMembers, type MemberRecord } from '../../base/tenancy/memberships.repository';
import {
  findLockoutNames,
  linkUserToDevice,
  listAccessPaths,
  listSchedules,
  saveSchedule,
  unlinkUserFromDevice,
  type AccessPath,
} from './access.repository';
import { loadCredentialSets } from './credential-sets';
import { changeAccess } from '../../base/access-changes/touched-locks';

const via = (path: AccessPath) => ({
  direct: path.direct,
  groups: path.groups.map((g) => ({ _id: g.id, name: g.name })),
});

async function requireDevice(db: Database, portalId: string, deviceId: string): Promise<DeviceRow> {
  const device = await findDevice(db, portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  return device;
}

async function requireMember(db: Database, portalId: string, userId: string): Promise<MemberRecord> {
  const member = await findMember(db, portalId, userId);
  if (!member) throw AppError.notFound('Person');
  return member;
}

/** The people who may use a lock, how they reach it and their schedule there. */
export async function getDeviceUsers(
  db: Database,
  portalId: string,
  deviceId: string,
): Promise<DeviceUser[]> {
  await requireDevice(db, portalId, deviceId);
  const paths = await listAccessPaths(db, portalId, { deviceId });
  const [members, schedules] = await Promise.all([
    findMembers(
      db,
      portalId,
      paths.map((p) => p.userId),
    ),
    listSchedules(db, portalId, { deviceId }),
  ]);
  const pathByUser = new Map(paths.map((p) => [p.userId, p]));
  return members.map((m) => ({
    _id: m.id,
    email: m.email,
    firstName: m.first_name,
    lastName: m.last_name,
    role: m.role,
    status: m.status,
    schedule: schedules.get(`${m.id} ${deviceId}`) ?? null,
    via: via(pathByUser.get(m.id)!),
  }));
}

/** Members of the portal who cannot reach the lock yet. */
export async function getPossibleDeviceUsers(db: Database, portalId: string, deviceId: string) {
  await requireDevice(db, portalId, deviceId);
  const withAccess = new Set((await listAccessPaths(db, portalId, { deviceId })).map((p) => p.userId));
  const members = await findMembers(db, portalId);
  return members
    .filter((m) => !withAccess.has(m.id))
    .map((m) => ({ _id: m.id, email: m.email, firstName: m.first_name, lastName: m.last_name }));
}

/** The locks a person can reach, how and when. */
export async function getUserDevices(
  db: Database,
  portalId: string,
  userId: string,
): Promise<MemberDevice[]> {
  await requireMember(db, portalId, userId);
  const paths = await listAccessPaths(db, portalId, { userId });
  const [devices, schedules] = await Promise.all([
    findDevices(
      db,
      portalId,
      paths.map((p) => p.deviceId),
    ),
    listSchedules(db, portalId, { userId }),
  ]);
  const pathByDevice = new Map(paths.map((p) => [p.deviceId, p]));
  return devices
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((d) => ({
      _id: d.id,
      name: d.name,
      timeZone: d.time_zone,
      schedule: schedules.get(`${userId} ${d.id}`) ?? null,
      via: via(pathByDevice.get(d.id)!),
    }));
}

/**
 * Gives a person direct access to a lock (idempotent). With a schedule (null: at any time) it is set
 * in the same change: "Undo" after a removal gives the access back with the schedule it had, at once
 * (docs/decisions.md "Undo removing access (issue 19)"); without one, a schedule kept because they
 * reach the lock through a group stays as it is.
 */
export async function grantDirectAccess(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  userId: string,
  schedule?: Schedule | null,
) {
  await changeAccess(db, async (trx, touch) => {
    const device = await requireDevice(trx, context.portalId, deviceId);
    const member = await requireMember(trx, context.portalId, userId);
    await linkUserToDevice(trx, context.portalId, deviceId, userId);
    if (schedule !== undefined) await saveSchedule(trx, context.portalId, deviceId, userId, schedule);
    await touch(context.portalId, { locks: [deviceId] });
    await recordChange(trx, context, {
      action: 'access.grant',
      entityType: 'device',
      entityId: deviceId,
      userId,
      after: {
        user: member.email,
        device: device.name,
        ...(schedule !== undefined ? { schedule } : {}),
      },
    });
  });
}

/** Removes a person's direct access to a lock; access through groups stays. */
export async function revokeDirectAccess(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  userId: string,
) {
  await changeAccess(db, async (trx, touch) => {
    const device = await requireDevice(trx, context.portalId, deviceId);
    const member = await requireMember(trx, context.portalId, userId);
    // The schedule goes too when no way to the lock is left (unlinkUserFromDevice); the change log
    // keeps it, and Undo sends it back with the grant.
    const schedule = await unlinkUserFromDevice(trx, context.portalId, deviceId, userId);
    await touch(context.portalId, { locks: [deviceId] });
    await recordChange(trx, context, {
      action: 'access.revoke',
      entityType: 'device',
      entityId: deviceId,
      userId,
      before: { user: member.email, device: device.name, schedule },
    });
  });
}

/** A person's schedule at a lock (null: at any time). */
export async function getUserSchedule(db: Database, portalId: string, deviceId: string, userId: string) {
  await requireDevice(db, portalId, deviceId);
  await requireMember(db, portalId, userId);
  const schedules = await listSchedules(db, portalId, { deviceId, userId });
  return { schedule: schedules.get(`${userId} ${deviceId}`) ?? null };
}

/** Sets a person's schedule at a lock they can reach. */
export async function setUserSchedule(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  userId: string,
  schedule: Schedule | null,
) {
  return changeAccess(db, async (trx, touch) => {
    const device = await requireDevice(trx, context.portalId, deviceId);
    const member = await requireMember(trx, context.portalId, userId);
    const paths = await listAccessPaths(trx, context.portalId, { deviceId, userId });
    if (paths.length === 0) {
      throw AppError.badRequest(`${member.email} has no access to ${device.name}; give them access first`);
    }
    const before = (await listSchedules(trx, context.portalId, { deviceId, userId })).get(
      `${userId} ${deviceId}`,
    );
    await saveSchedule(trx, context.portalId, deviceId, userId, schedule);
    await touch(context.portalId, { locks: [deviceId] });
    await recordChange(trx, context, {
      action: 'schedule.set',
      entityType: 'schedule',
      entityId: `${deviceId}/${userId}`,
      deviceId,
      userId,
      before: { user: member.email, device: device.name, schedule: before ?? null },
      after: { user: member.email, device: device.name, schedule },
    });
    return { schedule };
  });
}

/** The credential set a lock should hold: every way each person with access can open it, and when. */
export async function buildCredentialSet(
  db: Database,
  portalId: string,
  device: DeviceRow,
): Promise<CredentialSet> {
  return (await loadCredentialSet(db, portalId, device)).set;
}

/** A lock's credential set with the members it was built from and a label per non-person entry. */
async function loadCredentialSet(db: Database, portalId: string, device: DeviceRow) {
  return (await loadCredentialSets(db, portalId, [device])).get(device.id)!;
}

/** Whether any of a person's entries in a set opens at an instant; if none, the first refusal. */
function personDecision(set: CredentialSet, userId: string, at: Date) {
  const entries = set.entries.filter((e) => e.userId === userId);
  const decisions = entries.map((entry) => explainEntry(set, entry, at));
  const granted = decisions.some((d) => d.granted);
  const refusal = decisions.find((d) => !d.granted);
  return {
    canOpen: granted,
    reason: granted || !refusal || refusal.granted ? null : refusal.reason,
    credentials: [...new Set(entries.map((e) => e.kind))],
  };
}

/**
 * For each lock a person reaches, whether they can open it at an instant and why not: the
 * person-side view of getDeviceAccessAt, decided by the same engine over each lock's set.
 */
export async function getUserAccessTime(
  db: Database,
  portalId: string,
  userId: string,
  at: Date,
): Promise<MemberAccessTime> {
  const locks = await getUserDevices(db, portalId, userId);
  const devices = await findDevices(
    db,
    portalId,
    locks.map((lock) => lock._id),
  );
  const deviceById = new Map(devices.map((d) => [d.id, d]));
  const answers = [];
  // One set per lock: a person reaches a handful of locks, and each set is what that lock holds.
  for (const lock of locks) {
    const device = deviceById.get(lock._id)!;
    const { set } = await loadCredentialSet(db, portalId, device);
    answers.push({
      ...lock,
      localTime: formatWallClock(at, lock.timeZone),
      ...personDecision(set, userId, at),
      online: Number(device.online) === 1,
      lastSeenAt: toIso(device.last_seen_at),
    });
  }
  return { at: at.toISOString(), locks: answers };
}

/** Why a basic user may not open a lock from the app now (the lock would refuse them too). */
const REMOTE_REFUSALS: Record<AccessDenialReason, string> = {
  unknown_credential: 'You have no access to this lock',
  suspended: 'Your access is suspended',
  lockout: 'A lockout is in effect at this lock',
  not_yet_valid: 'Your access has not started yet',
  expired: 'Your access has expired',
  outside_schedule: 'You may not open this lock at this time',
};

/**
 * 409 lockout_in_effect: an admin's remote unlock during a lockout that does not let admins
 * through, saying until when on the lock's clock.
 */
function lockoutInEffect(lockout: Lockout, timeZone: string): AppError {
  // The screens' format (packages/shared time-format), on the lock's clock with its zone.
  const until = lockout.until
    ? `until ${formatDateTime(lockout.until, timeZone, { zone: true })}`
    : 'with no end';
  return new AppError(
    LOCKOUT_IN_EFFECT,
    `A lockout that keeps admins out is in effect at this lock ${until}: end it, or let admins through, to open the lock`,
    409,
  );
}

/**
 * Whether someone may send a remote unlock or lock to a lock now, for every door that sends one
 * (POST device/{id}/command, the `device` collection's unlock and lock). A basic user: only when
 * their own access opens it now (403 with the reason). An admin: any lock, except an unlock during
 * a lockout that does not let admins through (409 lockout_in_effect): the lockout page promises
 * "nobody can open these locks, admins included", as the lock keeps it for their code.
 */
export async function assertMaySendCommand(
  db: Database,
  portalId: string,
  deviceId: string,
  caller: { isAdmin: boolean; userId: string },
  action: DeviceCommandRequest['action'],
  at: Date,
): Promise<void> {
  const device = await requireDevice(db, portalId, deviceId);
  // An admin's lock needs no decision: the lock's set is built only when one is taken.
  if (caller.isAdmin && action !== 'unlock') return;
  const { set } = await loadCredentialSet(db, portalId, device);
  if (!caller.isAdmin) {
    const decision = evaluateAccess(set, { kind: 'remote', secret: caller.userId }, at);
    if (!decision.granted) throw AppError.forbidden(REMOTE_REFUSALS[decision.reason]);
    return;
  }
  const lockout = lockoutHoldingOut(set.lockouts, 'admin', at);
  if (lockout) throw lockoutInEffect(lockout, device.time_zone);
}

/** Who can open a lock at an instant, and for everyone else with access, why not. */
export async function getDeviceAccessAt(
  db: Database,
  portalId: string,
  deviceId: string,
  at: Date,
): Promise<DeviceAccess> {
  const device = await requireDevice(db, portalId, deviceId);
  const { set, members: all, sources } = await loadCredentialSet(db, portalId, device);
  const members = all.filter((m) => set.entries.some((e) => e.userId === m.id));
  const people = members.map((member) => ({
    _id: member.id,
    name: personName(member.first_name, member.last_name, member.email),
    email: member.email,
    ...personDecision(set, member.id, at),
  }));
  const others = set.entries.flatMap((entry) => {
    if (entry.holderType === 'person') return [];
    const decision = explainEntry(set, entry, at);
    const source = sources.get(entry.credentialId);
    return [
      {
        _id: entry.credentialId,
        holderType: entry.holderType,
        name: source?.label ?? entry.holderType,
        // A guest's app-style entry is what their QR code opens as: to them it is a QR code.
        kind: entry.kind === 'remote' ? ('qr' as const) : entry.kind,
        stay: source?.stay ? { _id: source.stay.stayId, listingId: source.stay.listingId } : null,
        canOpen: decision.granted,
        reason: decision.granted ? null : decision.reason,
      },
    ];
  });
  // Those that keep admins out first: the lock page's header holds back its unlock for them.
  const inEffect = lockoutsInEffect(set.lockouts, at).sort(
    (a, b) => Number(a.exemptAdmins) - Number(b.exemptAdmins),
  );
  const names = await findLockoutNames(
    db,
    portalId,
    inEffect.map((lockout) => lockout.lockoutId),
  );
  return {
    at: at.toISOString(),
    timeZone: device.time_zone,
    localTime: formatWallClock(at, device.time_zone),
    people,
    others,
    lockouts: inEffect.map((lockout) => ({
      _id: lockout.lockoutId,
      name: names.get(lockout.lockoutId) ?? 'Lockout',
      until: lockout.until,
      exemptAdmins: lockout.exemptAdmins,
    })),
  };
}
