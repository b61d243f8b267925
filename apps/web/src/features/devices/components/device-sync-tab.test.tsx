import type { DeviceCommandRecord, DeviceSync } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const sync: DeviceSync = {
  deviceId: 'device-1',
  desiredVersion: 4,
  desiredAt: '2026-11-23T10:00:00.000Z',
  sentVersion: 4,
  sentAt: '2026-11-23T10:00:01.000Z',
  confirmedVersion: 3,
  confirmedAt: '2026-11-23T09:00:00.000Z',
  reportedVersion: 3,
  inSync: false,
  rejected: [
    {
      credentialId: 'card-9',
      version: 3,
      reason: 'unsupported_kind',
      rejectedAt: '2026-11-23T09:00:00.000Z',
    },
  ],
  credentials: [
    {
      credentialId: 'code-1',
      kind: 'code',
      holder: 'Grace Hopper',
      userId: 'user-2',
      sinceVersion: 2,
      state: 'confirmed',
      reason: null,
    },
    {
      credentialId: 'code-2',
      kind: 'code',
      holder: 'Company code: Cleaners',
      userId: null,
      sinceVersion: 4,
      state: 'sent',
      reason: null,
    },
    {
      credentialId: 'card-9',
      kind: 'rfid',
      holder: 'Alan Turing',
      userId: 'user-3',
      sinceVersion: 3,
      state: 'rejected',
      reason: 'unsupported_kind',
    },
  ],
  online: true,
  lastSeenAt: '2026-11-23T10:00:05.000Z',
};

const command = (status: DeviceCommandRecord['status']): DeviceCommandRecord => ({
  commandId: 'cmd-1',
  deviceId: 'device-1',
  userId: 'user-1',
  action: 'unlock',
  status,
  error: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  expiresAt: '2026-11-23T10:00:30.000Z',
  answeredAt: status === 'pending' ? null : '2026-11-23T10:00:02.000Z',
});

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/app/device/device-1?tab=sync', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/device/device-1': () =>
      json(deviceFixture({ online: true, lockState: 'locked', firmware: 'sim-2.1' })),
    'GET device/device-1/sync': () => json(sync),
    ...routes,
  });
}

describe('DeviceSyncTab', () => {
  it("shows how far the lock's credential set got, credential by credential", async () => {
    setup();
    const region = await screen.findByRole('region', { name: 'Credentials on the lock' });
    expect(await within(region).findByText('Waiting for the lock')).toBeInTheDocument();
    expect(within(region).getByText('1 rejected')).toBeInTheDocument();
    const rows = within(within(region).getByRole('table', { name: 'Credentials on the lock' })).getAllByRole(
      'row',
    );
    expect(rows.slice(1).map((row) => row.textContent)).toEqual([
      expect.stringMatching(/Grace Hopper.*Code.*v2.*Confirmed/),
      expect.stringMatching(/Company code: Cleaners.*Code.*v4.*Sent/),
      expect.stringMatching(/Alan Turing.*Card.*v3.*Rejected.*no reader/),
    ]);
    expect(screen.getByRole('region', { name: 'Connection' })).toHaveTextContent('sim-2.1');
    // A lock that never said what it holds: its model's figure.
    expect(screen.getByRole('region', { name: 'Connection' })).toHaveTextContent(
      'Memory30 credentials (its model)',
    );
  });

  it('shows the code slots a bridged lock reported about itself, and what it takes', async () => {
    setup({
      'GET portal/device/device-1': () =>
        json(
          deviceFixture({
            online: true,
            model: 'zwave-lock',
            capabilities: { codeSlots: 30, codeLength: { min: 4, max: 10 }, kinds: ['code', 'remote'] },
          }),
        ),
    });
    const connection = await screen.findByRole('region', { name: 'Connection' });
    // The fixture's set has two codes the lock holds or is sent, and a card it refused.
    expect(await within(connection).findByText('30 code slots, 2 in use')).toBeInTheDocument();
    expect(within(connection).getByText('As the lock reports. It takes: Code, App')).toBeInTheDocument();
  });

  it("unlocks remotely and follows the lock's answer", async () => {
    let answered = false;
    const { calls } = setup({
      'POST device/device-1/command': () => json(command('pending'), 202),
      'GET device/device-1/command/cmd-1': () => json(command(answered ? 'ok' : 'pending')),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Unlock Front door now' }));
    expect(await screen.findByText('Waiting for Front door to answer…')).toBeInTheDocument();
    answered = true;
    expect(await screen.findByText('Front door unlocked.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'device/device-1/command')!.body).toEqual({ action: 'unlock' });
  });

  it('disables Unlock and Lock with the reason for a lock that never connected', async () => {
    setup({ 'GET portal/device/device-1': () => json(deviceFixture({ online: false, lastSeenAt: null })) });
    const unlock = await screen.findByRole('button', { name: 'Unlock Front door now' });
    expect(unlock).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Lock Front door now' })).toBeDisabled();
    expect(unlock).toHaveAccessibleDescription(
      'Front door has never connected: it cannot be opened from here until it connects.',
    );
  });

  it('says when the lock did not answer in time', async () => {
    setup({
      'POST device/device-1/command': () => json(command('pending'), 202),
      'GET device/device-1/command/cmd-1': () => json(command('expired')),
    });
    await setupUser().click(await screen.findByRole('button', { name: 'Lock Front door now' }));
    expect(await screen.findByText(/did not answer in time/, {}, { timeout: 4000 })).toBeInTheDocument();
  });
});
