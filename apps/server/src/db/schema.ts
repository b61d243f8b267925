import type {
  AccessDenialReason,
  AlertKind,
  CredentialHolderType,
  CredentialRejection,
  DeviceEventType,
  Finger,
  IcalFeedMode,
  KeyType,
  LockModel,
  LockState,
  MembershipStatus,
  NotificationKind,
  PortalRole,
  ReviewState,
  StayAccessState,
  StaySource,
  StayState,
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
  /** The portal's own name for the person (its label); null follows their account's name. */
  first_name: ColumnType<string | null, string | null | undefined, string | null>;
  last_name: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The reseller that added this membership while acting in the portal (the portal override);
   * it ends with the reseller's link or its leave to act. Null: added by the portal's own people.
   */
  acting_reseller_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type MembershipRow = Selectable<MembershipsTable>;
export type NewMembershipRow = Insertable<MembershipsTable>;

/**
 * What a portal shows and searches of each member, one row per membership: the account's email and
 * the portal's label or else the account's name. Written only by triggers on memberships and users
 * (migration 0018), never by the application; the people list sorts, pages and searches it.
 */
export interface MemberDirectoryTable {
  /** The row's integer key: SQLite's full-text index (search_members) refers to it. */
  rid: ColumnType<number | string, never, never>;
  portal_id: ColumnType<string, never, never>;
  user_id: ColumnType<string, never, never>;
  email: ColumnType<string, never, never>;
  first_name: ColumnType<string, never, never>;
  last_name: ColumnType<string, never, never>;
}

/**
 * One row (id 1): the auth epoch, raised by triggers with every change to an account, a membership
 * or a portal (migration 0023); the session cache keeps a signed-in person while it stands still.
 */
export interface AuthEpochTable {
  id: number;
  /** PostgreSQL answers a bigint as text. */
  epoch: ColumnType<string | number, never, never>;
}

/** How many members a portal has in each role and status; kept by triggers on memberships (migration 0021). */
export interface MemberCountsTable {
  portal_id: ColumnType<string, never, never>;
  role: ColumnType<PortalRole, never, never>;
  status: ColumnType<MembershipStatus, never, never>;
  members: ColumnType<number, never, never>;
}

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
  /** The API key that made the change (actor_user_id is then null): features/api-keys. */
  api_key_id: string | null;
}
export type AuditLogRow = Selectable<AuditLogTable>;

/**
 * Every lock a change concerns, the one of audit_log.device_id and each of several (a lockout's
 * locks): base/audit. A lock's history is read from here, by (portal_id, device_id, created_at).
 */
export interface AuditLogDevicesTable {
  audit_id: string;
  portal_id: string;
  device_id: string;
  /** The entry's own created_at, the order a lock's history is read in. */
  created_at: Timestamp;
}

/** A portal's API keys (features/api-keys): the secret is never stored, only its SHA-256. */
export interface ApiKeysTable {
  id: string;
  portal_id: string;
  name: string;
  /** The 8 public characters after `lk_live_`, unique: how a presented key is found. */
  prefix: string;
  /** Hex SHA-256 of the whole key as presented. */
  secret_hash: string;
  /** JSON array of scopes (`devices:read`…). */
  scopes_json: string;
  /** JSON array of IPs and CIDR ranges; empty: any address. */
  allowed_addresses_json: string;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
  revoked_at: Timestamp | null;
}
export type ApiKeyRow = Selectable<ApiKeysTable>;

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
  /** The zone the lock is in (features/zones); null: unzoned. */
  zone_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the lock said it holds and takes (LockCapabilities as JSON, migration 0051); null: its model's. */
  capabilities_json: ColumnType<string | null, string | null | undefined, string | null>;
}
export type DeviceRow = Selectable<DevicesTable>;

