import {
  encodeBase64,
  newBoxKeyPair,
  openSealedPayload,
  type AppRole,
  type Portal,
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

/** The stand-in server's sealing key pair (one for the whole test run, like one per page load). */
export const serverKeys = newBoxKeyPair();

export const sealKeyAnswer = () => ({ publicKey: encodeBase64(serverKeys.publicKey), k: 2 });

/** Opens a sealed request body as the server would. */
export function openSealed(body: unknown): unknown {
  return openSealedPayload(body as SealedEnvelope, serverKeys.secretKey);
}
