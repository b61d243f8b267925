import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json, type RecordedCall } from '@/testing/fetch-mock';
import { portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const own = portalFixture();
const other = portalFixture({
  _id: 'portal-2',
  name: 'Dockside Offices',
  ownerId: 'user-7',
  expireDate: '2001-01-01T00:00:00.000Z',
  current: false,
});

function sessionFor(call: RecordedCall) {
  const acting = call.headers['x-portal-override'] === other._id ? other : own;
  return sessionFixture(['admin'], {
    memberships: [
      { portal: { _id: own._id, name: own.name }, role: 'admin', status: 'active', owner: true },
      { portal: { _id: other._id, name: other.name }, role: 'admin', status: 'active', owner: false },
      { portal: { _id: 'portal-3', name: 'Pending Place' }, role: 'user', status: 'invited', owner: false },
    ],
    portal: acting,
  });
}

const api = {
  'GET auth': (call: RecordedCall) => json(sessionFor(call)),
  'GET portal/user/portal/current/portal-2': () =>
    json({ portal: other, role: 'admin', status: 'active', viaPlatformRole: false }),
  'GET portal/user/portal/current/portal-1': () =>
    json({ portal: own, role: 'admin', status: 'active', viaPlatformRole: false }),
};

describe('PortalSwitcher', () => {
  it('lists active memberships and switches portal with the override header', async () => {
    storage.setAuthToken(validToken());
    const user = setupUser();
    const { calls } = renderApp('/app/profile', api);

    await user.click(await screen.findByRole('button', { name: 'Portal: Harbor View. Change portal' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: /Dockside Offices/ })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: /Pending Place/ })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: /Back to my portal/ })).toBeNull();

    await user.click(within(menu).getByRole('menuitem', { name: /Dockside Offices/ }));
    await screen.findByRole('button', { name: 'Portal: Dockside Offices. Change portal' });

    expect(storage.getPortal()).toBe('portal-2');
    expect(storage.getPortalContext()?.portal._id).toBe('portal-2');
    expect(calls.some((c) => c.path === 'portal/user/portal/current/portal-2')).toBe(true);
    const lastAuth = calls.filter((c) => c.path === 'auth').at(-1)!;
    expect(lastAuth.headers['x-portal-override']).toBe('portal-2');
    // The new portal is expired: the badge says so.
    expect(screen.getAllByText('Not paid').length).toBeGreaterThan(0);
  });

  it('goes back to the own portal, removing the stored override', async () => {
    storage.setAuthToken(validToken());
    storage.setPortal('portal-2');
    const user = setupUser();
    const { calls } = renderApp('/app/profile', api);

    await user.click(await screen.findByRole('button', { name: 'Portal: Dockside Offices. Change portal' }));
    await user.click(await screen.findByRole('menuitem', { name: /Back to my portal/ }));

    await screen.findByRole('button', { name: 'Portal: Harbor View. Change portal' });
    expect(storage.getPortal()).toBeNull();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === 'auth').at(-1)!.headers['x-portal-override']).toBeUndefined(),
    );
  });
});
