import type { UserSync } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const credential = (overrides: Partial<UserSync['locks'][number]['credentials'][number]>) => ({
  credentialId: 'code-1',
  kind: 'code' as const,
  holder: 'Grace Hopper',
  userId: 'user-1',
  sinceVersion: 2,
  state: 'confirmed' as const,
  reason: null,
  ...overrides,
});

const sync: UserSync = {
  locks: [
    {
      _id: 'device-1',
      name: 'Front door',
      online: true,
      lastSeenAt: '2026-11-23T10:00:00.000Z',
      credentials: [
        credential({}),
        credential({ credentialId: 'remote:user-1', kind: 'remote', state: 'sent' }),
      ],
    },
    {
      _id: 'device-2',
      name: 'Bike room',
      online: false,
      lastSeenAt: null,
      credentials: [
        credential({ kind: 'rfid', state: 'rejected', reason: 'unsupported_kind' }),
        credential({ credentialId: 'remote:user-1', kind: 'remote', state: 'sent' }),
      ],
    },
    {
      _id: 'device-3',
      name: 'Garage',
      online: false,
      lastSeenAt: new Date(Date.now() - 2 * 3600_000).toISOString(),
      credentials: [
        credential({ state: 'pending' }),
        credential({ credentialId: 'code-2', state: 'confirmed' }),
      ],
    },
  ],
};

describe('UserSyncPage', () => {
  it("shows a basic user their own credentials' state on each lock", async () => {
    storage.setAuthToken(validToken());
    const session = sessionFixture(['user']);
    const { calls } = renderApp('/sync/user', {
      'GET auth': () => json(session),
      [`GET user/${session.user._id}/sync`]: () => json(sync),
    });
    const front = await screen.findByRole('list', { name: 'Credentials on Front door' });
    expect(
      within(front)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringMatching(/Code.*On the lock/), expect.stringMatching(/App.*Sent/)]);
    const bikes = screen.getByRole('list', { name: 'Credentials on Bike room' });
    expect(
      within(bikes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/Card.*no reader.*Refused/),
      // Not "Sent": nothing reaches a lock that has never connected.
      'AppWaiting for the lock to connect',
    ]);
    expect(screen.getByText('Never connected')).toBeInTheDocument();
    const garage = screen.getByRole('list', { name: 'Credentials on Garage' });
    expect(
      within(garage)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['CodeWaiting: the lock is offline', 'CodeOn the lock']);
    expect(screen.getByText('Offline, last seen 2 hours ago')).toBeInTheDocument();
    expect(calls.some((c) => c.path === `user/${session.user._id}/sync`)).toBe(true);
    expect(screen.queryByRole('textbox', { name: 'Person' })).not.toBeInTheDocument();
  });

  it('asks an admin to choose a person first, then reads theirs', async () => {
    storage.setAuthToken(validToken());
    renderApp('/sync/user?userId=user-7', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET user/user-7/sync': () => json(sync),
      'GET portal/scopedUsers': () => json([]),
    });
    expect(await screen.findByRole('list', { name: 'Credentials on Front door' })).toBeInTheDocument();
  });
});
