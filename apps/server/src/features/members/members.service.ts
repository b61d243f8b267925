import crypto from 'node:crypto';
import type { MemberCreate, MemberUpdate, PortalMember } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ChangeContext } from '../../http/access';
import { AppError } from '../../http/errors';
import { recordChange } from '../audit/audit.repository';
import { assertAcceptablePassword, hashPassword } from '../auth/password';
import { findUserByEmail, insertUser, updateUserName } from '../auth/users.repository';
import { getAccessCode } from '../credentials/access-code.service';
import { revokeCredentialsOfUser } from '../credentials/credentials.repository';
import { toPortalMember } from '../portals/portal.presenter';
import {
  deleteMembership,
  findMember,
  insertMembership,
  updateMembership,
  type MemberRecord,
} from '../portals/memberships.repository';

async function requireMember(db: Database, portalId: string, userId: string): Promise<MemberRecord> {
  const member = await findMember(db, portalId, userId);
  if (!member) throw AppError.notFound('Person');
  return member;
}

/** The owner keeps their place, and nobody suspends or removes themselves. */
function assertChangeable(member: MemberRecord, context: ChangeContext, what: string): void {
  if (Number(member.is_owner) === 1) throw AppError.conflict(`The portal owner's ${what} cannot be changed`);
  if (member.id === context.actorUserId) throw AppError.conflict(`You cannot change your own ${what}`);
}

/**
 * An admin adds a person: an existing account joins the portal; a new one is made with the given
 * password or a generated one, answered this once. (Invitations by email come with the mail issue.)
 */
export async function addMember(
  db: Database,
  context: ChangeContext,
  input: Required<Omit<MemberCreate, 'password'>> & { password?: string },
) {
  let initialPassword: string | null = null;
  const existing = await findUserByEmail(db, input.email);
  let passwordHash: string | null = null;
  if (!existing) {
    if (input.password) assertAcceptablePassword(input.password);
    else initialPassword = crypto.randomBytes(9).toString('base64url');
    passwordHash = await hashPassword(input.password ?? initialPassword!);
  }
  return db.transaction().execute(async (trx) => {
    let userId = existing?.id;
    const now = nowIso();
    if (existing) {
      if (await findMember(trx, context.portalId, existing.id))
        throw AppError.conflict(`${input.email} is already in this portal`);
    } else {
      userId = crypto.randomUUID();
      await insertUser(trx, {
        id: userId,
        email: input.email,
        password_hash: passwordHash!,
        first_name: input.firstName,
        last_name: input.lastName,
        platform_role: null,
        status: 'active',
        email_verified_at: null,
        created_at: now,
        updated_at: now,
      });
    }
    await insertMembership(trx, {
      portal_id: context.portalId,
      user_id: userId!,
      role: input.role,
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    const member = toPortalMember((await findMember(trx, context.portalId, userId!))!);
    await recordChange(trx, context, {
      action: 'member.add',
      entityType: 'member',
      entityId: userId!,
      after: { email: member.email, role: member.role },
    });
    return { member, initialPassword };
  });
}

export async function getMemberDetail(db: Database, portalId: string, userId: string) {
  const member = await requireMember(db, portalId, userId);
  return { member: toPortalMember(member), accessCode: await getAccessCode(db, portalId, userId) };
}

/** An admin changes a person's name or role in the portal. */
export async function updateMember(
  db: Database,
  context: ChangeContext,
  userId: string,
  update: MemberUpdate,
): Promise<PortalMember> {
  return db.transaction().execute(async (trx) => {
    const before = await requireMember(trx, context.portalId, userId);
    if (update.role !== undefined && update.role !== before.role) {
      if (Number(before.is_owner) === 1) throw AppError.conflict("The portal owner's role cannot be changed");
      await updateMembership(trx, context.portalId, userId, { role: update.role });
    }
    if (update.firstName !== undefined || update.lastName !== undefined) {
      await updateUserName(trx, userId, {
        firstName: update.firstName ?? before.first_name,
        lastName: update.lastName ?? before.last_name,
      });
    }
    const after = toPortalMember((await findMember(trx, context.portalId, userId))!);
    await recordChange(trx, context, {
      action: 'member.update',
      entityType: 'member',
      entityId: userId,
      before: { firstName: before.first_name, lastName: before.last_name, role: before.role },
      after: { firstName: after.firstName, lastName: after.lastName, role: after.role },
    });
    return after;
  });
}

/** Suspends (no lock opens for them here, no acting here) or reactivates a person. */
export async function setMemberStatus(
  db: Database,
  context: ChangeContext,
  userId: string,
  status: 'active' | 'suspended',
) {
  return db.transaction().execute(async (trx) => {
    const before = await requireMember(trx, context.portalId, userId);
    assertChangeable(before, context, 'status');
    if (before.status === 'invited')
      throw AppError.conflict('This person has not accepted their invitation yet');
    await updateMembership(trx, context.portalId, userId, { status });
    await recordChange(trx, context, {
      action: `member.${status === 'active' ? 'activate' : 'suspend'}`,
      entityType: 'member',
      entityId: userId,
      before: { status: before.status },
      after: { status },
    });
    return toPortalMember((await findMember(trx, context.portalId, userId))!);
  });
}

/** Takes a person out of the portal: their links go and their credentials here are revoked. */
export async function removeMember(db: Database, context: ChangeContext, userId: string) {
  await db.transaction().execute(async (trx) => {
    const before = await requireMember(trx, context.portalId, userId);
    assertChangeable(before, context, 'membership');
    await revokeCredentialsOfUser(trx, context.portalId, userId);
    await deleteMembership(trx, context.portalId, userId);
    await recordChange(trx, context, {
      action: 'member.remove',
      entityType: 'member',
      entityId: userId,
      before: { email: before.email, role: before.role },
    });
  });
}
