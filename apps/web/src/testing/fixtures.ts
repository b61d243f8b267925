import {
  encodeBase64,
  newBoxKeyPair,
  openSealedPayload,
  type AppRole,
  type AuditEntry,
  type Device,
  type DeviceEvent,
  type DeviceUser,
  type Group,
  type Listing,
  type MemberDevice,
  type Portal,
  type PortalDashboard,
  type PortalMember,
  type SealedEnvelope,
  type Session,
} from '@latchkey/shared';

export function portalFixture(overrides: Partial<Portal> = {}): Portal {
  return {
    _id: 'portal-1',
    name: 'Harbor View',
    ownerId: 'user-1',
    timeZone: 'America/New_York',
    expireDate: '2099-01-01T00:00:00.000Z',
    stripe: { status: null },
    current: true,
    createdAt: '2024-01-15T12:00:00.000Z',
    ...overrides,
  };
}

export function sessionFixture(roles: AppRole[] = ['admin'], overrides: Partial<Session> = {}): Session {
  const portal = portalFixture();
  return {
    user: {
      _id: 'user-1',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      platformRole: roles.includes('superAdmin') ? 'superAdmin' : null,
      emailVerified: true,
      createdAt: '2024-01-15T12:00:00.000Z',
    },
    portalOwned: roles.includes('admin') ? portal._id : null,
    memberships: [
      {
        portal: { _id: portal._id, name: portal.name },
        role: roles.includes('admin') ? 'admin' : 'user',
        status: 'active',
        owner: roles.includes('admin'),
      },
    ],
    portal,
    roles,
    permissions: roles.includes('admin') ? ['portal.edit', 'profile.edit'] : ['profile.edit'],
    features: [],
    impersonatedBy: null,
    ...overrides,
  };
}

export function memberFixture(overrides: Partial<PortalMember> = {}): PortalMember {
  return {
    _id: 'user-2',
    email: 'grace@example.com',
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'user',
    status: 'active',
    owner: false,
    joinedAt: '2024-03-01T09:00:00.000Z',
    ...overrides,
  };
}

/** GET portal/dashboard's answer: the given member counts, no locks or groups unless said. */
export function dashboardFixture(
  portal: Portal,
  counts: Partial<PortalDashboard['counts']> = {},
  lists: Partial<Pick<PortalDashboard, 'lowBattery' | 'offline'>> = {},
): PortalDashboard {
  return {
    portal,
    counts: {
      members: 0,
      admins: 0,
      users: 0,
      invited: 0,
      suspended: 0,
      devices: 0,
      groups: 0,
      offline: 0,
      lowBattery: 0,
      ...counts,
    },
    lowBattery: [],
    offline: [],
    ...lists,
  };
}

export function deviceFixture(overrides: Partial<Device> = {}): Device {
  return {
    _id: 'device-1',
    name: 'Front door',
    model: 'generic-codelock',
    serial: 'SN-0001',
    timeZone: 'America/New_York',
    lowBatteryLevel: 20,
    battery: 80,
    online: true,
    lastSeenAt: '2026-11-23T14:00:00.000Z',
    createdAt: '2026-01-10T12:00:00.000Z',
    ...overrides,
  };
}

export function deviceUserFixture(overrides: Partial<DeviceUser> = {}): DeviceUser {
  return {
    _id: 'user-2',
    email: 'grace@example.com',
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'user',
    status: 'active',
    schedule: null,
    via: { direct: true, groups: [] },
    ...overrides,
  };
}

export function memberDeviceFixture(overrides: Partial<MemberDevice> = {}): MemberDevice {
  return {
    _id: 'device-1',
    name: 'Front door',
    timeZone: 'America/New_York',
    schedule: null,
    via: { direct: true, groups: [] },
    ...overrides,
  };
}

export function groupFixture(overrides: Partial<Group> = {}): Group {
  return {
    _id: 'group-1',
    name: 'Cleaners',
    description: 'Weekday cleaning crew',
    userCount: 2,
    deviceCount: 1,
    createdAt: '2026-02-01T10:00:00.000Z',
    ...overrides,
  };
}

export function auditFixture(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: 'audit-1',
    actor: { _id: 'user-1', email: 'ada@example.com', name: 'Ada Lovelace' },
    action: 'device.update',
    entityType: 'device',
    entityId: 'device-1',
    before: { name: 'Front door', timeZone: 'UTC' },
    after: { name: 'Front door', timeZone: 'America/New_York' },
    ip: '203.0.113.9',
    createdAt: '2026-11-23T14:30:00.000Z',
    ...overrides,
  };
}

/** The stand-in server's sealing key pair (one for the whole test run, like one per page load). */
export const serverKeys = newBoxKeyPair();

export const sealKeyAnswer = () => ({ publicKey: encodeBase64(serverKeys.publicKey), k: 2 });

/** Opens a sealed request body as the server would. */
export function openSealed(body: unknown): unknown {
  return openSealedPayload(body as SealedEnvelope, serverKeys.secretKey);
}

export function deviceEventFixture(overrides: Partial<DeviceEvent> = {}): DeviceEvent {
  return {
    _id: 'event-1',
    eventId: 'e-1',
    device: { _id: 'device-1', name: 'Front door' },
    type: 'unlock',
    method: 'rfid',
    user: { _id: 'user-2', name: 'Grace Hopper' },
    credentialId: 'cred-1',
    reason: null,
    occurredAt: '2026-11-23T14:00:00.000Z',
    receivedAt: '2026-11-23T14:00:01.000Z',
    ...overrides,
  };
}

export function listingFixture(overrides: Partial<Listing> = {}): Listing {
  return {
    _id: 'listing-1',
    title: 'Harbour flat',
    description: '',
    category: null,
    address: '',
    timeZone: 'Europe/Lisbon',
    locks: [{ _id: 'd1', name: 'Flat door', model: 'latchkey-sim', timeZone: 'Europe/Lisbon' }],
    images: [],
    houseRules: '',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    initialTime: 0,
    startTime: null,
    minNights: 1,
    maxNights: 30,
    autoAccept: false,
    published: true,
    nightlyPrice: 12000,
    currency: 'EUR',
    accessList: [],
    users: [],
    pendingRequests: 0,
    createdAt: '2031-01-01T00:00:00.000Z',
    updatedAt: '2031-01-01T00:00:00.000Z',
    ...overrides,
  };
}
