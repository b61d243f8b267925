import type { LockModel, MembershipStatus, PortalRole } from '@latchkey/shared';
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

export interface DevicesTable {
  id: string;
  portal_id: string;
  name: string;
  model: LockModel;
  serial: string | null;
  time_zone: string;
  /** sha256 of the device secret; the secret itself is shown once at creation. */
  secret_hash: string;
  low_battery_level: ColumnType<number, number | undefined, number>;
  battery: number | null;
  /** 0 or 1 on both dialects. */
  online: ColumnType<number, number | undefined, number>;
  last_seen_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Deleted locks keep their row so history still names them. */
  deleted_at: Timestamp | null;
}
export type DeviceRow = Selectable<DevicesTable>;

export interface GroupsTable {
  id: string;
  portal_id: string;
  name: string;
  description: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type GroupRow = Selectable<GroupsTable>;

export interface GroupUsersTable {
  portal_id: string;
  group_id: string;
  user_id: string;
  created_at: Timestamp;
}
export interface GroupDevicesTable {
  portal_id: string;
  group_id: string;
  device_id: string;
  created_at: Timestamp;
}
export interface DeviceUsersTable {
  portal_id: string;
  device_id: string;
  user_id: string;
  created_at: Timestamp;
}
export interface UserDeviceSchedulesTable {
  portal_id: string;
  device_id: string;
  user_id: string;
  schedule_json: string;
  updated_at: Timestamp;
}

export interface CredentialsTable {
  id: string;
  portal_id: string;
  /** Null for portal-wide credentials (company codes). */
  user_id: string | null;
  kind: 'code' | 'rfid' | 'fingerprint' | 'key';
  secret: string;
  name: string;
  valid_from: Timestamp | null;
  valid_until: Timestamp | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}
export type CredentialRow = Selectable<CredentialsTable>;

export interface LockoutsTable {
  id: string;
  portal_id: string;
  name: string;
  starts_at: Timestamp;
  /** Null: until someone ends it. */
  ends_at: Timestamp | null;
  /** 0 or 1 on both dialects. */
  exempt_admins: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type LockoutRow = Selectable<LockoutsTable>;

export interface LockoutDevicesTable {
  portal_id: string;
  lockout_id: string;
  device_id: string;
}

export interface DB {
  users: UsersTable;
  portals: PortalsTable;
  memberships: MembershipsTable;
  audit_log: AuditLogTable;
  seal_nonces: SealNoncesTable;
  devices: DevicesTable;
  groups: GroupsTable;
  group_users: GroupUsersTable;
  group_devices: GroupDevicesTable;
  device_users: DeviceUsersTable;
  user_device_schedules: UserDeviceSchedulesTable;
  credentials: CredentialsTable;
  lockouts: LockoutsTable;
  lockout_devices: LockoutDevicesTable;
}
