import {
  INVITATION_DAYS,
  type InviteAnswered,
  type Invitation,
  type InviteResponse,
  type UserInviteBody,
  personName,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { UserRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { linkUserToDevice, saveSchedule } from '../access/access.repository';
import { applyAccessCode } from '../credentials/access-code.service';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess, type Touch } from '../../base/access-changes/touched-locks';
import { findAccountToken, issueAccountToken, markAccountTokenUsed } from '../auth/account-tokens.repository';
import { assertAcceptablePassword, hashPassword, NO_PASSWORD } from '../auth/password';
import { createInvitedAccount, finishInvitedAccount } from '../auth/accounts';
import { findUserByEmail, findUserById } from '../../base/identity/users.repository';
import { findDevices } from '../devices/devices.repository';
import { findGroup, groupLockIds, linkGroup } from '../groups/groups.repository';
import { invitationMail } from '../../base/mail/mail.templates';
import { sendMail } from '../../base/mail/send-mail';
import { toPortalMember } from '../../base/tenancy/portal.presenter';
import {
  deleteMembership,
  findMember,
  insertMembership,
  updateMembership,
} from '../../base/tenancy/memberships.repository';
import { findPortalById } from '../../base/tenancy/portals.repository';
import { assertPortalMayGrow } from '../subscriptions/portal-standing.service';
import type { InviteSender } from '../invites/invites.service';

// Adding a person is an invitation (POST portal/user and POST user/invite alike): a membership in the
// 'invited' state plus a mail to the address. A person without an account gets one with no password
// (nobody can sign in to it) and a link (/invite?token=…) to choose their own; a person with an account
// signs in and accepts on /space/{portalId}, or follows the same link. An account made for someone is
// never given a password or a name by someone else, and the answer is the same whether or not the
// address had an account. Invitations can be accepted for INVITATION_DAYS after they were (re)sent;
// accepting twice is harmless.

const INVITATION_MINUTES = INVITATION_DAYS * 24 * 60;

function nameOf(user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>): string {
  return personName(user.first_name, user.last_name, user.email);
}

function isExpired(invitedAt: Date | string): boolean {
  return Date.now() - new Date(invitedAt).getTime() > INVITATION_MINUTES * 60_000;
}

/**
 * Issues a link token and queues the invitation mail through the mail throttle: only a person whose
 * own address is confirmed invites, within the per-recipient, per-sender and per-portal limits; a
 * refusal (403, 429) rolls back the change that would have sent it.
 */
async function sendInvitation(
  db: Database,
  context: ChangeContext,
  publicUrl: string,
  sender: InviteSender,
  invitee: UserRow,
) {
  const portal = await findPortalById(db, context.portalId);
  const member = (await findMember(db, context.portalId, invitee.id))!;
  const token = await issueAccountToken(db, invitee.id, 'invitation', INVITATION_MINUTES, context.portalId);
  const mail = invitationMail({
    portalName: portal!.name,
    invitedBy: nameOf(sender.user),
    role: member.role,
    link: `${publicUrl}/invite?token=${token}`,
    newAccount: invitee.password_hash === NO_PASSWORD,
    days: INVITATION_DAYS,
  });
  await sendMail(
    db,
    'to-others',
    { portalId: context.portalId, template: 'invitation', to: invitee.email, ...mail },
    sender,
  );
}

/**
 * POST portal/user and POST user/invite: invites a person by email with a role, the portal's name
 * for them, and optional groups and locks. The answer tells nothing about the address's account.
 */
export async function invitePerson(
  db: Database,
  context: ChangeContext,
  publicUrl: string,
  sender: InviteSender,
  input: UserInviteBody,
) {
  // A lapsed portal (a paid plan not paid up) keeps its people but adds none (portal-standing.service).
  await assertPortalMayGrow(db, context.portalId);
  return changeAccess(db, async (trx, touch) => {
    let invitee = await findUserByEmail(trx, input.email);
    if (invitee && (await findMember(trx, context.portalId, invitee.id))) {
      throw AppError.conflict(
        `${input.email} is already in this portal (or invited); re-invite them instead`,
      );
    }
    const groups = [];
    for (const groupId of new Set(input.groupIds)) {
      const group = await findGroup(trx, context.portalId, groupId);
      if (!group) throw AppError.notFound('Group');
      groups.push(group);
    }
    const deviceIds = [...new Set(input.deviceIds)];
    const devices = await findDevices(trx, context.portalId, deviceIds);
    if (devices.length !== deviceIds.length) throw AppError.notFound('Lock');
    const now = nowIso();
    // No password and no name: the person chooses both when they follow the link.
    invitee ??= await createInvitedAccount(trx, input.email);
    await insertMembership(trx, {
      portal_id: context.portalId,
      user_id: invitee.id,
      role: input.role,
      status: 'invited',
      // The portal's own name for them, as typed (possibly empty): until they accept, the portal
      // sees nothing of their account but the address it typed.
      first_name: input.firstName,
      last_name: input.lastName,
      // Added by a reseller acting here: it ends with the reseller's link (reseller-memberships.ts).
      acting_reseller_id: context.viaResellerId ?? null,
      created_at: now,
      updated_at: now,
    });
    // The portal's credentials (codes, cards…) work at once; the person's app access waits for
    // them to accept (docs/decisions.md "Adding people").
    for (const group of groups) await linkGroup(trx, context.portalId, group.id, { userId: invitee.id });
    for (const deviceId of deviceIds) await linkUserToDevice(trx, context.portalId, deviceId, invitee.id);
    // "Add person" gives the schedule and the code in the same step: one transaction, so a code
    // another holder has (a 400 on accessCode) adds nobody and sends no mail.
    if (input.schedule) {
      for (const deviceId of deviceIds)
        await saveSchedule(trx, context.portalId, deviceId, invitee.id, input.schedule);
    }
    if (input.accessCode) {
      await applyAccessCode(trx, touch, context, invitee.id, input.accessCode, 'accessCode');
    }
    await touch(context.portalId, { person: invitee.id });
    await sendInvitation(trx, context, publicUrl, sender, invitee);
    const member = toPortalMember((await findMember(trx, context.portalId, invitee.id))!);
    await recordChange(trx, context, {
      action: 'member.invite',
      entityType: 'member',
      entityId: invitee.id,
      after: {
        email: member.email,
        role: member.role,
        groups: input.groupIds.length,
        locks: deviceIds.length,
        schedule: input.schedule ?? null,
        hasCode: Boolean(input.accessCode),
      },
    });
    // Each lock and group given in the same step is in the change log as if given on its own page,
    // so the person's, the lock's and the group's histories say who gave it and when.
    for (const device of devices) {
      await recordChange(trx, context, {
        action: 'access.grant',
        entityType: 'device',
        entityId: device.id,
        userId: invitee.id,
        after: { user: member.email, device: device.name, schedule: input.schedule ?? null },
      });
    }
    for (const group of groups) {
      await recordChange(trx, context, {
        action: 'group.user.add',
        entityType: 'group',
        entityId: group.id,
        userId: invitee.id,
        // The group's locks, not the invitation's others (base/access-changes names those).
        deviceIds: await groupLockIds(trx, context.portalId, group.id),
        after: { group: group.name, user: member.email },
      });
    }
    return { member };
  });
}

/** POST user/re-invite/{id}: sends the invitation again with a fresh link and a fresh period. */
export async function reinvitePerson(
  db: Database,
  context: ChangeContext,
  publicUrl: string,
  sender: InviteSender,
  userId: string,
) {
  return db.transaction().execute(async (trx) => {
    const member = await findMember(trx, context.portalId, userId);
    if (!member) throw AppError.notFound('Person');
    if (member.status !== 'invited') throw AppError.conflict(`${member.email} has already accepted`);
    await updateMembership(trx, context.portalId, userId, {});
    await sendInvitation(trx, context, publicUrl, sender, (await findUserById(trx, userId))!);
    await recordChange(trx, context, {
      action: 'member.reinvite',
      entityType: 'member',
      entityId: userId,
      after: { email: member.email },
    });
    return { member: toPortalMember((await findMember(trx, context.portalId, userId))!) };
  });
}

/** The invitation behind a link; 400 for an unknown link. */
async function invitationBehind(db: Database, token: string) {
  const row = await findAccountToken(db, 'invitation', token);
  if (!row || !row.portal_id) throw AppError.badRequest('This invitation link is not valid');
  const [user, portal, member] = await Promise.all([
    findUserById(db, row.user_id),
    findPortalById(db, row.portal_id),
    findMember(db, row.portal_id, row.user_id),
  ]);
  if (!user || !portal) throw AppError.badRequest('This invitation link is not valid');
  // A replaced link, or an invitation withdrawn or declined since.
  if (!member || (row.used_at && member.status === 'invited')) {
    throw AppError.badRequest('This invitation is no longer open; ask for a new one');
  }
  return { row, user, portal, member };
}

/** POST user/inviteFetchUser: what an invitation link is for. */
export async function fetchInvitation(db: Database, token: string): Promise<Invitation> {
  const { row, user, portal, member } = await invitationBehind(db, token);
  const inviter = await db
    .selectFrom('audit_log as a')
    .innerJoin('users as u', 'u.id', 'a.actor_user_id')
    .select(['u.email', 'u.first_name', 'u.last_name'])
    .where('a.portal_id', '=', portal.id)
    .where('a.entity_id', '=', user.id)
    .where('a.action', 'in', ['member.invite', 'member.reinvite'])
    .orderBy('a.created_at', 'desc')
    .executeTakeFirst();
  return {
    email: user.email,
    // The link reached the address's owner: their account name, or what the portal typed for them.
    firstName: member.first_name || user.first_name,
    lastName: member.last_name || user.last_name,
    portal: { _id: portal.id, name: portal.name },
    role: member.role,
    invitedBy: inviter ? nameOf(inviter) : null,
    needsPassword: user.password_hash === NO_PASSWORD,
    status: member.status === 'invited' ? 'invited' : 'accepted',
    expiresAt: toIso(row.expires_at),
  };
}

/**
 * Moves an invited membership to active, or takes it away; audited in the portal. Once in, a portal
 * that typed no name for the person shows their account's name. Either way the person's locks
 * change: they gain opening from the app, or lose everything the portal gave them.
 */
async function settle(
  db: Database,
  touch: Touch,
  portalId: string,
  userId: string,
  accept: boolean,
  ip: string,
) {
  const context: ChangeContext = { portalId, actorUserId: userId, ip };
  await touch(portalId, { person: userId });
  if (accept) {
    await updateMembership(db, portalId, userId, { status: 'active' });
    for (const part of ['first_name', 'last_name'] as const) {
      await db
        .updateTable('memberships')
        .set({ [part]: null })
        .where('portal_id', '=', portalId)
        .where('user_id', '=', userId)
        .where(part, '=', '')
        .execute();
    }
  } else await deleteMembership(db, portalId, userId);
  await recordChange(db, context, {
    action: accept ? 'member.accept' : 'member.decline',
    entityType: 'member',
    entityId: userId,
  });
}

/**
 * POST user/inviteResponse: accept (choosing a password if the person has none) or decline. Accepting
 * an accepted invitation changes nothing. The answer carries a session when the person just chose
 * their password, so they land in the portal.
 */
export async function answerInvitation(
  db: Database,
  response: InviteResponse,
  ip: string,
): Promise<{ answered: InviteAnswered; signInUser: UserRow | null }> {
  const passwordHash =
    response.accept && response.password
      ? (assertAcceptablePassword(response.password), await hashPassword(response.password))
      : null;
  return changeAccess(db, async (trx, touch) => {
    const { row, user, portal, member } = await invitationBehind(trx, response.token);
    const answered = (status: InviteAnswered['status']) => ({ status, session: null, portalId: portal.id });
    if (member.status !== 'invited') {
      if (response.accept) return { answered: answered('accepted'), signInUser: null };
      throw AppError.conflict(
        'This invitation was accepted already; leave the portal from your profile instead',
      );
    }
    if (new Date(toIso(row.expires_at)) < new Date()) {
      throw AppError.badRequest('This invitation has expired; ask for a new one');
    }
    await markAccountTokenUsed(trx, row.id);
    if (!response.accept) {
      await settle(trx, touch, portal.id, user.id, false, ip);
      // An account made only for this invitation goes with it, so the address can sign up later.
      const elsewhere = await trx
        .selectFrom('memberships')
        .select('portal_id')
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (user.password_hash === NO_PASSWORD && !elsewhere) {
        await trx.deleteFrom('users').where('id', '=', user.id).execute();
      }
      return { answered: answered('declined'), signInUser: null };
    }
    const needsPassword = user.password_hash === NO_PASSWORD;
    if (needsPassword && !passwordHash) {
      const message = 'is required to finish your account';
      throw AppError.badRequest(`password ${message}`, [{ path: 'body.password', message }]);
    }
    if (needsPassword) {
      // The link came to this address, so it is proven (accounts.ts confirms it).
      await finishInvitedAccount(trx, user.id, {
        passwordHash: passwordHash!,
        // Their own name, or what the portal typed for them if they give none.
        firstName: response.firstName ?? member.first_name,
        lastName: response.lastName ?? member.last_name,
      });
    }
    await settle(trx, touch, portal.id, user.id, true, ip);
    return {
      answered: answered('accepted'),
      signInUser: needsPassword ? (await findUserById(trx, user.id))! : null,
    };
  });
}

/** POST portal/user/portal/{id}/accept and /decline: the signed-in person answers an invitation. */
export async function answerPortalInvitation(
  db: Database,
  user: UserRow,
  portalId: string,
  accept: boolean,
  ip: string,
) {
  return changeAccess(db, async (trx, touch) => {
    const member = await findMember(trx, portalId, user.id);
    if (!member) throw AppError.notFound('Invitation');
    if (member.status !== 'invited') {
      if (accept) return { status: 'accepted' as const, portalId };
      throw AppError.conflict('You are already a member; leave the portal instead');
    }
    // Otherwise anyone could sign up with someone else's address and take their invitations.
    if (accept && !user.email_verified_at) {
      throw AppError.forbidden('Confirm your email address first; then accept the invitation');
    }
    const invitedAt = (
      await trx
        .selectFrom('memberships')
        .select('updated_at')
        .where('portal_id', '=', portalId)
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow()
    ).updated_at;
    if (accept && isExpired(invitedAt))
      throw AppError.badRequest('This invitation has expired; ask for a new one');
    await settle(trx, touch, portalId, user.id, accept, ip);
    return { status: accept ? ('accepted' as const) : ('declined' as const), portalId };
  });
}
