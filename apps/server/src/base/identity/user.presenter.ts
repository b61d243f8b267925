import type { UserSummary } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { UserRow } from '../../db/schema';

/** A person as the API shows them to themselves (never the password hash). */
export function toUserSummary(row: UserRow): UserSummary {
  return {
    _id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    platformRole: row.platform_role === 'superAdmin' ? 'superAdmin' : null,
    emailVerified: row.email_verified_at !== null,
    createdAt: toIso(row.created_at),
  };
}
