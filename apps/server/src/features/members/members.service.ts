import { personName } from '@latchkey/shared';
import type { MemberUpdate, PortalMember } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { getAccessCode } from '../credentials/access-code.service';
import { revokeCredentialsOfUser } from '../credentials/credentials.repository';
import { toPortalMember } from '../../base/tenancy/portal.presenter';
import {
  deleteMembership,
  findMember,
  updateMembership,
  type MemberRecord,
} from '../../base/tenancy/memberships.repository';

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
 * GET portal/user/{id}: a person in the portal with their access code (people are added by
 * invitation). `withCode` false leaves the code out (null): an API key without `credentials:read`
 * reads people, not their door codes (mayReadWithKey).
 */
export async function getMemberDetail(
  db: Database,
  portalId: string,
  userId: string,
  { withCode }: { withCode: boolean },
) {
  const member = await requireMember(db, portalId, userId);
  return {
    member: toPortalMember(member),
    accessCode: withCode ? await getAccessCode(db, portalId, userId) : null,
  };
}

/**
 * An admin changes a person's role, or the portal's name for them (its label). The account's own
 * name is the person's: another portal's admin must not rename them everywhere. An empty label
 * follows the account's name again, once the person has joined (until then the portal sees only
 * what it typed).
 */
export async function updateMember(
  db: Database,
  context: ChangeContext,
  userId: string,
  update: MemberUpdate,
): Promise<PortalMember> {
  return changeAccess(db, async (trx, touch) => {
    const before = await requireMember(trx, context.portalId, userId);
    if (update.role !== undefined && update.role !== before.role) {
      if (Number(before.is_owner) === 1) throw AppError.conflict("The portal owner's role cannot be changed");
      await updateMembership(trx, context.portalId, userId, { role: update.role });
      // Every entry of theirs carries their role (lockouts let admins through).
      await touch(context.portalId, { person: userId });
    }
    const label = (name: string | undefined) =>
      name === undefined ? undefined : name === '' && before.status !== 'invited' ? null : name;
    const firstName = label(update.firstName);
    const lastName = label(update.lastName);
    if (firstName !== undefined || lastName !== undefined) {
      await updateMembership(trx, context.portalId, userId, {
        ...(firstName !== undefined && { first_name: firstName }),
        ...(lastName !== undefined && { last_name: lastName }),
      });
    }
    const after = toPortalMember((await findMember(trx, context.portalId, userId))!);
    await recordChange(trx, context, {
      action: 'member.update',
      entityType: 'member',
      entityId: userId,
      before: {
        name: shownName(toPortalMember(before)),
        firstName: before.first_name,
        lastName: before.last_name,
        role: before.role,
      },
      after: {
        name: shownName(after),
        firstName: after.firstName,
        lastName: after.lastName,
        role: after.role,
      },
    });
    return after;
  });
}

/**
 * The person as the portal shows them (its label or their account's name, else the address), kept
 * in their change-log entries so a history reads "Person suspended: Ana Cleaner", not a bare
 * "Person suspended".
 */
function shownName(person: Pick<PortalMember, 'email' | 'firstName' | 'lastName'>): string {
  return personName(person.firstName, person.lastName, person.email);
}

/** Suspends (no lock opens for them here, no acting here) or reactivates a person. */
export async function setMemberStatus(
  db: Database,
  context: ChangeContext,
  userId: string,
  status: 'active' | 'suspended',
) {
  return changeAccess(db, async (trx, touch) => {
    const before = await requireMember(trx, context.portalId, userId);
    assertChangeable(before, context, 'status');
    if (before.status === 'invited')
      throw AppError.conflict('This person has not accepted their invitation yet');
    await updateMembership(trx, context.portalId, userId, { status });
    await touch(context.portalId, { person: userId });
    const name = shownName(toPortalMember(before));
    await recordChange(trx, context, {
      action: `member.${status === 'active' ? 'activate' : 'suspend'}`,
      entityType: 'member',
      entityId: userId,
      before: { name, status: before.status },
      after: { name, status },
    });
    return toPortalMember((await findMember(trx, context.portalId, userId))!);
  });
}

/** Takes a person out of the portal: their links go and their credentials here are revoked. */
export async function removeMember(db: Database, context: ChangeContext, userId: string) {
  await changeAccess(db, async (trx, touch) => {
    const before = await requireMember(trx, context.portalId, userId);
    assertChangeable(before, context, 'membership');
    // Named while their links and keys still say where they reach.
    await touch(context.portalId, { person: userId });
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
