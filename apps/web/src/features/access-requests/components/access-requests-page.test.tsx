import type { AccessRequest, MemberDevice } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const asked = (deviceId: string, deviceName: string): AccessRequest => ({
  _id: `request-${deviceId}`,
  device: { _id: deviceId, name: deviceName },
  requester: { _id: 'sam', name: 'Sam Resident', email: 'sam@example.com' },
  note: 'Evenings too, please',
  status: 'waiting',
  schedule: null,
  reason: '',
  answeredBy: null,
  answeredAt: null,
  createdAt: '2026-11-28T09:00:00.000Z',
});

// Sam opens the bike room through the Residents group, on weekdays in the daytime.
const samsLocks: MemberDevice[] = [
  {
    _id: 'bike',
    name: 'Bike room',
    timeZone: 'Europe/Berlin',
    schedule: { windows: [{ days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' }] },
    via: { direct: false, groups: [{ _id: 'residents', name: 'Residents' }] },
  },
];

async function openGrant(request: AccessRequest) {
  storage.setAuthToken(validToken());
  renderApp('/app/access-requests', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'POST accessRequest': () => json({ items: [request], total: 1 }),
    'GET user/sam/devices': () => json(samsLocks),
  });
  const user = setupUser();
  await user.click(await screen.findByRole('button', { name: 'Grant…' }));
  return screen.findByRole('dialog', { name: `Grant ${request.device.name}` });
}

describe('AccessRequestsPage', () => {
  it('tells the admin granting a lock that the person opens it already, how and when', async () => {
    const dialog = await openGrant(asked('bike', 'Bike room'));
    expect(await within(dialog).findByRole('note')).toHaveTextContent(
      /They open Bike room already through Residents, .*Granting gives them direct access on the schedule below\./,
    );
    expect(within(dialog).getByRole('button', { name: 'Grant access' })).toBeInTheDocument();
  });

  it('says nothing more for a lock the person does not open', async () => {
    const dialog = await openGrant(asked('roof', 'Roof terrace'));
    await within(dialog).findByText(/Sam Resident: when may they open it\?/);
    expect(within(dialog).queryByRole('note')).not.toBeInTheDocument();
  });
});
