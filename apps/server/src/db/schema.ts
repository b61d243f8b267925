import type { MembershipStatus, PortalRole } from '@latchkey/shared';
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/**
 * A point in time: PostgreSQL answers a Date (timestamptz), SQLite an ISO-8601 string (text).
 * Written as an ISO string on both; read through `toIso` in the row mappers.
 */
export type Timestamp = ColumnType<Date | string, string, string>;
/** PostgreSQL answers bigint counts as strings. */
export type Count = string | number | bigint;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  platform_role: string | null;
  status: string;
  /** Raised to revoke every token issued before (sign-out everywhere, password change). */
  token_version: ColumnType<number, number | undefined, number>;
  email_verified_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export interface PortalsTable {
  id: string;
  name: string;
  owner_user_id: string;
  time_zone: string;
  expire_date: Timestamp | null;
  stripe_status: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type PortalRow = Selectable<PortalsTable>;
export type NewPortalRow = Insertable<PortalsTable>;

export interface MembershipsTable {
  portal_id: string;
  user_id: string;
  role: PortalRole;
  status: MembershipStatus;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type MembershipRow = Selectable<MembershipsTable>;
export type NewMembershipRow = Insertable<MembershipsTable>;

/** Append-only record of every admin change (the admin change log). */
export interface AuditLogTable {
  id: string;
  portal_id: string;
  actor_user_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  created_at: Timestamp;
}
export type AuditLogRow = Selectable<AuditLogTable>;

/** Sealed-envelope nonces already opened, kept until they are too old to be accepted anyway. */
export interface SealNoncesTable {
  client_key: string;
  nonce: string;
  expires_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  portals: PortalsTable;
  memberships: MembershipsTable;
  audit_log: AuditLogTable;
  seal_nonces: SealNoncesTable;
}
