import crypto from 'node:crypto';
import { LOCK_MODELS, localWallTime, type DeviceInvite, type DeviceInviteInput } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { DeviceInviteRow, DeviceRow, UserRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { assertCodeAllowed, generateFreeCode } from '../credentials/code-rules';
import {
  bindCredentialToDevice,
  findCredential,
  insertCredential,
  revokeCredential,
  updateCredential,
} from '../credentials/credentials.repository';
import { findDevice } from '../devices/devices.repository';
import type { MailThrottle } from '../../base/mail/mail-throttle';
import { sendMail } from '../../base/mail/send-mail';
import { deviceInvitationMail } from '../../base/mail/mail.templates';
import { findPortalById } from '../../base/tenancy/portals.repository';
import {
  findInvite,
  insertInvite,
  listInvitesOfDevice,
  markInviteSent,
  updateInvite,
} from './invites.repository';
import { inviteWindowOf, type InviteWindow } from '../access/invite-schedule';

// A device invite gives a guest without an account a code for one lock, in a weekly window between
// two dates (the lock's calendar). The code is a credential of holder type 'guest', bound to the lock.
// Its mail goes out through sendMail as mail to others (send-mail.ts): only a person whose address
// is confirmed sends it, within the per-recipient, per-sender and per-portal limits.

/** Who makes the portal send an invitation mail, and the throttle it goes through. */
export interface InviteSender {
  user: UserRow;
  throttle: MailThrottle;
}

type InviteInput = Required<Omit<DeviceInviteInput, 'code'>> & { code?: string };

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function describeWindow(window: InviteWindow): string {
  const days = [1, 2, 3, 4, 5, 6, 0].filter((d) => window.days.includes(d)).map((d) => DAY_NAMES[d]);
  return `${days.join(', ')} ${window.start}–${window.end}`;
}

function stateOf(window: InviteWindow, device: DeviceRow): DeviceInvite['state'] {
  const today = localWallTime(new Date(), device.time_zone).date;
  if (today < window.startDate) return 'upcoming';
  return today > window.endDate ? 'ended' : 'active';
}

async function present(db: Database, device: DeviceRow, row: DeviceInviteRow): Promise<DeviceInvite> {
  const window = inviteWindowOf(row);
  const credential = await findCredential(db, row.portal_id, row.credential_id);
  return {
    _id: row.id,
    deviceId: row.device_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    ...window,
    code: credential?.secret ?? '',
    state: stateOf(window, device),
    lastSentAt: toIso(row.last_sent_at),
    sentCount: row.sent_count,
    createdAt: toIso(row.created_at),
  };
}

async function requireDevice(db: Database, portalId: string, deviceId: string): Promise<DeviceRow> {
  const device = await findDevice(db, portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  if (!LOCK_MODELS[device.model].keypad) {
    throw AppError.badRequest(`${device.name} has no keypad, so a guest code cannot open it`);
  }
  return device;
}

async function requireInvite(db: Database, portalId: string, deviceId: string, inviteId: string) {
  const invite = await findInvite(db, portalId, deviceId, inviteId);
  if (!invite) throw AppError.notFound('Invite');
  return invite;
}

function windowOf(input: InviteInput): InviteWindow {
  return {
    days: [...input.days].sort((a, b) => a - b),
    start: input.start,
    end: input.end,
    startDate: input.startDate,
    endDate: input.endDate,
  };
}

/** The guest's code: the one given (checked against the code rules), or a free one the keypad takes. */
async function chooseCode(
  db: Database,
  portalId: string,
  device: DeviceRow,
  input: InviteInput,
  currentCredentialId?: string,
): Promise<string> {
  if (input.code) {
    await assertCodeAllowed(db, portalId, input.code, [device], (held) => held.id === currentCredentialId);
    return input.code;
  }
  const limits = LOCK_MODELS[device.model].codeLength!;
  return generateFreeCode(db, portalId, Math.min(Math.max(6, limits.min), limits.max));
}

/** Queues the invitation mail (403/429 from the throttle roll the change back) and counts it as sent. */
async function sendInvitation(
  db: Database,
  context: ChangeContext,
  sender: InviteSender,
  device: DeviceRow,
  invite: DeviceInvite,
) {
  if (!invite.email) {
    const message = 'is needed to send the invitation';
    throw AppError.badRequest(`email ${message}`, [{ path: 'body.email', message }]);
  }
  const portal = await findPortalById(db, context.portalId);
  const mail = deviceInvitationMail({
    guestName: invite.name,
    portalName: portal?.name ?? 'Latchkey',
    lockName: device.name,
    code: invite.code,
    when: describeWindow(invite),
    startDate: invite.startDate,
    endDate: invite.endDate,
    timeZone: device.time_zone,
  });
  await sendMail(
    db,
    'to-others',
    { portalId: context.portalId, template: 'device_invitation', to: invite.email, ...mail },
    sender,
  );
  await markInviteSent(db, context.portalId, invite._id);
}

/** What the change log keeps of an invite: everything but the code. */
function logged(invite: DeviceInvite) {
  const { code: _code, lastSentAt: _sent, sentCount: _count, state: _state, ...rest } = invite;
  return rest;
}

export async function getInvites(db: Database, portalId: string, deviceId: string): Promise<DeviceInvite[]> {
  const device = await findDevice(db, portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  const rows = await listInvitesOfDevice(db, portalId, deviceId);
  return Promise.all(rows.map((row) => present(db, device, row)));
}

/** 400 for a window that has already ended on the lock's calendar: the code could never open it. */
function assertNotEnded(device: DeviceRow, input: InviteInput): void {
  const today = localWallTime(new Date(), device.time_zone).date;
  if (input.endDate < today) {
    const message = `is in the past (today is ${today} where ${device.name} is)`;
    throw AppError.badRequest(`endDate ${message}`, [{ path: 'body.endDate', message }]);
  }
}

/** Creates a guest invite; `sender` is needed when it is mailed (`input.send`), not for seed data. */
export async function createInvite(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  input: InviteInput,
  sender?: InviteSender,
): Promise<DeviceInvite> {
  return changeAccess(db, async (trx, touch) => {
    const device = await requireDevice(trx, context.portalId, deviceId);
    assertNotEnded(device, input);
    const code = await chooseCode(trx, context.portalId, device, input);
    const credentialId = crypto.randomUUID();
    const now = nowIso();
    await insertCredential(trx, {
      id: credentialId,
      portal_id: context.portalId,
      user_id: null,
      holder_type: 'guest',
      kind: 'code',
      secret: code,
      name: input.name,
      created_at: now,
    });
    await bindCredentialToDevice(trx, context.portalId, credentialId, deviceId);
    const id = crypto.randomUUID();
    await insertInvite(trx, {
      id,
      portal_id: context.portalId,
      device_id: deviceId,
      credential_id: credentialId,
      name: input.name,
      email: input.email || null,
      phone: input.phone || null,
      schedule_json: JSON.stringify(windowOf(input)),
      created_at: now,
      updated_at: now,
    });
    await touch(context.portalId, { locks: [deviceId] });
    let invite = await present(trx, device, (await findInvite(trx, context.portalId, deviceId, id))!);
    if (input.send) {
      if (!sender) throw new Error('mailing an invite needs its sender');
      await sendInvitation(trx, context, sender, device, invite);
      invite = await present(trx, device, (await findInvite(trx, context.portalId, deviceId, id))!);
    }
    await recordChange(trx, context, {
      action: 'invite.create',
      entityType: 'device_invite',
      entityId: id,
      deviceId: device.id,
      after: { device: device.name, ...logged(invite) },
    });
    return invite;
  });
}

export async function saveInvite(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  inviteId: string,
  input: InviteInput,
  sender: InviteSender,
): Promise<DeviceInvite> {
  return changeAccess(db, async (trx, touch) => {
    const device = await requireDevice(trx, context.portalId, deviceId);
    const row = await requireInvite(trx, context.portalId, deviceId, inviteId);
    const before = await present(trx, device, row);
    await touch(context.portalId, { locks: [deviceId] });
    // Without a new code the guest keeps theirs.
    const code = input.code
      ? await chooseCode(trx, context.portalId, device, input, row.credential_id)
      : before.code;
    await updateCredential(trx, context.portalId, row.credential_id, { secret: code, name: input.name });
    await updateInvite(trx, context.portalId, inviteId, {
      name: input.name,
      email: input.email || null,
      phone: input.phone || null,
      schedule_json: JSON.stringify(windowOf(input)),
    });
    let after = await present(trx, device, (await findInvite(trx, context.portalId, deviceId, inviteId))!);
    if (input.send) {
      await sendInvitation(trx, context, sender, device, after);
      after = await present(trx, device, (await findInvite(trx, context.portalId, deviceId, inviteId))!);
    }
    await recordChange(trx, context, {
      action: 'invite.update',
      entityType: 'device_invite',
      entityId: inviteId,
      deviceId,
      before: { device: device.name, ...logged(before) },
      after: { device: device.name, ...logged(after) },
    });
    return after;
  });
}

/** Sends the invitation again (the guest lost it). */
export async function resendInvite(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  inviteId: string,
  sender: InviteSender,
) {
  return db.transaction().execute(async (trx) => {
    const device = await requireDevice(trx, context.portalId, deviceId);
    const invite = await present(trx, device, await requireInvite(trx, context.portalId, deviceId, inviteId));
    await sendInvitation(trx, context, sender, device, invite);
    await recordChange(trx, context, {
      action: 'invite.resend',
      entityType: 'device_invite',
      entityId: inviteId,
      deviceId,
      after: { device: device.name, name: invite.name, email: invite.email },
    });
    return present(trx, device, (await findInvite(trx, context.portalId, deviceId, inviteId))!);
  });
}

/** Deletes an invite: the guest's code stops working. */
export async function deleteInvite(db: Database, context: ChangeContext, deviceId: string, inviteId: string) {
  await changeAccess(db, async (trx, touch) => {
    const device = await findDevice(trx, context.portalId, deviceId);
    if (!device) throw AppError.notFound('Lock');
    const row = await requireInvite(trx, context.portalId, deviceId, inviteId);
    const before = await present(trx, device, row);
    await revokeCredential(trx, context.portalId, row.credential_id);
    await touch(context.portalId, { locks: [deviceId] });
    await updateInvite(trx, context.portalId, inviteId, { deleted_at: nowIso() });
    await recordChange(trx, context, {
      action: 'invite.delete',
      entityType: 'device_invite',
      entityId: inviteId,
      deviceId,
      before: { device: device.name, ...logged(before) },
    });
  });
}
