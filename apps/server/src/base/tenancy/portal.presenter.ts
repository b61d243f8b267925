import { isPortalCurrent, type Portal, type PortalMember } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { MembershipRow, PortalRow, UserRow } from '../../db/schema';

/** A portal as the API answers it, with whether it is paid up now. */
export function toPortal(row: PortalRow, now: Date = new Date()): Portal {
  const expireDate = toIso(row.expire_date);
  return {
    _id: row.id,
    name: row.name,
    ownerId: row.owner_user_id,
    timeZone: row.time_zone,
    expireDate,
    stripe: { status: row.stripe_status },
    current: isPortalCurrent({ stripeStatus: row.stripe_status, expireDate }, now),
    createdAt: toIso(row.created_at),
  };
}

type MemberRow = Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name'> &
  Pick<MembershipRow, 'role' | 'status' | 'created_at'> & { is_owner: number | string | boolean };

export function toPortalMember(row: MemberRow): PortalMember {
  return {
    _id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    status: row.status,
    owner: Number(row.is_owner) === 1,
    joinedAt: toIso(row.created_at),
  };
}
