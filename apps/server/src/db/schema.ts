import type {
  AccessDenialReason,
  AlertKind,
  CredentialHolderType,
  CredentialRejection,
  DeviceEventType,
  Finger,
  KeyType,
  LockModel,
  LockState,
  MembershipStatus,
  PortalRole,
} from '@latchkey/shared';
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
  /** Encrypted TOTP secret; pending while totp_enabled_at is null. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The last TOTP time step accepted (PostgreSQL answers bigint as a string). */
  totp_last_step: ColumnType<string | number | null, number | null | undefined, number | null>;
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
  /** The lock the change concerns (the entity itself, or a schedule's, invite's… lock). */
  device_id: string | null;
  /** The person the change concerns (a member, their code, schedule, card, key…). */
  user_id: string | null;
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
  /** From the lock's last status (device protocol v1); null until it reports. */
  lock_state: ColumnType<LockState | null, LockState | null | undefined, LockState | null>;
  firmware: ColumnType<string | null, string | null | undefined, string | null>;
  /** The credential set version the lock says it applied. */
  credentials_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** The secret as Mosquitto's PBKDF2-SHA512 ($7$) hash, for `npm run mqtt:export`; null for old locks. */
  broker_password_hash: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** The person holding it; null for company, guest and master credentials. */
  user_id: string | null;
  holder_type: ColumnType<CredentialHolderType, CredentialHolderType | undefined, CredentialHolderType>;
  kind: 'code' | 'rfid' | 'fingerprint' | 'key';
  /** Within its kind: a key's type (physical, digital), a fingerprint's finger. */
  variant: KeyType | Finger | null;
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

/** The locks a credential is bound to (fingerprints, keys, guest and master codes). */
export interface CredentialDevicesTable {
  portal_id: string;
  credential_id: string;
  device_id: string;
  created_at: Timestamp;
}

export interface DeviceInvitesTable {
  id: string;
  portal_id: string;
  device_id: string;
  /** The guest's access code. */
  credential_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  /** {days, start, end, startDate, endDate} as the API takes them. */
  schedule_json: string;
  sent_count: ColumnType<number, number | undefined, number>;
  last_sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}
export type DeviceInviteRow = Selectable<DeviceInvitesTable>;

export interface DeviceEventsTable {
  id: string;
  portal_id: string;
  device_id: string;
  /** Made by the lock; unique per lock. */
  event_id: string;
  type: DeviceEventType;
  method: string | null;
  credential_id: string | null;
  user_id: string | null;
  reason: AccessDenialReason | null;
  occurred_at: Timestamp;
  received_at: Timestamp;
}
export type DeviceEventRow = Selectable<DeviceEventsTable>;

export interface MailOutboxTable {
  id: string;
  portal_id: string | null;
  /** Which template made it (device_invitation, …). */
  template: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  sent_at: Timestamp | null;
  /** Set when the sender gave up after its last retry. */
  failed_at: Timestamp | null;
  created_at: Timestamp;
}
export type MailRow = Selectable<MailOutboxTable>;

export type AccountTokenPurpose = 'verify_email' | 'change_email' | 'reset_password' | 'invitation';
export interface AccountTokensTable {
  id: string;
  user_id: string;
  purpose: AccountTokenPurpose;
  /** The portal an invitation is for; null for other purposes. */
  portal_id: string | null;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  /** change_email: the address to switch to once confirmed. */
  new_email: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** The credential set a lock should hold, and how far it got (device link). */
export interface DeviceCredentialSyncTable {
  device_id: string;
  portal_id: string;
  /** Monotonic per lock; raised only when the set's content changes. */
  desired_version: number;
  /** sha256 of the set without its version, entries and lockouts in id order. */
  desired_hash: string;
  /** The set as published (JSON). */
  desired_set: string;
  desired_at: Timestamp;
  sent_version: number | null;
  sent_at: Timestamp | null;
  confirmed_version: number | null;
  confirmed_at: Timestamp | null;
}
export type DeviceCredentialSyncRow = Selectable<DeviceCredentialSyncTable>;

/** A credential in a lock's desired set, with the version its current form first appeared in. */
export interface DeviceCredentialEntriesTable {
  portal_id: string;
  device_id: string;
  credential_id: string;
  entry_hash: string;
  since_version: number;
}

/** An entry the lock refused in its last credentials/ack. */
export interface DeviceCredentialRejectionsTable {
  portal_id: string;
  device_id: string;
  credential_id: string;
  version: number;
  reason: CredentialRejection;
  rejected_at: Timestamp;
}

/** A remote unlock/lock sent to a lock. */
export interface DeviceCommandsTable {
  id: string;
  portal_id: string;
  device_id: string;
  /** Who asked for it. */
  user_id: string | null;
  action: 'unlock' | 'lock';
  /** pending until the lock answers; 'expired' is also derived from expires_at when reading. */
  status: 'pending' | 'ok' | 'failed' | 'expired';
  error: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  answered_at: Timestamp | null;
}
export type DeviceCommandRow = Selectable<DeviceCommandsTable>;

export interface AlertRulesTable {
  id: string;
  portal_id: string;
  kind: AlertKind;
  name: string;
  /** 0 or 1 on both dialects. */
  enabled: number;
  email: number;
  /** JSON array of lock ids; [] watches every lock. */
  device_ids_json: string;
  minutes: number | null;
  count: number | null;
  user_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type AlertRuleRow = Selectable<AlertRulesTable>;

export interface NotificationsTable {
  id: string;
  portal_id: string;
  rule_id: string | null;
  kind: AlertKind;
  device_id: string | null;
  user_id: string | null;
  title: string;
  message: string;
  /** Unique per portal: what the alert is about, so the same happening is told once. */
  once_key: string;
  created_at: Timestamp;
}
export type NotificationRow = Selectable<NotificationsTable>;

export interface NotificationReadsTable {
  portal_id: string;
  user_id: string;
  read_at: Timestamp;
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
  credential_devices: CredentialDevicesTable;
  device_invites: DeviceInvitesTable;
  device_events: DeviceEventsTable;
  mail_outbox: MailOutboxTable;
  account_tokens: AccountTokensTable;
  recovery_codes: RecoveryCodesTable;
  device_credential_sync: DeviceCredentialSyncTable;
  device_credential_entries: DeviceCredentialEntriesTable;
  device_credential_rejections: DeviceCredentialRejectionsTable;
  device_commands: DeviceCommandsTable;
  alert_rules: AlertRulesTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
}