/** A portal's place (features/zones): a site, a building, a floor; nested at most three deep. */
export interface ZonesTable {
  id: string;
  portal_id: string;
  parent_id: string | null;
  name: string;
  description: string;
  /** The IANA time zone locks take when added to the zone (if the admin accepts). */
  time_zone: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type ZoneRow = Selectable<ZonesTable>;

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
  /** 'remote': a stay guest's QR entry (features/stays), which their signed QR codes open as. */
  kind: 'code' | 'rfid' | 'fingerprint' | 'key' | 'remote';
  /**
   * Within its kind: a key's type (physical, digital), a fingerprint's finger; 'stay' for a guest
   * credential of a stay, whose validity is the stay (no device invite).
   */
  variant: KeyType | Finger | 'stay' | null;
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
  /** A zone's lockout (features/zones): its locks follow the zone's; null: a plain lockout. */
  zone_id: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** JSON [{ filename, contentType, base64 }] (a scheduled report's CSV and PDF); null: none. */
  attachments_json: ColumnType<string | null, string | null | undefined, string | null>;
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

/**
 * A link mailed to an address that has no account yet (issue 16 defect 1): following it lets the
 * address's owner make the account, confirmed, with their own password (features/auth/accounts.ts).
 */
export type AccountOfferPurpose = 'stay';
export interface AccountOffersTable {
  id: string;
  email: string;
  purpose: AccountOfferPurpose;
  /** The portal of the thing offered for (the stay's); null for none. */
  portal_id: string | null;
  /** The thing the account is linked to once made (a stay's id). */
  subject_id: string | null;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}
export type AccountOfferRow = Selectable<AccountOffersTable>;

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** A credential set's content, once per portal and content hash, however many locks hold it. */
export interface CredentialSetBodiesTable {
  portal_id: string;
  body_hash: string;
  /** JSON of the set's time zone, entries, lockouts and QR key. */
  body: string;
  used_at: Timestamp;
}

/** The credential set a lock should hold, and how far it got (device link). */
export interface DeviceCredentialSyncTable {
  device_id: string;
  portal_id: string;
  /** Monotonic per lock; raised only when the set's content changes. */
  desired_version: number;
  /**
   * sha256 of the set's body (everything but the lock's id and the version, entries and lockouts in
   * id order), which credential_set_bodies holds once per portal (device-link/credential-set-bodies.ts).
   */
  desired_hash: string;
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

/**
 * A lock whose credential set must be recomputed (the outbox a change to access writes in its own
 * transaction; features/access/touched-locks.ts). `token` names the change that wrote it last.
 */
export interface DeviceCredentialRecomputeTable {
  device_id: string;
  portal_id: string;
  token: string;
  touched_at: Timestamp;
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
  kind: NotificationKind;
  device_id: string | null;
  user_id: string | null;
  title: string;
  message: string;
  /** Unique per portal: what the alert is about, so the same happening is told once. */
  once_key: string;
  /** JSON of what it is about (NotificationSubject), so the inbox links to where to act; issue 19. */
  subject_json: string | null;
  created_at: Timestamp;
}
export type NotificationRow = Selectable<NotificationsTable>;

export interface NotificationReadsTable {
  portal_id: string;
  user_id: string;
  read_at: Timestamp;
}

/** Which plan a portal was on when (features/billing/plan-history.ts); periods never overlap. */
export interface PortalPlanPeriodsTable {
  id: string;
  portal_id: string;
  plan: import('@latchkey/shared').PlanId;
  starts_at: Timestamp;
  /** Null: still in force. */
  ends_at: Timestamp | null;
  created_at: Timestamp;
}
export type PortalPlanPeriodRow = Selectable<PortalPlanPeriodsTable>;

/** The buyer on a portal's bills (features/billing). */
export interface BillingProfilesTable {
  portal_id: string;
  name: string;
  address_line1: string;
  address_line2: string;
  postal_code: string;
  city: string;
  country: string;
  vat_number: string | null;
  email: string | null;
  updated_at: Timestamp;
}
export type BillingProfileRow = Selectable<BillingProfilesTable>;

/** A closed month's bill: written once, never changed (`bill_json` is the bill as issued). */
export interface BillsTable {
  id: string;
  portal_id: string;
  year: number;
  month: number;
  invoice_number: string | null;
  currency: string;
  net_minor: number;
  vat_rate_bp: number;
  vat_treatment: import('@latchkey/shared').VatTreatment;
  vat_minor: number;
  total_minor: number;
  wholesale_minor: number;
  reseller_id: string | null;
  bill_json: string;
  issued_at: Timestamp;
}
export type BillRow = Selectable<BillsTable>;

/** The last invoice number given per issuer and year. */
export interface InvoiceCountersTable {
  issuer: string;
  year: number;
  last_number: number;
}

/** A reseller account (features/resellers), owned by one person. */
export interface ResellersTable {
  id: string;
  owner_user_id: string;
  name: string;
  country: string;
  vat_number: string | null;
  link_code: string;
  /** The brand the reseller's customers see (features/content); null: the host's. */
  brand: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type ResellerRow = Selectable<ResellersTable>;

/** Which reseller a portal was linked to when; ended, never deleted. */
export interface ResellerLinksTable {
  id: string;
  portal_id: string;
  reseller_id: string;
  /** 0 or 1: the customer lets the reseller act in the portal. */
  allow_acting: number;
  linked_at: Timestamp;
  unlinked_at: Timestamp | null;
}
export type ResellerLinkRow = Selectable<ResellerLinksTable>;

/** A content page's current version (features/content; the brief's `info` collection). */
export interface ContentPagesTable {
  topic: string;
  title: string;
  section: string;
  body: string;
  /** 0 or 1. */
  published: number;
  version: number;
  updated_by: string | null;
  updated_at: Timestamp;
}
export type ContentPageRow = Selectable<ContentPagesTable>;

/** Every saved version of a content page; never changed. */
export interface ContentPageVersionsTable {
  id: string;
  topic: string;
  version: number;
  title: string;
  section: string;
  body: string;
  published: number;
  restored_from: number | null;
  saved_by: string | null;
  saved_at: Timestamp;
}
export type ContentPageVersionRow = Selectable<ContentPageVersionsTable>;

/** A navigation entry hidden (1) or shown again (0) deployment-wide (the brief's `nav` collection). */
export interface NavVisibilityTable {
  nav_key: string;
  hidden: number;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** A periodic background job: whoever moves next_run_at forward first runs the period. */
export interface ScheduledJobsTable {
  name: string;
  next_run_at: Timestamp;
  /** When its last completed run started; null before the first. */
  last_done_at: Timestamp | null;
}

/** A portal's subscription at the payment provider, as its webhooks last described it. */
export interface SubscriptionsTable {
  id: string;
  portal_id: string;
  provider: import('@latchkey/shared').PaymentProviderName;
  provider_subscription_id: string;
  provider_customer_id: string | null;
  plan: import('@latchkey/shared').PlanId;
  /** The provider's status (Stripe's names: active, past_due, canceled, …). */
  status: string;
  quantity: number;
  current_period_end: Timestamp | null;
  /** 0 or 1 on both dialects. */
  cancel_at_period_end: number;
  payment_failed_at: Timestamp | null;
  /** When the provider made the newest event applied to this row. */
  last_event_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** A checkout started at the payment provider: a plan, a prepaid period or a shop order. */
export interface CheckoutsTable {
  id: string;
  portal_id: string | null;
  kind: import('@latchkey/shared').CheckoutKind;
  provider: import('@latchkey/shared').PaymentProviderName;
  provider_session_id: string | null;
  plan: import('@latchkey/shared').PlanId | null;
  months: number | null;
  quantity: number;
  order_id: string | null;
  amount_total: number;
  currency: string;
  status: import('@latchkey/shared').CheckoutStatus;
  token_hash: string;
  created_by_user_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
}
export type CheckoutRow = Selectable<CheckoutsTable>;

/** A provider event handled (once per event id). */
export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  type: string;
  object_id: string | null;
  occurred_at: Timestamp;
  received_at: Timestamp;
}

export interface StaffAlertsTable {
  id: string;
  kind: import('@latchkey/shared').StaffAlertKind;
  title: string;
  message: string;
  portal_id: string | null;
  once_key: string;
  created_at: Timestamp;
}
export type StaffAlertRow = Selectable<StaffAlertsTable>;

/** Every money-related change (plans, payments, orders, stock), with or without a portal. */
export interface CommerceAuditTable {
  id: string;
  portal_id: string | null;
  actor_user_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  created_at: Timestamp;
}

export interface ProductsTable {
  id: string;
  sku: string;
  name: string;
  kind: import('@latchkey/shared').ProductKind;
  summary: string;
  description: string;
  image: string;
  price: number;
  currency: string;
  stock_on_hand: number;
  stock_reserved: ColumnType<number, number | undefined, number>;
  pack_size: number;
  lock_model: LockModel | null;
  active: number;
  sort_order: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type ProductRow = Selectable<ProductsTable>;

export interface OrdersTable {
  id: string;
  ref: string;
  status: import('@latchkey/shared').OrderStatus;
  email: string;
  buyer_user_id: string | null;
  /** The address the order was placed from: what one address holds is capped (issue 16). */
  buyer_ip: string | null;
  portal_id: string | null;
  address_json: string;
  shipping_option: import('@latchkey/shared').ShippingOptionId;
  shipping_name: string;
  shipping_price: number;
  shipping_min_days: number;
  shipping_max_days: number;
  subtotal: number;
  total: number;
  currency: string;
  checkout_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  paid_at: Timestamp | null;
  canceled_at: Timestamp | null;
}
export type OrderRow = Selectable<OrdersTable>;

export interface OrderItemsTable {
  order_id: string;
  line: number;
  product_id: string;
  sku: string;
  name: string;
  image: string;
  unit_price: number;
  quantity: number;
  line_total: number;
}
export type OrderItemRow = Selectable<OrderItemsTable>;

export interface OrderDevicesTable {
  portal_id: string;
  order_id: string;
  device_id: string;
}

/** The sandbox provider's books (what Stripe keeps on its side). */
export interface SandboxSessionsTable {
  id: string;
  mode: 'subscription' | 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  customer_id: string | null;
  customer_email: string | null;
  subscription_id: string | null;
  client_reference_id: string | null;
  line_items_json: string;
  shipping_json: string | null;
  amount_total: number;
  currency: string;
  metadata_json: string;
  subscription_metadata_json: string | null;
  success_url: string;
  cancel_url: string;
  awaiting_confirmation: ColumnType<number, number | undefined, number>;
  idempotency_key: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}
export type SandboxSessionRow = Selectable<SandboxSessionsTable>;

export interface SandboxCustomersTable {
  id: string;
  email: string | null;
  card_last4: string | null;
  created_at: Timestamp;
}

export interface SandboxSubscriptionsTable {
  id: string;
  customer_id: string;
  status: string;
  unit_amount: number;
  currency: string;
  quantity: number;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  cancel_at_period_end: ColumnType<number, number | undefined, number>;
  canceled_at: Timestamp | null;
  metadata_json: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type SandboxSubscriptionRow = Selectable<SandboxSubscriptionsTable>;

export interface SandboxEventsTable {
  id: string;
  type: string;
  payload_json: string;
  created_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  delivered_at: Timestamp | null;
  last_error: string | null;
}
export type SandboxEventRow = Selectable<SandboxEventsTable>;

/** Rentals (issue 12, migration 0019): see docs/decisions.md "Rentals". */
export interface ListingCategoriesTable {
  id: string;
  portal_id: string;
  name: string;
  created_at: Timestamp;
}
export type ListingCategoryRow = Selectable<ListingCategoriesTable>;

export interface ListingsTable {
  id: string;
  portal_id: string;
  title: string;
  description: string;
  category_id: string | null;
  address: string;
  house_rules: string;
  check_in_time: string;
  check_out_time: string;
  initial_minutes: number;
  start_time: string | null;
  min_nights: number;
  max_nights: number;
  /** 0 or 1. */
  auto_accept: number;
  published: number;
  share_token_version: ColumnType<number, number | undefined, number>;
  share_token_rotated_at: Timestamp | null;
  /** Raised to rotate the export feed's link (R2, migration 0025). */
  ical_token_version: ColumnType<number, number | undefined, number>;
  ical_token_rotated_at: Timestamp | null;
  /** Issue 19 (migration 0036): the price of a night in minor units of `currency`; null: on request. */
  nightly_price: ColumnType<number | null, number | null | undefined, number | null>;
  currency: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}
export type ListingRow = Selectable<ListingsTable>;

export interface ListingLocksTable {
  portal_id: string;
  listing_id: string;
  device_id: string;
  position: number;
}

export interface ListingAccessListsTable {
  id: string;
  portal_id: string;
  listing_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  anchor: 'check_in' | 'check_out';
  start_offset: number;
  end_offset: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type ListingAccessListRow = Selectable<ListingAccessListsTable>;

export interface ListingUsersTable {
  portal_id: string;
  listing_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface UserImagesTable {
  id: string;
  portal_id: string;
  owner_type: 'listing' | 'landing';
  owner_id: string;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  alt: string;
  position: number;
  created_at: Timestamp;
}
export type UserImageRow = Selectable<UserImagesTable>;

export interface DeviceLandingsTable {
  device_id: string;
  portal_id: string;
  text: string;
  wifi_name: string;
  wifi_password: string;
  parking: string;
  updated_at: Timestamp;
}
export type DeviceLandingRow = Selectable<DeviceLandingsTable>;

export interface StaysTable {
  id: string;
  portal_id: string;
  listing_id: string;
  guest_name: string;
  guest_email: string;
  guest_phone: string | null;
  note: string;
  start_date: string;
  end_date: string;
  check_in_time: string | null;
  check_out_time: string | null;
  state: StayState;
  source: StaySource;
  external_ref: string | null;
  reason: string | null;
  guest_user_id: string | null;
  guest_token_version: ColumnType<number, number | undefined, number>;
  access_state: ColumnType<StayAccessState, StayAccessState | undefined, StayAccessState>;
  access_generation: ColumnType<number, number | undefined, number>;
  access_changed_at: Timestamp | null;
  mailed_generation: ColumnType<number, number | undefined, number>;
  guest_mailed_at: Timestamp | null;
  alerted_generation: ColumnType<number, number | undefined, number>;
  decided_at: Timestamp | null;
  decided_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** R2 (migration 0025): the feed an imported reservation came from. */
  ical_feed_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when the feed dropped or cancelled it (it comes back if the feed lists it again). */
  ical_gone: ColumnType<number, number | undefined, number>;
  /** The mail inviting the guest to review, once after check-out (or when it was skipped). */
  review_mailed_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** Issue 19 (migration 0036): the total quoted when the guest asked (minor units), or null. */
  quoted_total: ColumnType<number | null, number | null | undefined, number | null>;
  quoted_currency: ColumnType<string | null, string | null | undefined, string | null>;
}
export type StayRow = Selectable<StaysTable>;

export interface StayAccessTable {
  id: string;
  portal_id: string;
  stay_id: string;
  holder: 'guest' | 'access_list';
  access_list_id: string | null;
  name: string;
  credential_id: string;
  qr_credential_id: string | null;
  valid_from: Timestamp;
  valid_until: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  removed_at: Timestamp | null;
}
export type StayAccessRow = Selectable<StayAccessTable>;

/** Rentals R2 (migration 0025): imported calendar feeds, blocked nights, reviews. */
export interface ListingIcalFeedsTable {
  id: string;
  portal_id: string;
  listing_id: string;
  name: string;
  url: string;
  mode: IcalFeedMode;
  etag: string | null;
  last_modified: string | null;
  event_count: ColumnType<number, number | undefined, number>;
  last_fetch_at: Timestamp | null;
  last_success_at: Timestamp | null;
  last_error: string | null;
  last_error_at: Timestamp | null;
  last_warning: string | null;
  next_fetch_at: Timestamp;
  syncing_until: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The last "sync now", who asked and whether it accepts an empty read (the queued request). */
  sync_requested_at: Timestamp | null;
  sync_requested_by: string | null;
  sync_requested_ip: string | null;
  sync_accept_empty: ColumnType<number, number | undefined, number>;
  /** What the last read did (JSON of IcalSyncOutcome). */
  last_result: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type ListingIcalFeedRow = Selectable<ListingIcalFeedsTable>;

export interface ListingBlocksTable {
  id: string;
  portal_id: string;
  listing_id: string;
  start_date: string;
  end_date: string;
  note: string;
  source: 'owner' | 'ical';
  ical_feed_id: string | null;
  external_ref: string | null;
  created_by: string | null;
  created_at: Timestamp;
}
export type ListingBlockRow = Selectable<ListingBlocksTable>;

export interface ReviewsTable {
  id: string;
  portal_id: string;
  listing_id: string;
  stay_id: string;
  guest_user_id: string | null;
  guest_name: string;
  rating: number;
  text: string;
  state: ReviewState;
  hidden_reason: string | null;
  answer: string | null;
  answered_at: Timestamp | null;
  answered_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type ReviewRow = Selectable<ReviewsTable>;

/** Platform (migration 0032): a support session, one row per portal the person acted as belongs to. */
export interface SupportSessionsTable {
  id: string;
  portal_id: string;
  /** The token's support-session id, shared by the session's rows in every portal. */
  session_id: string;
  staff_user_id: string;
  person_user_id: string;
  started_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
}
export type SupportSessionRow = Selectable<SupportSessionsTable>;

/** A feature flag's value for the whole deployment (0 or 1); no row keeps the registry's default. */
export interface DeploymentFeatureFlagsTable {
  flag: string;
  enabled: number;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** A portal's override of a feature flag (0 or 1); it wins over the deployment's value. */
export interface PortalFeatureFlagsTable {
  portal_id: string;
  flag: string;
  enabled: number;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** The platform's own change log: what staff changed that has no portal's log to go to. */
export interface PlatformAuditTable {
  id: string;
  actor_user_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  portal_id: string | null;
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  created_at: Timestamp;
}

/** A report mailed weekly or monthly to some of the portal's admins (features/reports). */
export interface ReportSchedulesTable {
  id: string;
  portal_id: string;
  kind: import('@latchkey/shared').ReportKind;
  frequency: import('@latchkey/shared').ReportFrequency;
  /** ReportFilters as JSON. */
  filters_json: string;
  /** JSON array of the recipients' user ids (admins of the portal when it runs). */
  recipients_json: string;
  created_by: string | null;
  /** The last period mailed ('week of 2026-11-16', '2026-11'): the once-only guard. */
  last_period: string | null;
  last_sent_at: Timestamp | null;
  created_at: Timestamp;
}
export type ReportScheduleRow = Selectable<ReportSchedulesTable>;

/** A desk enrollment reader paired with a portal (features/readers, issue 21 item 5). */
export interface ReadersTable {
  id: string;
  portal_id: string;
  name: string;
  kind: import('@latchkey/shared').ReaderKind;
  /** sha256 of the secret, as devices.secret_hash. */
  secret_hash: string;
  /** 1 after an online status, 0 after the last will or a goodbye. */
  online: ColumnType<number, number | undefined, number>;
  firmware: string | null;
  last_seen_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type ReaderRow = Selectable<ReadersTable>;

/** A card or finger an admin asked a reader for (features/readers). */
export interface ReaderEnrollmentsTable {
  id: string;
  portal_id: string;
  reader_id: string;
  kind: import('@latchkey/shared').EnrollmentKind;
  user_id: string | null;
  /** waiting | read | failed | cancelled (expired is waiting past expires_at). */
  state: string;
  value: string | null;
  error: string | null;
  created_by: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  updated_at: Timestamp;
}
export type ReaderEnrollmentRow = Selectable<ReaderEnrollmentsTable>;

/** A person's support request in their portal (features/support, issue 20 item 4). */
export interface SupportRequestsTable {
  id: string;
  portal_id: string;
  user_id: string;
  type: import('@latchkey/shared').SupportType;
  description: string;
  nav_id: string;
  status: import('@latchkey/shared').SupportStatus;
  assignee_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type SupportRequestRow = Selectable<SupportRequestsTable>;

/** A message in a support request's thread: the requester's, a portal admin's or staff's. */
export interface SupportMessagesTable {
  id: string;
  portal_id: string;
  request_id: string;
  author_id: string | null;
  author_role: 'requester' | 'portal' | 'staff';
  text: string;
  created_at: Timestamp;
}
export type SupportMessageRow = Selectable<SupportMessagesTable>;

/** An image of a support request (its bytes in the support image store). */
export interface SupportImagesTable {
  id: string;
  portal_id: string;
  request_id: string;
  width: number;
  height: number;
  bytes: number;
  position: number;
  created_at: Timestamp;
}
export type SupportImageRow = Selectable<SupportImagesTable>;

/** A portal's webhook endpoint (features/webhooks, issue 21 item 2). */
export interface WebhookEndpointsTable {
  id: string;
  portal_id: string;
  url: string;
  description: string;
  /** JSON array of event types; null: every type. */
  event_types: string | null;
  enabled: number;
  /** 'failing' when the server disabled it (every delivery failed for 5 days); null otherwise. */
  disabled_reason: string | null;
  /** `whsec_` + base64 of 32 random bytes. */
  secret: string;
  /** After a rotation, the previous secret still signs until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** One event for one endpoint: its message id is the `webhook-id` of every attempt. */
export interface WebhookDeliveriesTable {
  id: string;
  portal_id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  /** The body sent, as sent: `{ type, timestamp, data }`. */
  payload: string;
  status: import('@latchkey/shared').WebhookDeliveryStatus;
  attempt_count: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  manual: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** One attempt to deliver (the delivery log). */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  portal_id: string;
  attempted_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  response: string | null;
  error: string | null;
  ok: number;
  manual: number;
}
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

/** What a lock last said of a credential ('confirmed' or its reason), for the credential events. */
export interface WebhookCredentialStatesTable {
  portal_id: string;
  device_id: string;
  credential_id: string;
  state: string;
}

/** The collections' change log (features/collections; db/migrations/…-0042-collections.ts), kept by triggers. */
export interface CollectionChangesTable {
  seq: ColumnType<number | string, never, never>;
  portal_id: string;
  collection: string;
  record_id: string;
  changed_at: string;
  deleted: number;
  tx: ColumnType<string | number | null, never, never>;
}

/** A client error report, one row per fingerprint (features/client-errors, issue 21). */
export interface ClientErrorsTable {
  id: string;
  fingerprint: string;
  message: string;
  top_frame: string;
  stack: string;
  route: string;
  build: string;
  user_agent: string;
  count: number;
  status: import('@latchkey/shared').ClientErrorStatus;
  first_seen: Timestamp;
  last_seen: Timestamp;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
}
export type ClientErrorRow = Selectable<ClientErrorsTable>;

/** A person's request for access to a lock (features/access-requests, issue 21). */
export interface AccessRequestsTable {
  id: string;
  portal_id: string;
  device_id: string;
  user_id: string;
  note: string;
  status: import('@latchkey/shared').AccessRequestStatus;
  schedule_json: string | null;
  reason: string;
  answered_by: string | null;
  answered_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export type AccessRequestRow = Selectable<AccessRequestsTable>;

/** The collections' change log (features/collections; db/migrations/…-0042-collections.ts), kept by triggers. */
export interface CollectionChangesTable {
  seq: ColumnType<number | string, never, never>;
  portal_id: string;
  collection: string;
  record_id: string;
  changed_at: string;
  deleted: number;
  tx: ColumnType<string | number | null, never, never>;
}

export interface DB {
  users: UsersTable;
  portals: PortalsTable;
  memberships: MembershipsTable;
  member_directory: MemberDirectoryTable;
  member_counts: MemberCountsTable;
  auth_epoch: AuthEpochTable;
  audit_log: AuditLogTable;
  audit_log_devices: AuditLogDevicesTable;
  api_keys: ApiKeysTable;
  seal_nonces: SealNoncesTable;
  devices: DevicesTable;
  zones: ZonesTable;
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
  collection_changes: CollectionChangesTable;
  mail_outbox: MailOutboxTable;
  account_tokens: AccountTokensTable;
  account_offers: AccountOffersTable;
  recovery_codes: RecoveryCodesTable;
  device_credential_sync: DeviceCredentialSyncTable;
  credential_set_bodies: CredentialSetBodiesTable;
  device_credential_entries: DeviceCredentialEntriesTable;
  device_credential_rejections: DeviceCredentialRejectionsTable;
  device_credential_recompute: DeviceCredentialRecomputeTable;
  device_commands: DeviceCommandsTable;
  alert_rules: AlertRulesTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  portal_plan_periods: PortalPlanPeriodsTable;
  billing_profiles: BillingProfilesTable;
  bills: BillsTable;
  invoice_counters: InvoiceCountersTable;
  resellers: ResellersTable;
  content_pages: ContentPagesTable;
  content_page_versions: ContentPageVersionsTable;
  nav_visibility: NavVisibilityTable;
  reseller_links: ResellerLinksTable;
  scheduled_jobs: ScheduledJobsTable;
  subscriptions: SubscriptionsTable;
  checkouts: CheckoutsTable;
  payment_events: PaymentEventsTable;
  staff_alerts: StaffAlertsTable;
  commerce_audit: CommerceAuditTable;
  products: ProductsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_devices: OrderDevicesTable;
  sandbox_sessions: SandboxSessionsTable;
  sandbox_customers: SandboxCustomersTable;
  sandbox_subscriptions: SandboxSubscriptionsTable;
  sandbox_events: SandboxEventsTable;
  listing_categories: ListingCategoriesTable;
  listings: ListingsTable;
  listing_locks: ListingLocksTable;
  listing_access_lists: ListingAccessListsTable;
  listing_users: ListingUsersTable;
  user_images: UserImagesTable;
  device_landings: DeviceLandingsTable;
  stays: StaysTable;
  stay_access: StayAccessTable;
  listing_ical_feeds: ListingIcalFeedsTable;
  listing_blocks: ListingBlocksTable;
  reviews: ReviewsTable;
  report_schedules: ReportSchedulesTable;
  support_sessions: SupportSessionsTable;
  deployment_feature_flags: DeploymentFeatureFlagsTable;
  portal_feature_flags: PortalFeatureFlagsTable;
  platform_audit: PlatformAuditTable;
  support_requests: SupportRequestsTable;
  support_messages: SupportMessagesTable;
  support_images: SupportImagesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_credential_states: WebhookCredentialStatesTable;
  readers: ReadersTable;
  reader_enrollments: ReaderEnrollmentsTable;
  client_errors: ClientErrorsTable;
  access_requests: AccessRequestsTable;
}
